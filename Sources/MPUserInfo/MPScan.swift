import FoundationEssentials
@_spi(ByteKit) import PropertyList
import UserInfo

/// The one reading of the MP grammar (Specs/mp-userinfo.md): a pass over the
/// bytes that checks every rule in the order the bytes come, with the byte
/// offset and key path of the value at fault, and records each value as a
/// node of a tape (``MPTapeNodes``). `MPUserInfoReader` builds its tree from
/// the tape, `MPUserInfoDecoder` decodes from it.
///
/// Limits are checked before anything is allocated for them. Nesting is kept
/// on a heap stack, never the call stack (Specs/architecture.md, "One stack
/// policy"). What only a value can tell — a set's members, a URL with a
/// base — is built from the tape as its container closes, and kept there.
struct MPScan: ~Copyable, ~Escapable {
    /// An open container: a map, an array, a set, or a URL with a base (its
    /// base URL, then its relative string); or the document, holding one value.
    struct Frame {
        var kind: MPNode.Kind
        /// Its node (-1: the document).
        let node: Int
        /// Members (map entries, URL parts) still to read.
        var remaining: Int
        /// Members read so far (the index of the next one, for key paths).
        var position = 0
        /// A map's key node, read and waiting for its value (-1: none).
        var pendingKey = -1
        /// Where the container starts (its marker), for its own errors.
        let start: Int
        /// A map's keys include one beyond ASCII (compared as strings, not bytes).
        var nonASCIIKeys = false

        var isDocument: Bool { node < 0 }
    }

    private var input: ByteReader
    /// Where the next value starts.
    private var offset: Int { input.offset }
    private let limits: PropertyListLimits
    private(set) var tape = MPTapeNodes()
    /// The innermost open frame, and those around it (kept apart: the
    /// innermost is read and changed for every value).
    private var top: Frame
    private var enclosing = GrowableBuffer<Frame>(capacity: 8)
    /// The containers open: maps, arrays, sets and URLs with a base.
    private var depth = 0
    /// Whether the object and expansion limits are charged (not when the size
    /// alone proves them unreachable: ``MPUserInfoReader/withinLimits(byteCount:_:)``).
    private let charges: Bool
    private var objects = 0
    private var expandedSize = 0
    private let expansionBudget: Int
    /// The open sets' members so far, innermost last.
    private var openSets: [UserInfoSet] = []
    /// When map keys are checked once each.
    private let keyCheck: KeyCheck
    /// The keys so far of the open maps, innermost last (``KeyCheck/asDelivered``).
    private var openKeys: [Set<String>] = []
    /// Whether a URL is parsed while it is checked and the parse kept (for the decoder).
    private let parsesURLs: Bool

    /// When a scan checks that a map holds each key once (duplicateKey).
    enum KeyCheck {
        /// As each value is delivered, as the rules are ordered: the first
        /// error in the input, whatever it is.
        case asDelivered
        /// When the map closes: a repeated key fails the scan, but with an
        /// error that may not be the first (a scan ``asDelivered`` gives that).
        case whenClosed
        /// Never: the dictionaries the tree is built into find a repeated key
        /// (and a scan ``asDelivered`` then gives the error).
        case byDictionaries
    }

    @_lifetime(copy bytes)
    private init(_ bytes: RawSpan, limits: PropertyListLimits, keyCheck: KeyCheck, parsesURLs: Bool) {
        input = ByteReader(bytes)
        self.limits = limits
        (self.keyCheck, self.parsesURLs) = (keyCheck, parsesURLs)
        expansionBudget = limits.expansionBudget(inputBytes: bytes.byteCount)
        charges = !MPUserInfoReader.withinLimits(byteCount: bytes.byteCount, limits)
        top = Frame(kind: .array, node: -1, remaining: 1, start: 4)
    }

