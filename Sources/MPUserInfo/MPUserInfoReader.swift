public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Reads Apple's "MP" userInfo: the MessagePack form, written by the cmp
/// library that UserActivity.framework embeds, in which current Apple
/// devices send an activity's `userInfo` (Specs/mp-userinfo.md).
///
/// Strict: the header `4D 50 03 05`, one map at the top with string keys,
/// each once, every marker and extension form Apple's writer uses and no
/// other, UTF-8 strings, the limits, nothing after the value. Errors are
/// ``UserInfoError``s with the byte offset of the value at fault and its key
/// path. Nesting is kept on a heap stack, never the call stack
/// (Specs/architecture.md, "One stack policy").
///
/// ```swift
/// let userInfo = try MPUserInfoReader(limits: .payload).read(bytes)
/// ```
public struct MPUserInfoReader: Sendable {
    /// Bounds on the input and the value read.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// The header Apple's writer puts first: `MP`, cmp version 3, MessagePack spec 5.
    public static let header: [UInt8] = [0x4D, 0x50, 0x03, 0x05]

    /// True when the bytes start with `MP`: Apple's own test for this form
    /// (anything else is a keyed archive to its reader).
    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x4D && iterator.next() == 0x50
    }

    /// Reads an MP userInfo.
    ///
    /// - Throws: ``UserInfoError``, with the codes of Specs/mp-userinfo.md.
    public func read(_ data: Data) throws(UserInfoError) -> UserInfoDictionary {
        try checkLimits(inputBytes: data.count)
        var decoder = MPDecoder(data.bytes, limits: limits)
        return try decoder.read()
    }

    /// Reads an MP userInfo.
    ///
    /// - Throws: ``UserInfoError``, with the codes of Specs/mp-userinfo.md.
    public func read(_ bytes: [UInt8]) throws(UserInfoError) -> UserInfoDictionary {
        try checkLimits(inputBytes: bytes.count)
        var decoder = MPDecoder(bytes.span.bytes, limits: limits)
        return try decoder.read()
    }

    /// True when MP bytes `byteCount` long cannot exceed any bound of `limits`
    /// but the depth, whatever they hold (Specs/payload.md, "payloadLimits").
    /// Every MP value and key takes at least a byte, so the values, members,
    /// string and data bytes are each at most `byteCount`; within `maxDepth`
    /// each value charges the expansion meter at most 8 + depth + its payload,
    /// a URL its relative string once more, so the expanded size is at most
    /// `byteCount` × (10 + maxDepth).
    package static func withinLimits(byteCount count: Int, _ limits: PropertyListLimits) -> Bool {
        guard count <= limits.maxInputBytes, count <= limits.maxObjects, count <= limits.maxCollectionCount,
              count <= limits.maxStringBytes, count <= limits.maxDataBytes else { return false }
        let (expanded, overflow) = count.multipliedReportingOverflow(by: 10 + limits.maxDepth)
        return !overflow && expanded <= limits.expansionBudget(inputBytes: count)
    }

    private func checkLimits(inputBytes: Int) throws(UserInfoError) {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(.invalidLimits, error.reason)
        }
        // inputTooLarge
        guard inputBytes <= limits.maxInputBytes else {
            throw UserInfoError(.inputTooLarge, "the input is \(inputBytes) bytes, over maxInputBytes \(limits.maxInputBytes)",
                                location: .unknown)
        }
    }
}

/// The decoding state: a ``ByteReader`` over the input (every read checked
/// against its end) and the open containers.
private struct MPDecoder: ~Copyable, ~Escapable {
    /// An open container: a map, an array, a set, or a URL with a base (its
    /// base URL, then its relative string).
    private struct Frame {
        enum Kind { case map, array, set, url }
        var kind: Kind
        /// Members (map entries, URL parts) still to read.
        var remaining: Int
        /// Members read so far (the index of the next one, for key paths).
        var position = 0
        /// A map's key, read and waiting for its value.
        var pendingKey: String?
        var dictionary = UserInfoDictionary()
        var elements: [UserInfoValue] = []
        var set = UserInfoSet()
        var urlBase: UserInfoURL?
        /// Where the container starts (its marker), for its own errors.
        let start: Int
    }

    private var input: ByteReader
    /// Where the next value starts.
    private var offset: Int { input.offset }
    private let limits: PropertyListLimits
    /// The open containers, innermost last: initialised in place, mutated
    /// in place and moved out, never copied (``GrowableBuffer``).
    private var frames = GrowableBuffer<Frame>(capacity: 8)
    private var depth: Int { frames.count }
    private var objects = 0
    private var expandedSize = 0
    private let expansionBudget: Int

