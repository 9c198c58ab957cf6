public import FoundationEssentials

/// Reads binary property lists (`bplist00`) strictly.
///
/// Every malformed input is refused with a ``PropertyListError`` naming the
/// rule, the byte offset and the key path; nothing is repaired or guessed.
/// Decoding is linear in the input: each object is decoded once and shared
/// objects are reused (copy-on-write), while ``PropertyListLimits`` bound the
/// depth and the size of the tree the shared references describe.
///
/// ```swift
/// let value = try BinaryPropertyListReader().read(data)
/// ```
///
/// See `Specs/binary-plist.md` for the format and every rule.
public struct BinaryPropertyListReader: Sendable {
    /// The bounds this reader enforces.
    public var limits: PropertyListLimits

    /// Creates a reader with the given limits.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Decodes a binary property list.
    ///
    /// - Parameter data: The whole file, starting with `bplist00`.
    /// - Returns: The top object's value.
    /// - Throws: ``PropertyListError`` with the broken rule's code.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        try read(data.bytes)
    }

    /// Decodes a binary property list from bytes.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try read(bytes.span.bytes)
    }

    /// Decodes a binary property list from a span of its bytes.
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        try limits.validate()
        return try withByteRegion(bytes) { (region) throws(PropertyListError) -> PropertyListValue in
            var decoder = try BinaryPropertyListDecoder(region, limits: limits)
            return try decoder.decodeDocument()
        }
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

    enum Marker {
        static let null: UInt8 = 0x00
        static let falseValue: UInt8 = 0x08
        static let trueValue: UInt8 = 0x09
        static let fill: UInt8 = 0x0F
        static let int: UInt8 = 0x10
        static let real: UInt8 = 0x20
        static let date: UInt8 = 0x33
        static let data: UInt8 = 0x40
        static let asciiString: UInt8 = 0x50
        static let utf16String: UInt8 = 0x60
        static let utf8String: UInt8 = 0x70
        static let uid: UInt8 = 0x80
        static let array: UInt8 = 0xA0
        static let orderedSet: UInt8 = 0xB0
        static let set: UInt8 = 0xC0
        static let dict: UInt8 = 0xD0
    }
}

