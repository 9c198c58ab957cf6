public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
@_spi(CodableCore) public import UserInfo

/// Encodes an `Encodable` state straight to Apple's "MP" MessagePack userInfo,
/// without building the `UserInfoValue` tree in between (Specs/codable.md,
/// "Direct MP encoding").
///
/// The result is exactly `MPUserInfoWriter(limits:).writeBytes(try
/// encoder.encodeDictionary(value))`, bytes and errors alike: the direct path
/// writes as the `Encodable` calls its containers, and hands anything it does
/// not write the same way (a key written twice, a container written to after
/// another, a super encoder, any error) to that tree path, which then gives
/// the answer. `Encodable` implementations may therefore run twice; they
/// must not depend on running once.
///
/// ```swift
/// let bytes = try MPUserInfoEncoder().encode(state)    // == MPUserInfoWriter().write(UserInfoEncoder().encodeDictionary(state))
/// ```
public struct MPUserInfoEncoder: Sendable {
    /// The mapping of Swift values (strategies and `userInfo`), as ``UserInfoEncoder`` has it.
    public var encoder: UserInfoEncoder
    /// The bounds of what is written, as ``MPUserInfoWriter/limits``.
    public var limits: WriterLimits

    /// Creates an encoder with `encoder`'s strategies and the given limits.
    public init(encoder: UserInfoEncoder = UserInfoEncoder(), limits: WriterLimits = .default) {
        self.encoder = encoder
        self.limits = limits
    }

    /// The MP bytes of `value`, which must encode as a keyed container.
    ///
    /// - Throws: what the tree path throws: `EncodingError` from the
    ///   mapping, ``UserInfoError`` from the writer.
    public func encodeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let bytes = MPStream.write(value, options: encoder, limits: limits) { return bytes }
        return try treeBytes(value)
    }

    /// The MP bytes of `value` (see ``encodeBytes(_:)``).
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeBytes(value))
    }

    /// The tree path: the value tree, then the writer. What the direct path must equal.
    package func treeBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        try MPUserInfoWriter(limits: limits).writeBytes(try encoder.encodeDictionary(value))
    }

    /// The direct path alone: nil where it hands the value to the tree path.
    package func directBytes<T: Encodable>(_ value: T) -> [UInt8]? {
        MPStream.write(value, options: encoder, limits: limits)
    }

    /// The direct path for a payload (`PayloadCodec`'s Codable encode): the
    /// bytes of the tree path's dictionary changed as the payload changes it,
    /// `entries` added at the end (a key the state wrote too hands over), and
    /// every URL value replaced by `translateURL`'s (nil hands over; so does a
    /// URL inside a value mapped whole, such as a set). Nil where it hands over.
    package func directBytes<T: Encodable>(_ value: T, translatingURLs translateURL: @escaping (UserInfoURL) -> UserInfoURL?,
                                           appending entries: UserInfoDictionary) -> [UInt8]? {
        MPStream.write(value, options: encoder, limits: limits, translatingURLs: translateURL, appending: entries)
    }
}

/// Why the direct path stopped: the tree path answers instead.
struct HandToTreePath: Error {}

/// One direct encoding: the output with its meter, and the containers still open.
///
/// A container's header is one placeholder byte, set when the container
/// closes (a later write to its parent closes it); a count over 15 needs a
/// wider header, inserted in one pass at the end. Writing is allowed only at
/// the innermost open container, and a value only where its slot is (nothing
/// written since the slot was taken): anything else hands over to the tree path.
final class MPStream {
    let options: UserInfoEncoder
    /// Everything that changes, in one value: one access per operation, and
    /// none open while a value encodes itself (``write(_:depth:parent:key:)`` calls
    /// out between accesses), so no two accesses overlap and the dynamic
    /// exclusivity check is left out (measured: 7% of a direct encode).
    @exclusivity(unchecked) var state: StreamState

    init(options: UserInfoEncoder, limits: WriterLimits) {
        self.options = options
        state = StreamState(out: MPEncoder(maxDepth: limits.maxDepth, meter: ExpansionMeter(limit: limits.maxExpandedBytes)))
    }