    @_lifetime(copy bytes)
    init(_ bytes: RawSpan, limits: PropertyListLimits) {
        input = ByteReader(bytes)
        self.limits = limits
        expansionBudget = limits.expansionBudget(inputBytes: bytes.byteCount)
    }

    /// Opens a frame.
    private mutating func push(_ frame: consuming Frame) {
        frames.append(frame)
    }

    /// Closes the innermost frame, moving it out.
    private mutating func pop() -> Frame {
        frames.removeLast()
    }

    // MARK: Errors

    /// The key path of the value being read: each open container's place.
    private var keyPath: PropertyListKeyPath {
        var components: [PropertyListKeyPath.Component] = []
        for level in 0..<depth {
            let frame = frames[level]
            switch frame.kind {
            case .map: if let key = frame.pendingKey { components.append(.key(key)) }
            case .array, .set: components.append(.index(frame.position))
            case .url: break
            }
        }
        return PropertyListKeyPath(components)
    }

    private func failure(_ code: ErrorCode, _ reason: String, at position: Int) -> UserInfoError {
        UserInfoError(code, reason, keyPath: keyPath, location: .byteOffset(position))
    }

    // MARK: Bytes

    /// `count` bytes at the cursor, or `truncated` naming the value that needs them.
    @inline(__always)
    @_lifetime(copy self)
    private mutating func take(_ count: Int, for start: Int) throws(UserInfoError) -> RawSpan {
        // truncated: the input ends inside a value.
        guard let bytes = input.readBytes(count) else {
            throw failure(.truncated, "the input ends inside the value (\(count) more bytes needed at offset \(offset), \(input.remaining) left)", at: start)
        }
        return bytes
    }

    @inline(__always)
    private mutating func byte(for start: Int) throws(UserInfoError) -> UInt8 {
        guard let byte = input.readByte() else {
            throw failure(.truncated, "the input ends inside the value (1 more byte needed at offset \(offset))", at: start)
        }
        return byte
    }

    /// A big-endian unsigned integer of `width` bytes.
    @inline(__always)
    private mutating func bigEndian(_ width: Int, for start: Int) throws(UserInfoError) -> UInt64 {
        guard let value = input.readInteger(width: width) else {
            throw failure(.truncated, "the input ends inside the value (\(width) more bytes needed at offset \(offset), \(input.remaining) left)", at: start)
        }
        return value
    }

    // MARK: Reading

    mutating func read() throws(UserInfoError) -> UserInfoDictionary {
        // badMagic / truncated / unsupportedMPVersion: "MP", then 03 05.
        let magic: [UInt8] = [0x4D, 0x50]
        for (position, expected) in magic.enumerated() {
            guard let byte = input.getByte(at: position) else {
                throw failure(.truncated, "the input ends inside the MP header (\(input.count) bytes)", at: 0)
            }
            guard byte == expected else {
                throw failure(.badMagic, "MP userInfo starts with \"MP\" (4D 50)", at: 0)
            }
        }
        guard input.count >= 4 else {
            throw failure(.truncated, "the input ends inside the MP header (\(input.count) bytes)", at: 0)
        }
        guard input[2] == 0x03, input[3] == 0x05 else {
            throw failure(.unsupportedMPVersion, "MP version bytes are \(Hex.upper(input[2])) \(Hex.upper(input[3])), not 03 05 (cmp 3, MessagePack 5)", at: 2)
        }
        _ = input.skip(4)
        // notDictionary: the top value is a map.
        guard let top = input.getByte(at: offset) else { throw failure(.truncated, "the input ends after the MP header", at: 4) }
        guard (0x80...0x8F).contains(top) || top == 0xDE || top == 0xDF else {
            throw failure(.notDictionary, "the top value is not a map (marker \(Hex.upper(top)))", at: 4)
        }
        let value = try readValues()
        // trailingBytes: nothing after the top value.
        guard input.isAtEnd else {
            throw failure(.trailingBytes, "\(input.remaining) bytes follow the top value", at: offset)
        }
        guard case .dictionary(let dictionary) = value else { preconditionFailure("the top value was checked to be a map") }
        return dictionary
    }


