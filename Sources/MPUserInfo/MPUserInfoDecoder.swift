public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
@_spi(CodableCore) public import UserInfo

/// Decodes a `Decodable` state straight from MP userInfo bytes, without
/// building the `UserInfoValue` tree in between (Specs/codable.md, "Direct
/// MP decoding").
///
/// Its result is the tree path's, by construction: exactly
/// `options.decode(T.self, from: .dictionary(MPUserInfoReader(limits:).read(bytes)))`,
/// the same value or the same error. The state is decoded from the tape of
/// the reader's own pass (``MPScan``), or, for what that leaves to the tree
/// (`directDecodeHandOver`), from the tree built from that tape.
///
/// ```swift
/// let state = try MPUserInfoDecoder().decode(TripState.self, from: bytes)
/// ```
public struct MPUserInfoDecoder: Sendable {
    /// Bounds on the input and the value read.
    public var limits: PropertyListLimits
    /// The strategies and `userInfo` of the decoding.
    public var options: UserInfoDecoder

    /// Creates a decoder.
    public init(limits: PropertyListLimits = .default, options: UserInfoDecoder = UserInfoDecoder()) {
        (self.limits, self.options) = (limits, options)
    }

    /// Decodes a value of `type` from MP userInfo bytes.
    ///
    /// - Throws: ``UserInfoError`` for bytes the reader refuses, `DecodingError`
    ///   for a value that does not decode as `type`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let tape = try MPTape(reading: bytes, limits: limits)
        // directDecodeHandOver: what the direct decoding leaves to the tree, the tree path answers.
        guard !tape.content.handsOver else { return try options.decode(type, from: .dictionary(tape.dictionary())) }
        return try decode(type, from: tape)
    }

    /// Decodes a value of `type` from a tape made with this decoder's limits
    /// (and perhaps with its URLs translated: `PayloadCodec`).
    package func decode<T: Decodable>(_ type: T.Type, from tape: MPTape) throws -> T {
        try MPDecodingContext(tape: tape, options: options).unbox(0, as: type, at: .root)
    }

    /// Decodes a value of `type` from MP userInfo bytes.
    ///
    /// - Throws: ``UserInfoError`` or `DecodingError`, as ``decode(_:from:)-([UInt8])``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    /// True when the direct path reads `bytes` itself, without handing them
    /// over to the tree (what the tests check it does).
    package func takesDirectly(_ bytes: [UInt8]) -> Bool { MPTape(bytes, limits: limits) != nil }

    /// The tree path: the reader's value, decoded by `UserInfoDecoder` (the
    /// reference the direct path is checked against).
    package func treeDecode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try options.decode(type, from: .dictionary(try MPUserInfoReader(limits: limits).read(bytes)))
    }
}

// MARK: - Decoding over the tape

/// One decoding over a tape: the nodes, the bytes they point into, the tree
/// decoder's options, and per map where its next lookup starts.
final class MPDecodingContext: UserInfoDecodingSource {
    let tape: MPTape
    /// The tape's nodes (read for every value: held here, one load away).
    let nodes: [MPNode]
    /// The tree decoder's context: its scalars are decoded by its own code.
    let tree: DecodingContext
    /// Per map ordinal, the key node its next lookup tries first (0: its first key).
    /// (Never accessed while another access is open: no dynamic exclusivity check.)
    @exclusivity(unchecked) private var hints: [Int]
    /// Per large map (by node), its keys' value nodes, built on its first miss.
    @exclusivity(unchecked) private var indexes: [Int: [String: Int]] = [:]

    init(tape: MPTape, options: UserInfoDecoder) {
        (self.tape, nodes) = (tape, tape.nodes)
        tree = DecodingContext(options)
        hints = Array(repeating: 0, count: tape.content.maps)
    }

    var options: UserInfoDecoder { tree.options }

    // MARK: Values

    func string(_ index: Int) -> String { tape.string(index) }

