import FoundationEssentials

/// Reads binary property lists (`bplist00`) strictly.
///
/// Every malformed input is refused with a ``PropertyListError`` naming the
/// rule, the byte offset and the key path; nothing is repaired or guessed.
/// Decoding is linear in the input: each container is decoded once, each
/// string or data object at most twice, and shared objects are reused
/// (copy-on-write), while ``PropertyListLimits`` bound the
/// depth and the size of the tree the shared references describe.
///
/// ```swift
/// let value = try BinaryPropertyListReader().read(data)
/// ```
///
/// See `Specs/binary-plist.md` for the format and every rule.
public struct BinaryPropertyListReader: BytesReader, Sendable {
    /// The bounds this reader enforces.
    public var limits: PropertyListLimits

    /// Creates a reader with the given limits.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Decodes a binary property list from a span of its bytes (`Data` and
    /// arrays: ``BytesReader``).
    ///
    /// - Parameter bytes: The whole file, starting with `bplist00`.
    /// - Returns: The top object's value.
    /// - Throws: ``PropertyListError`` with the broken rule's code.
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        try limits.validate()
        var decoder = try BinaryPropertyListDecoder(bytes, limits: limits)
        return try decoder.decodeDocument()
    }

    /// True when `prefix` starts with the `bplist` magic (any version).
    public static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: BinaryFormat.magic)
    }
}

/// Constants of the `bplist00` layout (Specs/binary-plist.md, "Layout").
internal enum BinaryFormat {
    static let magic: [UInt8] = Array("bplist".utf8)
    static let headerSize = 8
    static let trailerSize = 32
    /// Header, one 1-byte object, one 1-byte offset entry, trailer.
    static let minimumSize = headerSize + 1 + 1 + trailerSize
}

/// What an object's marker byte says it is (Specs/binary-plist.md,
/// "Objects"): the high nibble names the kind, except for the `0x0n`
/// singletons, named by the whole byte. One case per marker the format (or
/// CoreFoundation's private `bplist1x` formats) defines, so that the decoder
/// names every refusal; any other byte is an unknown marker. The decoder
/// switches over the raw byte with these names: one jump table per object,
/// where a failable initialiser would add a second dispatch.
internal enum BinaryMarker: UInt8 {
    case null = 0x00
    case falseValue = 0x08
    case trueValue = 0x09
    /// `bplist1x`: a URL, a URL with a base, a UUID.
    case url = 0x0C
    case baseURL = 0x0D
    case uuid = 0x0E
    case fill = 0x0F
    case int = 0x10
    case real = 0x20
    case date = 0x33
    case data = 0x40
    case asciiString = 0x50
    case utf16String = 0x60
    /// `bplist1x`: a UTF-8 string.
    case utf8String = 0x70
    case uid = 0x80
    case array = 0xA0
    case orderedSet = 0xB0
    case set = 0xC0
    case dict = 0xD0

    /// True when `byte` starts an array or a dictionary: the containers the
    /// decoder opens (sets and ordered sets are refused as scalars are).
    @inline(__always)
    static func isContainer(_ byte: UInt8) -> Bool {
        byte & 0xF0 == array.rawValue || byte & 0xF0 == dict.rawValue
    }

    /// True when `byte` starts a string, ASCII or UTF-16 (a dictionary key).
    @inline(__always)
    static func isString(_ byte: UInt8) -> Bool {
        byte & 0xF0 == asciiString.rawValue || byte & 0xF0 == utf16String.rawValue
    }
}