    /// Reads values until the top one is complete.
    private mutating func readValues() throws(UserInfoError) -> UserInfoValue {
        // The top value is a map (checked): reading it opens the first frame.
        try readItem()
        while true {
            if frames[depth - 1].remaining == 0 {
                let finished = try finish(pop())
                if depth == 0 { return finished }
                try deliver(finished)
                continue
            }
            switch frames[depth - 1].kind {
            case .map where frames[depth - 1].pendingKey == nil:
                frames[depth - 1].pendingKey = try readKey()
                continue
            case .url where frames[depth - 1].position == 0:
                // badExtension: a URL's base is a URL extension (C7 04 or C7 05).
                let baseStart = offset
                guard let marker = input.getByte(at: baseStart), let type = input.getByte(at: baseStart + 1) else {
                    throw failure(.truncated, "the input ends inside a URL's base", at: frames[depth - 1].start)
                }
                guard marker == 0xC7,
                      type == ExtensionType.urlWithBase.rawValue || type == ExtensionType.url.rawValue else {
                    throw failure(.badExtension, "a URL's base is not a URL", at: baseStart)
                }
            case .url:
                let relative = try urlString(at: frames[depth - 1].start)
                expandedSize = ExpandedSize.add(expandedSize, relative.utf8.count)
                try deliver(.string(relative))
                continue
            default:
                break
            }
            try readItem()
        }
    }

    /// Hands a finished value to the innermost open container.
    private mutating func deliver(_ value: consuming UserInfoValue) throws(UserInfoError) {
        switch frames[depth - 1].kind {
        case .map:
            let key = frames[depth - 1].pendingKey.take()!
            // duplicateKey: each key once (canonically equivalent spellings included).
            guard frames[depth - 1].dictionary.insertNew(value, forKey: key) else {
                frames[depth - 1].pendingKey = key
                throw failure(.duplicateKey, "key \"\(key)\" appears more than once", at: frames[depth - 1].start)
            }
        case .array:
            frames[depth - 1].elements.append(value)
        case .set:
            // duplicateSetMember: no two exactly equal members.
            guard frames[depth - 1].set.insert(value) else {
                throw failure(.duplicateSetMember, "the set holds this member twice", at: frames[depth - 1].start)
            }
        case .url:
            if frames[depth - 1].position == 0 {
                guard case .url(let url) = value else { preconditionFailure("a URL base is read as a URL") }
                frames[depth - 1].urlBase = url
            } else {
                guard case .string(let relative) = value else { preconditionFailure("a URL's string is read as a string") }
                let url = UserInfoURL(relative: relative, base: frames[depth - 1].urlBase)
                frames[depth - 1].urlBase = url
            }
        }
        frames[depth - 1].position += 1
        frames[depth - 1].remaining -= 1
    }

    /// The value of a container whose members are all read.
    private mutating func finish(_ frame: consuming Frame) throws(UserInfoError) -> UserInfoValue {
        switch frame.kind {
        case .map: return .dictionary(frame.dictionary)
        case .array: return .array(frame.elements)
        case .set:
            // ambiguousSetMembers: no two members Foundation would merge.
            do { try frame.set.checkFoundationDistinct() } catch {
                throw failure(.ambiguousSetMembers, error.reason, at: frame.start)
            }
            return .set(frame.set)
        case .url:
            let url = frame.urlBase!
            try checkURL(url, at: frame.start)
            return .url(url)
        }
    }