    /// The tape of an MP userInfo.
    ///
    /// Only a scan that checks keys ``KeyCheck/asDelivered`` gives the
    /// reader's error for every input; the others are for the common case
    /// (a refusal is then answered by a scan that does).
    ///
    /// - Parameters:
    ///   - keyCheck: When each map's keys are checked once each.
    ///   - parsesURLs: Whether URLs are parsed as they are checked, and the
    ///     parse kept for the decoder (otherwise one valid at a glance is not parsed).
    /// - Throws: ``UserInfoError``, with the codes of Specs/mp-userinfo.md.
    static func tape(of bytes: RawSpan, limits: PropertyListLimits, keyCheck: KeyCheck = .asDelivered,
                     parsesURLs: Bool = false) throws(UserInfoError) -> MPTapeNodes {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(.invalidLimits, error.reason)
        }
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw UserInfoError(.inputTooLarge, "the input is \(bytes.byteCount) bytes, over maxInputBytes \(limits.maxInputBytes)",
                                location: .unknown)
        }
        var scan = MPScan(bytes, limits: limits, keyCheck: keyCheck, parsesURLs: parsesURLs)
        try scan.read()
        return scan.tape
    }

    // MARK: Errors

    /// The key path of the value being read: each open container's place.
    private var keyPath: PropertyListKeyPath {
        var components: [PropertyListKeyPath.Component] = []
        func add(_ frame: Frame) {
            guard !frame.isDocument else { return }
            switch frame.kind {
            case .map: if frame.pendingKey >= 0 { components.append(.key(tape.string(frame.pendingKey, in: input.bytes))) }
            case .array, .set: components.append(.index(frame.position))
            default: break
            }
        }
        for level in 0..<enclosing.count { add(enclosing[level]) }
        add(top)
        return PropertyListKeyPath(components)
    }

    private func failure(_ code: ErrorCode, _ reason: String, at position: Int) -> UserInfoError {
        UserInfoError(code, reason, keyPath: keyPath, location: .byteOffset(position))
    }

    // MARK: Bytes

    /// Skips `count` bytes at the cursor, or throws `truncated` naming the value that needs them.
    @inline(__always)
    private mutating func take(_ count: Int, for start: Int) throws(UserInfoError) {
        // truncated: the input ends inside a value.
        guard input.skip(count) else {
            throw failure(.truncated, "the input ends inside the value (\(count) more bytes needed at offset \(offset), \(input.remaining) left)", at: start)
        }
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

    private mutating func read() throws(UserInfoError) {
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
        guard let first = input.getByte(at: offset) else { throw failure(.truncated, "the input ends after the MP header", at: 4) }
        guard (0x80...0x8F).contains(first) || first == 0xDE || first == 0xDF else {
            throw failure(.notDictionary, "the top value is not a map (marker \(Hex.upper(first)))", at: 4)
        }
        // A node per value and key, each at least a byte: room for half as
        // many nodes as bytes to start with, up to 2,048.
        tape.nodes.reserveCapacity(min(input.remaining / 2 + 8, 2_048))
        while true {
            if top.remaining == 0 {
                if top.isDocument { break }
                try close()
                continue
            }
            switch top.kind {
            case .map where top.pendingKey < 0:
                try readKey()
                continue
            case .url where top.position == 0:
                // badExtension: a URL's base is a URL extension (C7 04 or C7 05).
                let baseStart = offset
                guard let marker = input.getByte(at: baseStart), let type = input.getByte(at: baseStart + 1) else {
                    throw failure(.truncated, "the input ends inside a URL's base", at: top.start)
                }
                guard marker == 0xC7,
                      type == ExtensionType.urlWithBase.rawValue || type == ExtensionType.url.rawValue else {
                    throw failure(.badExtension, "a URL's base is not a URL", at: baseStart)
                }
            case .url:
                // The relative string, after the base.
                let length = try urlString(at: top.start)
                if charges { expandedSize = ExpandedSize.add(expandedSize, length) }
                tape.nodes[top.node].start = offset - length
                tape.nodes[top.node].length = UInt32(length)
                top.position += 1
                top.remaining -= 1
                continue
            default:
                break
            }
            try readItem()
        }
        // trailingBytes: nothing after the top value.
        guard input.isAtEnd else {
            throw failure(.trailingBytes, "\(input.remaining) bytes follow the top value", at: offset)
        }
    }

    /// Appends a value's node (its `next` is the node after it: a container's is set when it closes).
    @inline(__always)
    private mutating func append(_ kind: MPNode.Kind, start: Int = 0, length: Int = 0, bits: UInt64 = 0) -> Int {
        let index = tape.nodes.count
        tape.nodes.append(MPNode(bits: bits, start: start, next: index + 1, length: UInt32(truncatingIfNeeded: length), kind: kind))
        return index
    }

    /// Counts one value against the object limit and one node against the expansion budget.
    @inline(__always)
    private mutating func count(payload: Int, at start: Int) throws(UserInfoError) {
        guard charges else { return }
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
    private mutating func open(_ kind: MPNode.Kind, count: Int, minimumBytes: Int, at start: Int) throws(UserInfoError) {
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
        let node = append(kind, start: start, length: count, bits: kind == .map ? UInt64(tape.maps) : 0)
        let frame = Frame(kind: kind, node: node, remaining: count, start: start)
        switch kind {
        case .map:
            tape.maps += 1
            if keyCheck == .asDelivered { openKeys.append([]) }
        case .set:
            tape.handsOver = true
            openSets.append(UserInfoSet())
        case .url:
            tape.handsOver = true
        default:
            break
        }
        enclosing.append(top)
        top = frame
        depth += 1
    }

    /// Closes the innermost container and hands it to the one around it.
    private mutating func close() throws(UserInfoError) {
        let frame = top
        top = enclosing.removeLast()
        depth -= 1
        tape.nodes[frame.node].next = tape.nodes.count
        switch frame.kind {
        case .map:
            switch keyCheck {
            case .asDelivered: openKeys.removeLast()
            // (Any error will do: a scan asDelivered gives the first.)
            case .whenClosed:
                guard tape.keysOnce(map: frame.node, nonASCII: frame.nonASCIIKeys, in: input.bytes) else {
                    throw failure(.duplicateKey, "a key appears more than once", at: frame.start)
                }
            case .byDictionaries: break
            }
        case .set:
            let set = openSets.removeLast()
            // ambiguousSetMembers: no two members Foundation would merge.
            do { try set.checkFoundationDistinct() } catch {
                throw failure(.ambiguousSetMembers, error.reason, at: frame.start)
            }
            tape.nodes[frame.node].bits = UInt64(tape.sets.count)
            tape.sets.append(set)
        case .url:
            let base = tape.urls[Int(tape.nodes[frame.node + 1].bits)].value
            let url = UserInfoURL(relative: tape.string(frame.node, in: input.bytes), base: base)
            try checkURL(url, at: frame.start)
            tape.nodes[frame.node].bits = UInt64(tape.urls.count)
            tape.urls.append(MPURL(value: url))
        default:
            break
        }
        try deliver(frame.node)
    }

    /// Hands a finished value to the innermost open container.
    @inline(__always)
    private mutating func deliver(_ node: Int) throws(UserInfoError) {
        if top.kind == .map {
            if keyCheck == .asDelivered {
                // duplicateKey: each key once (canonically equivalent spellings included).
                let key = tape.string(top.pendingKey, in: input.bytes)
                guard openKeys[openKeys.count - 1].insert(key).inserted else {
                    throw failure(.duplicateKey, "key \"\(key)\" appears more than once", at: top.start)
                }
            }
            top.pendingKey = -1
        } else if top.kind == .set {
            // (A member holding a key twice, when keys are left to the dictionaries: any error will do.)
            guard let member = tape.value(at: node, in: input.bytes) else {
                throw failure(.duplicateKey, "a set member holds a key twice", at: top.start)
            }
            // duplicateSetMember: no two exactly equal members.
            guard openSets[openSets.count - 1].insert(member) else {
                throw failure(.duplicateSetMember, "the set holds this member twice", at: top.start)
            }
        }
        top.position += 1
        top.remaining -= 1
    }

    private func checkURL(_ url: UserInfoURL, at start: Int) throws(UserInfoError) {
        // invalidURL: Foundation must be able to build the URL.
        guard url.isValid else {
            throw failure(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse", at: start)
        }
    }

    // MARK: Keys

    /// Reads a map key: a string.
    private mutating func readKey() throws(UserInfoError) {
        let start = offset
        let marker = try byte(for: start)
        // nonStringKey: userInfo keys are strings.
        guard let length = try stringLength(marker, at: start) else {
            throw failure(.nonStringKey, "a map key is not a string (marker \(Hex.upper(marker)))", at: start)
        }
        // stringLimitExceeded
        guard length <= limits.maxStringBytes else {
            throw failure(.stringLimitExceeded, "a string of \(length) bytes, over maxStringBytes \(limits.maxStringBytes)", at: start)
        }
        try take(length, for: start)
        // The fingerprint: the length and the first seven bytes (all of a
        // shorter key: then equal fingerprints are equal keys).
        let keyStart = offset - length, bytes = input.bytes
        var bits: UInt64
        if length < 8, keyStart <= bytes.byteCount - 8 {
            let word = bytes.word(at: keyStart) & (1 &<< (8 * UInt64(length)) &- 1)
            bits = word & WordScan.highs == 0 ? UInt64(length) << 56 | word : MPNode.nonASCIIKey
        } else {
            let key = bytes.extracting(keyStart..<offset)
            bits = key.firstNonASCII == nil ? MPNode.fingerprint(key) : MPNode.nonASCIIKey
        }
        // invalidUTF8
        if bits == MPNode.nonASCIIKey, !bytes.extracting(keyStart..<offset).isValidUTF8 {
            throw failure(.invalidUTF8, "the string is not UTF-8", at: start)
        }
        try count(payload: length, at: start)
        if bits == MPNode.nonASCIIKey {
            top.nonASCIIKeys = true
            tape.handsOver = true
        }
        top.pendingKey = append(.string, start: keyStart, length: length, bits: bits)
    }

    // MARK: Values

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

    /// Checks a string's `length` bytes at the cursor and moves past them;
    /// returns whether they are ASCII.
    private mutating func string(_ length: Int, at start: Int) throws(UserInfoError) -> Bool {
        // stringLimitExceeded
        guard length <= limits.maxStringBytes else {
            throw failure(.stringLimitExceeded, "a string of \(length) bytes, over maxStringBytes \(limits.maxStringBytes)", at: start)
        }
        try take(length, for: start)
        let text = input.bytes.extracting(offset - length..<offset)
        if text.firstNonASCII == nil { return true }
        // invalidUTF8
        guard text.isValidUTF8 else {
            throw failure(.invalidUTF8, "the string is not UTF-8", at: start)
        }
        return false
    }

    /// Reads one value: a scalar is delivered to the innermost container, a container is opened.
    private mutating func readItem() throws(UserInfoError) {
        let start = offset
        let marker = try byte(for: start)
        let node: Int
        switch marker {
        case 0x00...0x7F:
            try count(payload: 0, at: start)
            node = append(.signed, bits: UInt64(marker))
        case 0xE0...0xFF:
            try count(payload: 0, at: start)
            node = append(.signed, bits: UInt64(bitPattern: Int64(Int8(bitPattern: marker))))
        case 0x80...0x8F:
            return try open(.map, count: Int(marker & 0x0F), minimumBytes: 2, at: start)
        case 0x90...0x9F:
            return try open(.array, count: Int(marker & 0x0F), minimumBytes: 1, at: start)
        case 0xDE, 0xDF:
            return try open(.map, count: Int(try bigEndian(marker == 0xDE ? 2 : 4, for: start)), minimumBytes: 2, at: start)
        case 0xDC, 0xDD:
            return try open(.array, count: Int(try bigEndian(marker == 0xDC ? 2 : 4, for: start)), minimumBytes: 1, at: start)
        case 0xA0...0xBF, 0xD9, 0xDA, 0xDB:
            let length = try stringLength(marker, at: start)!
            _ = try string(length, at: start)
            try count(payload: length, at: start)
            node = append(.string, start: offset - length, length: length)
        case 0xC0:
            try count(payload: 0, at: start)
            node = append(.null)
        case 0xC2, 0xC3:
            try count(payload: 0, at: start)
            node = append(.bool, bits: marker == 0xC3 ? 1 : 0)
        case 0xC4, 0xC5, 0xC6:
            let length = Int(try bigEndian(marker == 0xC4 ? 1 : marker == 0xC5 ? 2 : 4, for: start))
            // dataLimitExceeded
            guard length <= limits.maxDataBytes else {
                throw failure(.dataLimitExceeded, "data of \(length) bytes, over maxDataBytes \(limits.maxDataBytes)", at: start)
            }
            try take(length, for: start)
            try count(payload: length, at: start)
            node = append(.data, start: offset - length, length: length)
        case 0xCA:
            // A float32 widens exactly to the double of the same value.
            let bits = UInt32(truncatingIfNeeded: try bigEndian(4, for: start))
            try count(payload: 0, at: start)
            node = append(.real, bits: Double(Float(bitPattern: bits)).bitPattern)
        case 0xCB:
            let bits = try bigEndian(8, for: start)
            try count(payload: 0, at: start)
            node = append(.real, bits: bits)
        case 0xCC, 0xCD, 0xCE, 0xCF:
            let value = try bigEndian(1 << Int(marker - 0xCC), for: start)
            try count(payload: 0, at: start)
            node = append(.unsigned, bits: value)
        case 0xD0, 0xD1, 0xD2, 0xD3:
            let width = 1 << Int(marker - 0xD0)
            let raw = try bigEndian(width, for: start)
            // Sign-extend from the written width.
            let shift = UInt64(64 - 8 * width)
            try count(payload: 0, at: start)
            node = append(.signed, bits: UInt64(bitPattern: Int64(bitPattern: raw << shift) >> Int64(shift)))
        case 0xD7, 0xD8, 0xC7:
            guard let extensionNode = try readExtension(marker, at: start) else { return }
            node = extensionNode
        default:
            // unknownMarker: C1, the fixext1/2/4 and ext16/32 forms Apple never writes.
            throw failure(.unknownMarker, "marker \(Hex.upper(marker)) is not used by MP userInfo", at: start)
        }
        try deliver(node)
    }

    /// The extension types of Apple's writer.
    private enum ExtensionType: UInt8 {
        case uuid = 1, set = 2, date = 3, urlWithBase = 4, url = 5
    }

    /// Reads an extension: its node, or nil when it opened a container (a set, a URL with a base).
    private mutating func readExtension(_ marker: UInt8, at start: Int) throws(UserInfoError) -> Int? {
        // cmp 3 writes ext8 as marker, type, size (not MessagePack's marker, size, type).
        let typeByte = try byte(for: start)
        // unknownExtension: types 1–5 only.
        guard let type = ExtensionType(rawValue: typeByte) else {
            throw failure(.unknownExtension, "extension type \(typeByte) is not a userInfo type (1–5)", at: start)
        }
        switch (marker, type) {
        case (0xD8, .uuid):
            try take(16, for: start)
            try count(payload: 16, at: start)
            return append(.uuid, start: offset - 16, length: 16)
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
            return append(.date, bits: bits)
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
                return nil
            case .url:
                let length = try urlString(at: start)
                try count(payload: length, at: start)
                let url = UserInfoURL(relative: input.bytes.extracting(offset - length..<offset).validUTF8String!)
                // invalidURL: Foundation must be able to build the URL (for the
                // decoder, parsed once and kept: the same answer as isValid's).
                let parsed = parsesURLs ? url.validURL : nil
                guard parsesURLs ? parsed != nil : url.isValid else {
                    throw failure(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse", at: start)
                }
                let node = append(.url, start: offset - length, length: length, bits: UInt64(tape.urls.count))
                tape.urls.append(MPURL(value: url, parsed: parsed))
                if parsesURLs { tape.urlNodes.append(node) }
                return node
            default:
                // A URL with a base: the base URL, then the relative string (read).
                try open(.url, count: 2, minimumBytes: 1, at: start)
                return nil
            }
        default:
            // badExtension: a UUID other than D8 01, a date other than D7 03, a set or URL other than C7.
            throw failure(.badExtension, "extension type \(typeByte) in marker \(Hex.upper(marker)), a form Apple's writer does not use for it", at: start)
        }
    }

    /// Reads the relative string of a URL extension; returns its length (its bytes end at the cursor).
    private mutating func urlString(at start: Int) throws(UserInfoError) -> Int {
        let stringStart = offset
        let marker = try byte(for: start)
        guard let length = try stringLength(marker, at: start) else {
            throw failure(.badExtension, "a URL's string has marker \(Hex.upper(marker)), not a string", at: stringStart)
        }
        _ = try string(length, at: stringStart)
        return length
    }
}