    /// True when key node `index` holds `name`'s UTF-8.
    private func keyMatches(_ index: Int, _ name: String, utf8Count: Int) -> Bool {
        let node = nodes[index], all = tape.bytes
        guard Int(node.length) == utf8Count else { return false }
        return all.span.bytes.extracting(node.start..<node.start + utf8Count).sameBytes(asUTF8Of: name)
    }

    func scalar(_ index: Int) -> UserInfoValue { tape.scalar(index) }

    /// A URL node's URL as the tree's `UserInfoURL.url` gives it (parsed once:
    /// when the scan checked it, or now); nil when it does not parse.
    func url(_ node: MPNode) -> URL? {
        let slot = Int(node.bits)
        return tape.content.urls[slot].parsed ?? tape.content.urls[slot].value.url
    }

    // The scalars most states hold, read from the node; anything else (and
    // every error) from the node's value, by the tree decoder's own code. A
    // member under `key` of the container at `path` (the shared containers').

    func isNull(_ index: Int) -> Bool { nodes[index].kind == .null }

    @inline(__always)
    func bool(_ index: Int, in path: CodingPathNode, at key: some CodingKey) throws -> Bool {
        if nodes[index].kind == .bool { return nodes[index].bits != 0 }
        return try UserInfoDecoding.bool(scalar(index), path.appending(key))
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, in path: CodingPathNode, at key: some CodingKey) throws -> T {
        if nodes[index].kind == .signed, let value = T(exactly: Int64(bitPattern: nodes[index].bits)) { return value }
        return try UserInfoDecoding.integer(type, scalar(index), path.appending(key))
    }

    @inline(__always)
    func double(_ index: Int, in path: CodingPathNode, at key: some CodingKey) throws -> Double {
        if nodes[index].kind == .real { return Double(bitPattern: nodes[index].bits) }
        return try UserInfoDecoding.double(scalar(index), path.appending(key))
    }

    @inline(__always)
    func string(_ index: Int, in path: CodingPathNode, at key: some CodingKey) throws -> String {
        if nodes[index].kind == .string { return string(index) }
        return try UserInfoDecoding.string(scalar(index), path.appending(key))
    }

    @inline(__always)
    func float(_ index: Int, in path: CodingPathNode, at key: some CodingKey) throws -> Float {
        try UserInfoDecoding.float(scalar(index), path.appending(key))
    }

    @inline(__always)
    func unbox<T: Decodable>(_ index: Int, as type: T.Type, in path: CodingPathNode, at key: some CodingKey) throws -> T {
        try unbox(index, as: type, at: path.appending(key))
    }

    /// The decoder of a node: a map's or array's reads the tape.
    func decoder(for index: Int, at path: CodingPathNode) -> MPDecoding {
        MPDecoding(context: self, node: index, path: path)
    }

    /// The tree decoder of a node's scalar (or of its placeholder).
    func treeDecoder(_ index: Int, _ path: CodingPathNode) -> UserInfoDecoding {
        UserInfoDecoding(context: tree, value: scalar(index), path: path)
    }

    // MARK: Maps