    /// The direct bytes of `value`, or nil (see ``MPUserInfoEncoder/directBytes(_:translatingURLs:appending:)``).
    static func write<T: Encodable>(_ value: T, options: UserInfoEncoder, limits: WriterLimits,
                                    translatingURLs translateURL: ((UserInfoURL) -> UserInfoURL?)? = nil,
                                    appending entries: UserInfoDictionary = [:]) -> [UInt8]? {
        guard (try? limits.validate()) != nil else { return nil }
        let stream = MPStream(options: options, limits: limits)
        stream.state.translateURL = translateURL
        for byte in MPUserInfoReader.header { stream.state.out.sink.append(byte) }
        do {
            // The top map: a [String: V]'s entries, or the value's own keyed container
            // (a type that maps directly otherwise, a URL, a set…, is no dictionary,
            // however it encodes itself).
            let top: Int?
            switch try options.mapping(value, at: .root, streamingEntries: true) {
            case .value?:
                return nil
            case .entries(let dictionary)?:
                top = try stream.writeEntries(dictionary, depth: 0, parent: nil, key: nil)
            case nil:
                let encoder = MPValueEncoder(stream: stream, parent: nil, key: nil, depth: 0)
                try value.encode(to: encoder)
                try encoder.finish()
                // (A value written through a single-value container is checked to be a map at the end.)
                top = encoder.container.flatMap { $0.isKeyed ? $0.id : nil }
            }
            if !entries.isEmpty {
                guard let top else { return nil }
                for (key, entry) in entries { try stream.state.write(entry, key: key, in: top) }
            }
        } catch {
            return nil
        }
        return stream.state.finish(limits)
    }

    /// Writes a [String: V] at `depth` (its slot taken): a map of its entries,
    /// each value written in turn. Returns the map's container id.
    func writeEntries(_ dictionary: any StringDictionaryEntries, depth: Int, parent: MPValueEncoder?, key: (any CodingKey)?) throws -> Int {
        let encoder = MPValueEncoder(stream: self, parent: parent, key: key, depth: depth)
        let id = try state.openContainer(keyed: true, depth: depth)
        try dictionary.forEachEntry { entryKey, entry in
            let entryDepth = try state.key(entryKey, in: id)
            try write(entry, depth: entryDepth, parent: encoder, key: AnyCodingKey(dictionaryKey: entryKey))
        }
        return id
    }

    /// Writes an `Encodable` at `depth` (its slot taken): a type that maps
    /// directly as its userInfo value, any other through its own `encode(to:)`
    /// (outside any access to `state`: it calls back into the stream).
    /// `parent` is the encoder of the container it is in, and `key` its key there.
    func write<T: Encodable>(_ value: T, depth: Int, parent: MPValueEncoder?, key: (any CodingKey)?) throws {
        switch try options.mapping(value, at: MPValueEncoder.path(parent, key), streamingEntries: true) {
        case .value(let special)?:
            try state.write(special, depth: depth)
            return
        case .entries(let dictionary)?:
            _ = try writeEntries(dictionary, depth: depth, parent: parent, key: key)
            return
        case nil:
            break
        }
        let encoder = MPValueEncoder(stream: self, parent: parent, key: key, depth: depth)
        try value.encode(to: encoder)
        try encoder.finish()
    }
}

/// The output with its meter, and the containers still open.
struct StreamState: ~Copyable {
    var out: MPEncoder
    /// Set once anything went another way than the tree path's (`directHandOver`): the result is then discarded.
    var handedOver = false
    /// What each URL value becomes (nil: hand over), when URLs are translated.
    var translateURL: ((UserInfoURL) -> UserInfoURL?)?

    struct Open {
        let id: Int
        let headerPosition: Int
        let isKeyed: Bool
        let depth: Int
        let keysStart: Int
        var count = 0
        /// Whether every key so far is ASCII: then two keys are equal exactly when their bytes are.
        var asciiKeys = true
        /// The ASCII keys' signatures (`ByteSink.asciiSignature`), or-ed: a key whose bit is clear is new.
        var signatures: UInt64 = 0
        /// Whether its keys are also in `keySets` (past 16 keys).
        var hasKeySet = false
    }
    /// Open containers, innermost last.
    var open: [Open] = []
    var nextID = 1
    /// Where the keys of the open keyed containers are in the output (each
    /// container's from its `keysStart`), to find a key written twice.
    var keys: [Range<Int>] = []
    /// The keys of the open keyed containers with more than 16, by container id.
    var keySets: [Int: Set<String>] = [:]
    /// Headers over 15 members: (position, count, map or array).
    var wideHeaders: [(position: Int, count: Int, isKeyed: Bool)] = []