    private func checkURL(_ url: UserInfoURL, at start: Int) throws(UserInfoError) {
        // invalidURL: Foundation must be able to build the URL.
        guard url.isValid else {
            throw failure(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse", at: start)
        }
    }

    /// Counts one value against the object limit and one node against the expansion budget.
    @inline(__always)
    private mutating func count(payload: Int, at start: Int) throws(UserInfoError) {
        objects += 1
        // objectLimitExceeded
        guard objects <= limits.maxObjects else {
            throw failure(.objectLimitExceeded, "more than \(limits.maxObjects) values (maxObjects)", at: start)
        }
        expandedSize = ExpandedSize.add(expandedSize, ExpandedSize.node(depth: depth, payload: payload))
        // expansionLimitExceeded: MP shares nothing, but the same budget holds.
        guard expandedSize <= expansionBudget else {
            throw failure(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)", at: start)
        }
    }

    /// Opens a container of `count` members, each at least `minimumBytes` long.
    private mutating func open(_ kind: Frame.Kind, count: Int, minimumBytes: Int, at start: Int) throws(UserInfoError) {
        try self.count(payload: 0, at: start)
        // depthLimitExceeded: maps, arrays, sets and URL bases count one level each.
        guard depth < limits.maxDepth else {
            throw failure(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth) (maxDepth)", at: start)
        }
        // collectionLimitExceeded, then truncated: the count is checked before anything is allocated.
        guard count <= limits.maxCollectionCount else {
            throw failure(.collectionLimitExceeded, "\(count) members, over maxCollectionCount \(limits.maxCollectionCount)", at: start)
        }
        guard count <= input.remaining / minimumBytes else {
            throw failure(.truncated, "\(count) members declared, but only \(input.remaining) bytes follow", at: start)
        }
        var frame = Frame(kind: kind, remaining: count, start: start)
        switch kind {
        case .map: frame.dictionary = UserInfoDictionary(minimumCapacity: count)
        case .array: frame.elements.reserveCapacity(count)
        case .set, .url: break
        }
        push(frame)
    }

    /// Reads a map key: a string.
    private mutating func readKey() throws(UserInfoError) -> String {
        let start = offset
        let marker = try byte(for: start)
        // nonStringKey: userInfo keys are strings.
        guard let length = try stringLength(marker, at: start) else {
            throw failure(.nonStringKey, "a map key is not a string (marker \(Hex.upper(marker)))", at: start)
        }
        let key = try string(length, at: start)
        try count(payload: key.utf8.count, at: start)
        return key
    }

    /// The byte length of a string with this marker, or nil when it is no string marker.
    @inline(__always)
    private mutating func stringLength(_ marker: UInt8, at start: Int) throws(UserInfoError) -> Int? {
        switch marker {
        case 0xA0...0xBF: return Int(marker & 0x1F)
        case 0xD9: return Int(try bigEndian(1, for: start))
        case 0xDA: return Int(try bigEndian(2, for: start))
        case 0xDB: return Int(try bigEndian(4, for: start))
        default: return nil
        }
    }

    private mutating func string(_ length: Int, at start: Int) throws(UserInfoError) -> String {
        // stringLimitExceeded
        guard length <= limits.maxStringBytes else {
            throw failure(.stringLimitExceeded, "a string of \(length) bytes, over maxStringBytes \(limits.maxStringBytes)", at: start)
        }
        let bytes = try take(length, for: start)
        // invalidUTF8
        guard let string = bytes.validUTF8String else {
            throw failure(.invalidUTF8, "the string is not UTF-8", at: start)
        }
        return string
    }

    /// Reads one value: a scalar is delivered to the innermost container, a container is opened.
    private mutating func readItem() throws(UserInfoError) {
        let start = offset
        let marker = try byte(for: start)
        switch marker {
        case 0x00...0x7F:
            try count(payload: 0, at: start)
            return try deliver(.number(.integer(PropertyListInteger(Int64(marker)))))
        case 0xE0...0xFF:
            try count(payload: 0, at: start)
            return try deliver(.number(.integer(PropertyListInteger(Int64(Int8(bitPattern: marker))))))
        case 0x80...0x8F:
            try open(.map, count: Int(marker & 0x0F), minimumBytes: 2, at: start)
            return
        case 0x90...0x9F:
            try open(.array, count: Int(marker & 0x0F), minimumBytes: 1, at: start)
            return
        case 0xDE, 0xDF:
            try open(.map, count: Int(try bigEndian(marker == 0xDE ? 2 : 4, for: start)), minimumBytes: 2, at: start)
            return
        case 0xDC, 0xDD:
            try open(.array, count: Int(try bigEndian(marker == 0xDC ? 2 : 4, for: start)), minimumBytes: 1, at: start)
            return
        case 0xA0...0xBF, 0xD9, 0xDA, 0xDB:
            let string = try string(try stringLength(marker, at: start)!, at: start)
            try count(payload: string.utf8.count, at: start)
            return try deliver(.string(string))
        case 0xC0:
            try count(payload: 0, at: start)
            return try deliver(.null)
        case 0xC2, 0xC3:
            try count(payload: 0, at: start)
            return try deliver(.number(.bool(marker == 0xC3)))
        case 0xC4, 0xC5, 0xC6:
            let length = Int(try bigEndian(marker == 0xC4 ? 1 : marker == 0xC5 ? 2 : 4, for: start))
            // dataLimitExceeded
            guard length <= limits.maxDataBytes else {
                throw failure(.dataLimitExceeded, "data of \(length) bytes, over maxDataBytes \(limits.maxDataBytes)", at: start)
            }
            let bytes = try take(length, for: start)
            try count(payload: length, at: start)
            return try deliver(.data(bytes.data))
        case 0xCA:
            // A float32 widens exactly to the double of the same value.
            let bits = UInt32(truncatingIfNeeded: try bigEndian(4, for: start))
            try count(payload: 0, at: start)
            return try deliver(.number(.real(Double(Float(bitPattern: bits)))))
        case 0xCB:
            let bits = try bigEndian(8, for: start)
            try count(payload: 0, at: start)
            return try deliver(.number(.real(Double(bitPattern: bits))))
        case 0xCC, 0xCD, 0xCE, 0xCF:
            let value = try bigEndian(1 << Int(marker - 0xCC), for: start)
            try count(payload: 0, at: start)
            return try deliver(.number(.integer(PropertyListInteger(value))))
        case 0xD0, 0xD1, 0xD2, 0xD3:
            let width = 1 << Int(marker - 0xD0)
            let raw = try bigEndian(width, for: start)
            // Sign-extend from the written width.
            let shift = UInt64(64 - 8 * width)
            let value = Int64(bitPattern: raw << shift) >> Int64(shift)
            try count(payload: 0, at: start)
            return try deliver(.number(.integer(PropertyListInteger(value))))
        case 0xD7, 0xD8, 0xC7:
            return try readExtension(marker, at: start)
        default:
            // unknownMarker: C1, the fixext1/2/4 and ext16/32 forms Apple never writes.
            throw failure(.unknownMarker, "marker \(Hex.upper(marker)) is not used by MP userInfo", at: start)
        }
    }

    /// The extension types of Apple's writer.
    private enum ExtensionType: UInt8 {
        case uuid = 1, set = 2, date = 3, urlWithBase = 4, url = 5
    }

    private mutating func readExtension(_ marker: UInt8, at start: Int) throws(UserInfoError) {
        // cmp 3 writes ext8 as marker, type, size (not MessagePack's marker, size, type).
        let typeByte = try byte(for: start)
        // unknownExtension: types 1–5 only.
        guard let type = ExtensionType(rawValue: typeByte) else {
            throw failure(.unknownExtension, "extension type \(typeByte) is not a userInfo type (1–5)", at: start)
        }
        switch (marker, type) {
        case (0xD8, .uuid):
            let bytes = try take(16, for: start)
            try count(payload: 16, at: start)
            return try deliver(.uuid(bytes.uuid!))
        case (0xD7, .date):
            // The seconds since 2001 as a little-endian double (observed).
            guard let bits = input.readInteger(endianness: .little, as: UInt64.self) else {
                throw failure(.truncated, "the input ends inside the value (8 more bytes needed at offset \(offset), \(input.remaining) left)", at: start)
            }
            let seconds = Double(bitPattern: bits)
            // invalidDate: finite and within PropertyListValue.dateRange.
            guard PropertyListValue.isValidDate(seconds) else {
                throw failure(.invalidDate, "date is \(seconds)", at: start)
            }
            try count(payload: 0, at: start)
            return try deliver(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case (0xC7, .set), (0xC7, .urlWithBase), (0xC7, .url):
            // badExtension: the size of a set or URL extension is 0; its content follows.
            let size = try byte(for: start)
            guard size == 0 else {
                throw failure(.badExtension, "a \(type) extension has size \(size); Apple's writer gives 0 and writes the members after it", at: start)
            }
            switch type {
            case .set:
                let arrayStart = offset
                let arrayMarker = try byte(for: start)
                let members: Int
                switch arrayMarker {
                case 0x90...0x9F: members = Int(arrayMarker & 0x0F)
                case 0xDC: members = Int(try bigEndian(2, for: start))
                case 0xDD: members = Int(try bigEndian(4, for: start))
                default:
                    throw failure(.badExtension, "a set extension is followed by marker \(Hex.upper(arrayMarker)), not an array", at: arrayStart)
                }
                try open(.set, count: members, minimumBytes: 1, at: start)
                return
            case .url:
                let relative = try urlString(at: start)
                try count(payload: relative.utf8.count, at: start)
                let url = UserInfoURL(relative: relative)
                try checkURL(url, at: start)
                return try deliver(.url(url))
            default:
                // A URL with a base: the base URL, then the relative string (readValues).
                try open(.url, count: 2, minimumBytes: 1, at: start)
                return
            }
        default:
            // badExtension: a UUID other than D8 01, a date other than D7 03, a set or URL other than C7.
            throw failure(.badExtension, "extension type \(typeByte) in marker \(Hex.upper(marker)), a form Apple's writer does not use for it", at: start)
        }
    }

    /// The relative string of a URL extension.
    private mutating func urlString(at start: Int) throws(UserInfoError) -> String {
        let stringStart = offset
        let marker = try byte(for: start)
        guard let length = try stringLength(marker, at: start) else {
            throw failure(.badExtension, "a URL's string has marker \(Hex.upper(marker)), not a string", at: stringStart)
        }
        return try string(length, at: stringStart)
    }
}