    /// The key nodes of a map, in order.
    func keys(of map: Int) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(Int(nodes[map].length))
        var key = map + 1
        while key < Int(nodes[map].next) {
            keys.append(string(key))
            key = Int(nodes[key + 1].next)
        }
        return keys
    }

    /// The value node under `name` in `map`, or nil. States read their keys in
    /// the order they wrote them, so the key after the last one found is tried
    /// first; then a scan (up to ``MPTape/scanLimit`` keys) or the map's index.
    func lookup(_ name: String, in map: Int) -> Int? {
        let node = nodes[map]
        guard node.length > 0 else { return nil }
        let ordinal = Int(node.bits), first = map + 1, end = Int(node.next)
        let hint = hints[ordinal] == 0 ? first : Int(hints[ordinal])
        let utf8Count = name.utf8.count
        func found(_ key: Int) -> Int {
            let following = Int(nodes[key + 1].next)
            hints[ordinal] = following < end ? following : 0
            return key + 1
        }
        if keyMatches(hint, name, utf8Count: utf8Count) { return found(hint) }
        guard Int(node.length) <= MPTape.scanLimit else {
            if indexes[map] == nil {
                var index: [String: Int] = Dictionary(minimumCapacity: Int(node.length))
                var key = first
                while key < end {
                    index[string(key)] = key + 1
                    key = Int(nodes[key + 1].next)
                }
                indexes[map] = index
            }
            return indexes[map]![name]
        }
        var key = first
        while key < end {
            if key != hint, keyMatches(key, name, utf8Count: utf8Count) { return found(key) }
            key = Int(nodes[key + 1].next)
        }
        // A name that is not ASCII may still be canonically equivalent to an ASCII key.
        guard name.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        key = first
        while key < end {
            if string(key) == name { return found(key) }
            key = Int(nodes[key + 1].next)
        }
        return nil
    }

    // MARK: Unboxing

    /// Decodes `type` from node `index`, mapping as `UserInfoDecoding.unbox` maps.
    /// (`path` is made only when needed: for an error, or for a container's members.)
    func unbox<T: Decodable>(_ index: Int, as type: T.Type, at path: @autoclosure () -> CodingPathNode) throws -> T {
        let node = nodes[index], kind = node.kind
        // The scalars states hold most, as the tree decoder maps them (its `unbox`).
        switch kind {
        case .string where type == String.self: return _identityCast(string(index), to: T.self)
        case .bool where type == Bool.self: return _identityCast(node.bits != 0, to: T.self)
        case .real where type == Double.self: return _identityCast(Double(bitPattern: node.bits), to: T.self)
        case .signed where type == Int.self: if let value = Int(exactly: Int64(bitPattern: node.bits)) { return _identityCast(value, to: T.self) }
        case .date where type == Date.self && options.dateDecodingStrategy == .date:
            return _identityCast(Date(timeIntervalSinceReferenceDate: Double(bitPattern: node.bits)), to: T.self)
        // A URL, parsed once when the tape checked it (as the tree's `UserInfoURL.url` parses it).
        case .url where type == URL.self: if let url = self.url(node) { return _identityCast(url, to: T.self) }
        default: break
        }
        let path = path()
        guard kind == .map || kind == .array else {
            let decoder = treeDecoder(index, path)
            return try decoder.unbox(decoder.value, as: type, at: path)
        }
        // The types the tree decoder maps itself refuse a container (with its errors).
        if type == String.self || type == Bool.self || type == Int.self || type == Int64.self || type == Double.self
            || type == Date.self || type == Data.self || type == UUID.self || type == URL.self {
            let decoder = treeDecoder(index, path)
            return try decoder.unbox(decoder.value, as: type, at: path)
        }
        switch CollectionKinds.kind(type) {
        case .other:
            break
        case .array:
            if let arrayType = type as? any MPArrayDecodable.Type {
                guard kind == .array else { throw UserInfoDecoding.mismatch([Any].self, scalar(index), path) }
                return try arrayType.decodeElements(of: index, in: self, at: path) as! T
            }
        case .set:
            // The tape holds no set: the tree path reads them.
            throw UserInfoDecoding.mismatch(type, scalar(index), path)
        case .stringDictionary:
            if options.keyDecodingStrategy == .useDefaultKeys, let dictionaryType = type as? any MPStringDictionaryDecodable.Type {
                guard kind == .map else { throw UserInfoDecoding.mismatch([String: Any].self, scalar(index), path) }
                return try dictionaryType.decodeEntries(of: index, in: self, at: path) as! T
            }
        }
        return try T(from: MPDecoding(context: self, node: index, path: path))
    }
}

/// Marks `[V]`, read element by element from an array node.
protocol MPArrayDecodable {
    static func decodeElements(of array: Int, in context: MPDecodingContext, at path: CodingPathNode) throws -> Self
}