    init(out: consuming MPEncoder) {
        self.out = out
        open.reserveCapacity(8)
        keys.reserveCapacity(32)
    }

    /// The bytes, once the top value is written: nil unless it is a dictionary
    /// (encodeDictionary) read back within the limits.
    mutating func finish(_ limits: WriterLimits) -> [UInt8]? {
        // A map: a streamed one's placeholder (0x80), or a mapped dictionary's header.
        guard !handedOver, out.sink.count > 4, out.sink[4] & 0xF0 == 0x80 || out.sink[4] == 0xDE || out.sink[4] == 0xDF else { return nil }
        while let last = open.popLast() { close(last) }
        guard let bytes = takeBytes() else { return nil }
        guard (try? out.meter.checkReadable(outputBytes: bytes.count, limits)) != nil else { return nil }
        return bytes
    }

    /// Stops the direct path.
    mutating func handOver() -> HandToTreePath {
        handedOver = true
        return HandToTreePath()
    }

    /// Makes `id` the innermost open container, closing those inside it.
    mutating func activate(_ id: Int) throws(HandToTreePath) {
        guard !handedOver else { throw HandToTreePath() }
        while let last = open.last, last.id != id {
            close(open.removeLast())
        }
        guard !open.isEmpty else { throw handOver() }
    }

    mutating func close(_ container: Open) {
        keys.removeSubrange(container.keysStart...)
        if container.hasKeySet { keySets[container.id] = nil }
        if container.count <= 15 {
            out.sink[container.headerPosition] = (container.isKeyed ? 0x80 : 0x90) | UInt8(container.count)
        } else {
            wideHeaders.append((container.headerPosition, container.count, container.isKeyed))
        }
    }

    /// Opens a container as the value at `depth` (charged as the writer charges it).
    mutating func openContainer(keyed: Bool, depth: Int) throws(HandToTreePath) -> Int {
        do throws(PropertyListError) {
            try out.meter.charge(depth: depth, payload: 0)
        } catch {
            throw handOver()
        }
        do { try out.enter(depth) } catch { throw handOver() }
        let id = nextID
        nextID += 1
        open.append(Open(id: id, headerPosition: out.sink.count, isKeyed: keyed, depth: depth, keysStart: keys.count))
        out.sink.append(keyed ? 0x80 : 0x90)
        return id
    }

    /// Writes `key` as the next key of keyed container `id`; returns the depth of its value.
    mutating func key(_ key: String, in id: Int) throws(HandToTreePath) -> Int {
        try activate(id)
        let index = open.count - 1
        do { try out.string(key) } catch { throw handOver() }
        let end = out.sink.count
        let written = (end - key.utf8.count)..<end
        // A key written twice keeps its last value in the tree path, whose
        // keys are equal as Strings (canonical equivalence). Up to 16 keys are
        // compared by scan, more through a set. ASCII keys among ASCII keys
        // are equal exactly when their bytes are (a non-ASCII key may equal an
        // ASCII one: the Kelvin sign K is K), and compared only when their
        // signature bits meet; any other pair is compared as Strings.
        var container = open[index]
        if !container.hasKeySet && container.count < 16 {
            let signature = out.sink.asciiSignature(written)
            if container.asciiKeys && signature != 0 {
                if container.signatures & signature != 0 {
                    for existing in keys[container.keysStart...] where out.sink.bytesEqual(existing, written) { throw handOver() }
                }
                container.signatures |= signature
            } else {
                container.asciiKeys = false
                for existing in keys[container.keysStart...] where out.sink.string(in: existing) == key { throw handOver() }
            }
            keys.append(written)
        } else {
            if !container.hasKeySet {
                keySets[id] = Set(keys[container.keysStart...].map { out.sink.string(in: $0) })
                container.hasKeySet = true
            }
            guard keySets[id, default: []].insert(key).inserted else { throw handOver() }
        }
        container.count += 1
        open[index] = container
        return container.depth + 1
    }

    /// Counts the next element of unkeyed container `id`; returns its depth.
    mutating func element(in id: Int) throws(HandToTreePath) -> Int {
        try activate(id)
        open[open.count - 1].count += 1
        return open[open.count - 1].depth + 1
    }

