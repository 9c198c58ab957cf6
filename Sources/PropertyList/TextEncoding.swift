/// How a text document is encoded, as far as the text formats that accept more
/// than one encoding care (OpenStep text and `.strings` files; Specs/openstep.md,
/// "Text"): UTF-8 with or without a byte-order mark, or UTF-16 after a
/// byte-order mark in either byte order. A reader reports it, so that an edit
/// writes the text back as it was (`.strings` files are usually UTF-16).
public enum TextEncoding: String, Sendable, Hashable, CaseIterable {
    /// UTF-8 without a byte-order mark.
    case utf8
    /// UTF-8 after the byte-order mark `EF BB BF`.
    case utf8WithByteOrderMark
    /// UTF-16, little-endian, after the byte-order mark `FF FE`.
    case utf16LittleEndian
    /// UTF-16, big-endian, after the byte-order mark `FE FF`.
    case utf16BigEndian

    /// The encoding that `bytes` announce by their byte-order mark (UTF-8 without
    /// one), and the mark's length.
    public static func detect(_ bytes: RawSpan) -> (encoding: TextEncoding, markLength: Int) {
        detect(bytes.extracting(first: 3).array)
    }

    /// The encoding that `bytes` announce by their byte-order mark (UTF-8 without
    /// one), and the mark's length.
    public static func detect(_ bytes: some Collection<UInt8>) -> (encoding: TextEncoding, markLength: Int) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8WithByteOrderMark, 3) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        return (.utf8, 0)
    }

    /// The byte-order mark written before the text.
    public var byteOrderMark: [UInt8] {
        switch self {
        case .utf8: return []
        case .utf8WithByteOrderMark: return [0xEF, 0xBB, 0xBF]
        case .utf16LittleEndian: return [0xFF, 0xFE]
        case .utf16BigEndian: return [0xFE, 0xFF]
        }
    }

    /// The text of `bytes` in the encoding their byte-order mark announces
    /// (UTF-8 without one), strictly: ``ErrorCode/invalidUTF8`` (the code of
    /// every text that is not Unicode) for ill-formed UTF-8, UTF-16 of an odd
    /// number of bytes, or an unpaired surrogate, with its byte offset.
    public static func decode(_ bytes: [UInt8]) throws(PropertyListError) -> String {
        try decode(bytes.span.bytes)
    }

    /// The text of a span of bytes, as the array overload reads it.
    public static func decode(_ bytes: RawSpan) throws(PropertyListError) -> String {
        let (encoding, markLength) = detect(bytes)
        switch encoding {
        case .utf8, .utf8WithByteOrderMark:
            return String(copying: try checkedUTF8(bytes, markLength: markLength))
        case .utf16LittleEndian, .utf16BigEndian:
            guard bytes.byteCount % 2 == 0 else {
                throw PropertyListError(.invalidUTF8, "UTF-16 text of an odd number of bytes", at: .byteOffset(bytes.byteCount - 1))
            }
            let endianness: Endianness = encoding == .utf16LittleEndian ? .little : .big
            var units: [UInt16] = []
            units.reserveCapacity(bytes.byteCount / 2 - 1)
            var reader = ByteReader(bytes, offset: 2)
            while let unit = reader.readInteger(endianness: endianness, as: UInt16.self) { units.append(unit) }
            var text = ""
            text.reserveCapacity(units.count)
            var decoder = UTF16()
            var iterator = units.makeIterator()
            var unitOffset = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    text.unicodeScalars.append(scalar)
                    unitOffset += scalar.value > 0xFFFF ? 2 : 1
                case .emptyInput:
                    return text
                case .error:
                    throw PropertyListError(.invalidUTF8, "UTF-16 text with an unpaired surrogate", at: .byteOffset(2 + 2 * unitOffset))
                }
            }
        }
    }

    /// The UTF-8 text after a byte-order mark of `markLength` bytes, checked
    /// (``ErrorCode/invalidUTF8`` at the first byte that is not UTF-8): what
    /// `decode` makes a string of, for a reader that reads it in place.
    @_lifetime(copy bytes)
    package static func checkedUTF8(_ bytes: RawSpan, markLength: Int) throws(PropertyListError) -> UTF8Span {
        do {
            return try UTF8Span(validating: bytes.extracting(markLength...).span)
        } catch {
            throw PropertyListError(.invalidUTF8, "the text is neither UTF-8 nor UTF-16 with a byte-order mark",
                                    at: .byteOffset(markLength + error.byteOffsets.lowerBound))
        }
    }

    /// `text` in this encoding, byte-order mark first.
    public func encode(_ text: String) -> [UInt8] {
        switch self {
        case .utf8, .utf8WithByteOrderMark:
            return byteOrderMark + Array(text.utf8)
        case .utf16LittleEndian, .utf16BigEndian:
            var bytes = byteOrderMark
            bytes.reserveCapacity(2 + 2 * text.utf16.count)
            let little = self == .utf16LittleEndian
            for unit in text.utf16 {
                let (high, low) = (UInt8(truncatingIfNeeded: unit >> 8), UInt8(truncatingIfNeeded: unit))
                bytes.append(little ? low : high)
                bytes.append(little ? high : low)
            }
            return bytes
        }
    }
}