extension Array: MPArrayDecodable where Element: Decodable {
    static func decodeElements(of array: Int, in context: MPDecodingContext, at path: CodingPathNode) throws -> [Element] {
        let count = Int(context.nodes[array].length)
        var result: [Element] = []
        result.reserveCapacity(count)
        var element = array + 1
        for position in 0..<count {
            result.append(try context.unbox(element, as: Element.self, at: path.appending(AnyCodingKey(position))))
            element = Int(context.nodes[element].next)
        }
        return result
    }
}

/// Marks `[String: V]`, read entry by entry from a map node.
protocol MPStringDictionaryDecodable {
    static func decodeEntries(of map: Int, in context: MPDecodingContext, at path: CodingPathNode) throws -> Self
}

extension Dictionary: MPStringDictionaryDecodable where Key == String, Value: Decodable {
    static func decodeEntries(of map: Int, in context: MPDecodingContext, at path: CodingPathNode) throws -> [String: Value] {
        let count = Int(context.nodes[map].length)
        var result: [String: Value] = Dictionary(minimumCapacity: count)
        var key = map + 1
        for _ in 0..<count {
            let name = context.string(key)
            result[name] = try context.unbox(key + 1, as: Value.self, at: path.appending(AnyCodingKey(dictionaryKey: name)))
            key = Int(context.nodes[key + 1].next)
        }
        return result
    }
}

/// The decoder of one node: a map's or array's containers over the tape;
/// a scalar's, the tree decoder's own.
struct MPDecoding: Decoder {
    let context: MPDecodingContext
    let node: Int
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { context.options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard context.nodes[node].kind == .map else { return try context.treeDecoder(node, path).container(keyedBy: type) }
        return KeyedDecodingContainer(MPKeyedDecoder<Key>(source: context, map: node, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard context.nodes[node].kind == .array else { return try context.treeDecoder(node, path).unkeyedContainer() }
        return MPUnkeyedDecoder(context: context, array: node, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard context.nodes[node].isContainer else { return try context.treeDecoder(node, path).singleValueContainer() }
        return MPContainerValueDecoder(decoding: self)
    }
}

/// A map node's members, for the shared keyed container (CodableContainers.swift).
struct MPKeyedDecoder<Key: CodingKey>: UserInfoKeyedDecoding {
    let source: MPDecodingContext
    let map: Int
    let path: CodingPathNode

    var keyNames: [String] { source.keys(of: map) }
    func member(named name: String) -> Int? { source.lookup(name, in: map) }
}

/// An array node's elements, for the shared unkeyed container.
struct MPUnkeyedDecoder: UserInfoUnkeyedDecoding {
    let source: MPDecodingContext
    let path: CodingPathNode
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private(set) var current: Int

    init(context: MPDecodingContext, array: Int, path: CodingPathNode) {
        (source, self.path) = (context, path)
        count = Int(context.nodes[array].length)
        current = array + 1
    }

    mutating func advance() {
        currentIndex += 1
        current = source.nodes[current].next
    }
}

/// The single value of a map or array node: the scalar types refuse it with
/// the tree decoder's errors; any other type is read from the node.
struct MPContainerValueDecoder: UserInfoSingleValueDecoding {
    let decoding: MPDecoding
    var codingPath: [any CodingKey] { decoding.codingPath }

    /// The tree's decoder of the node's placeholder, which refuses every scalar type.
    private var refusing: UserInfoDecoding { decoding.context.treeDecoder(decoding.node, decoding.path) }

    func decodeNil() -> Bool { false }
    func bool() throws -> Bool { try refusing.bool() }
    func string() throws -> String { try refusing.string() }
    func double() throws -> Double { try refusing.double() }
    func float() throws -> Float { try refusing.float() }
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T { try refusing.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoding.context.unbox(decoding.node, as: type, at: decoding.path)
    }
}