    /// Writes a value the tree encoder would make, as the writer writes it
    /// (a URL translated, when URLs are).
    mutating func write(_ value: UserInfoValue, depth: Int) throws(HandToTreePath) {
        if let translateURL {
            switch value {
            case .url(let url):
                guard let sent = translateURL(url) else { throw handOver() }
                do { try out.encode(.url(sent), depth: depth) } catch { throw handOver() }
                return
            case .array, .set, .dictionary:
                // A value mapped whole (a set, a top-level dictionary): its URLs are the tree's to translate.
                guard !value.containsURL else { throw handOver() }
            default:
                break
            }
        }
        do { try out.encode(value, depth: depth) } catch { throw handOver() }
    }

    /// Writes `key` and then `value` in keyed container `id` (one access for both).
    mutating func write(_ value: UserInfoValue, key: String, in id: Int) throws(HandToTreePath) {
        let depth = try self.key(key, in: id)
        try write(value, depth: depth)
    }

    /// Writes `value` as the next element of unkeyed container `id`.
    mutating func append(_ value: UserInfoValue, in id: Int) throws(HandToTreePath) {
        let depth = try element(in: id)
        try write(value, depth: depth)
    }

    /// The number of members written to open container `id` (0 once it closed).
    func count(of id: Int) -> Int { open.last(where: { $0.id == id })?.count ?? 0 }

    /// The output with every wide header inserted; nil past MessagePack's 32-bit counts.
    mutating func takeBytes() -> [UInt8]? {
        var sink = ByteSink(capacity: 0)
        swap(&sink, &out.sink)
        let bytes = sink.takeBytes()
        guard !wideHeaders.isEmpty else { return bytes }
        wideHeaders.sort { $0.position < $1.position }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 4 * wideHeaders.count)
        var copied = 0
        for (position, count, isKeyed) in wideHeaders {
            result.append(contentsOf: bytes[copied..<position])
            if count <= 0xFFFF {
                result.append(isKeyed ? 0xDE : 0xDC)
                result.append(UInt8(count >> 8)); result.append(UInt8(truncatingIfNeeded: count))
            } else {
                guard count <= Int(UInt32.max) else { return nil }
                result.append(isKeyed ? 0xDF : 0xDD)
                for shift in [24, 16, 8, 0] { result.append(UInt8(truncatingIfNeeded: count >> shift)) }
            }
            copied = position + 1
        }
        result.append(contentsOf: bytes[copied...])
        return result
    }
}

/// The encoder one value writes itself to, in place: at the slot that was
/// taken for it when it was created.
final class MPValueEncoder: Encoder, CodingPathOwner {
    let stream: MPStream
    /// The encoder of the container this value is in (nil at the top) and
    /// the value's key there: the coding path, made only when asked for.
    let parent: MPValueEncoder?
    let key: (any CodingKey)?
    let depth: Int
    /// Where the value starts: nothing may have been written since, when it starts.
    let slot: Int
    /// The container it opened, if any, and whether it is keyed.
    var container: (id: Int, isKeyed: Bool)?
    var wroteSingleValue = false

    init(stream: MPStream, parent: MPValueEncoder?, key: (any CodingKey)?, depth: Int) {
        self.stream = stream
        self.parent = parent
        self.key = key
        self.depth = depth
        slot = stream.state.out.sink.count
    }

    /// The path of the value under `key` in `parent`'s container.
    static func path(_ parent: MPValueEncoder?, _ key: (any CodingKey)?) -> CodingPathNode {
        guard let parent, let key else { return .root }
        return parent.path.appending(key)
    }

    var path: CodingPathNode { Self.path(parent, key) }
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { stream.options.userInfo }

    /// Checks that the value is written where its slot is, and only once.
    func startValue() throws(HandToTreePath) {
        guard !stream.state.handedOver, container == nil, !wroteSingleValue, stream.state.out.sink.count == slot else { throw stream.state.handOver() }
    }

    /// The value is complete: it wrote exactly one value.
    func finish() throws(HandToTreePath) {
        guard container != nil || wroteSingleValue else { throw stream.state.handOver() }
    }

    /// The id of this value's container of the given kind, opened on first use; nil after a conflict.
    private func containerID(keyed: Bool) -> Int? {
        if let container {
            guard container.isKeyed == keyed else {
                stream.state.handedOver = true
                return nil
            }
            return container.id
        }
        do {
            try startValue()
            let id = try stream.state.openContainer(keyed: keyed, depth: depth)
            container = (id, keyed)
            return id
        } catch {
            return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(MPKeyedContainer<Key>(encoder: self, id: containerID(keyed: true) ?? -1))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        MPUnkeyedContainer(encoder: self, id: containerID(keyed: false) ?? -1)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { MPSingleValueContainer(encoder: self) }
}

/// A keyed container's sink: keys and values written to the stream (the
/// methods themselves: UserInfo's CodableContainers.swift).
struct MPKeyedContainer<Key: CodingKey>: UserInfoKeyedEncoding {
    let encoder: MPValueEncoder
    let id: Int
    var options: UserInfoEncoder { encoder.stream.options }
    private var stream: MPStream { encoder.stream }

    mutating func write(_ value: UserInfoValue, forKey key: Key) throws {
        try stream.state.write(value, key: options.dictionaryKey(key), in: id)
    }

    mutating func write<T: Encodable>(encodable value: T, forKey key: Key) throws {
        let depth = try stream.state.key(options.dictionaryKey(key), in: id)
        try stream.write(value, depth: depth, parent: encoder, key: key)
    }

    /// The encoder of the value under `key`, its key written (a failure hands over, and its container then refuses every write).
    private func nestedEncoder(_ key: Key) -> MPValueEncoder {
        _ = try? stream.state.key(options.dictionaryKey(key), in: id)
        return MPValueEncoder(stream: stream, parent: encoder, key: key, depth: encoder.depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        nestedEncoder(key).unkeyedContainer()
    }

    // A super encoder may encode nothing (no entry in the tree path) or encode late: the tree path writes it.
    mutating func superEncoder(forAnyKey key: some CodingKey) -> any Encoder {
        stream.state.handedOver = true
        return MPValueEncoder(stream: stream, parent: encoder, key: key, depth: encoder.depth + 1)
    }
}

/// An unkeyed container's sink: elements written to the stream.
struct MPUnkeyedContainer: UnkeyedEncodingContainer, UserInfoValueEncoding {
    let encoder: MPValueEncoder
    let id: Int
    var codingPath: [any CodingKey] { encoder.codingPath }
    var options: UserInfoEncoder { encoder.stream.options }
    var nextIndex: Int? { count }
    private var stream: MPStream { encoder.stream }

    /// The elements written, kept by the stream (shared by every copy of this container).
    var count: Int { stream.state.count(of: id) }

    mutating func write(_ value: UserInfoValue) throws {
        try stream.state.append(value, in: id)
    }

    mutating func write<T: Encodable>(encodable value: T) throws {
        let key = AnyCodingKey(count)
        let depth = try stream.state.element(in: id)
        try stream.write(value, depth: depth, parent: encoder, key: key)
    }

    /// The encoder of the next element, counted (a failure hands over, and its container then refuses every write).
    private mutating func nestedEncoder() -> MPValueEncoder {
        let key = AnyCodingKey(count)
        _ = try? stream.state.element(in: id)
        return MPValueEncoder(stream: stream, parent: encoder, key: key, depth: encoder.depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        nestedEncoder().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { nestedEncoder().unkeyedContainer() }

    mutating func superEncoder() -> any Encoder {
        stream.state.handedOver = true
        return nestedEncoder()
    }
}

/// A single-value container's sink: the value written to the stream at its slot.
struct MPSingleValueContainer: SingleValueEncodingContainer, UserInfoValueEncoding {
    let encoder: MPValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var options: UserInfoEncoder { encoder.stream.options }
    var nextIndex: Int? { nil }
    private var stream: MPStream { encoder.stream }

    mutating func write(_ value: UserInfoValue) throws {
        try encoder.startValue()
        try stream.state.write(value, depth: encoder.depth)
        encoder.wroteSingleValue = true
    }

    mutating func write<T: Encodable>(encodable value: T) throws {
        try encoder.startValue()
        // The inner value is this value: same slot, depth and path.
        try stream.write(value, depth: encoder.depth, parent: encoder.parent, key: encoder.key)
        encoder.wroteSingleValue = true
    }
}

extension UserInfoValue {
    /// Whether a URL is anywhere in this value (a base counts as part of its URL).
    fileprivate var containsURL: Bool {
        switch self {
        case .url: true
        case .array(let elements): elements.contains { $0.containsURL }
        case .set(let set): set.contains { $0.containsURL }
        case .dictionary(let dictionary): dictionary.contains { $0.value.containsURL }
        default: false
        }
    }
}
