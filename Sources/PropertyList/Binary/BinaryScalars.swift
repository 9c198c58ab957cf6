import FoundationEssentials

/// The scalar objects of a binary property list (Specs/binary-plist.md, "Objects").
extension BinaryInput {
    /// Decodes a non-container object at `start`; returns it and the offset
    /// after it. One function per marker decodes its object; the switch is
    /// over the marker byte's high nibble, named by ``BinaryMarker`` (a jump
    /// table), and the singletons of `0x0n` by their whole byte.
    @inline(__always)
    func decodeScalar(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let byte = reader[start]
        switch byte & 0xF0 {
        case BinaryMarker.null.rawValue:
            switch byte {
            case BinaryMarker.null.rawValue: return (.null, start + 1)
            case BinaryMarker.falseValue.rawValue: return (.bool(false), start + 1)
            case BinaryMarker.trueValue.rawValue: return (.bool(true), start + 1)
            case BinaryMarker.fill.rawValue:
                // unsupportedObject
                throw PropertyListError(.unsupportedObject, "fill byte 0x0F is not a value", at: .byteOffset(start))
            case BinaryMarker.url.rawValue, BinaryMarker.baseURL.rawValue, BinaryMarker.uuid.rawValue:
                // unsupportedObject
                throw PropertyListError(.unsupportedObject, "marker 0x\(Hex.upper(byte)) (URL/UUID) belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
            default:
                // unknownMarker
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(byte))", at: .byteOffset(start))
            }
        case BinaryMarker.int.rawValue: return try decodeInteger(at: start)
        case BinaryMarker.real.rawValue: return try decodeReal(at: start)
        case BinaryMarker.date.rawValue & 0xF0:
            // unknownMarker: of 0x3n, only 0x33 is a date.
            guard byte == BinaryMarker.date.rawValue else {
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(byte)) (dates are 0x33)", at: .byteOffset(start))
            }
            return try decodeDate(at: start)
        case BinaryMarker.data.rawValue: return try decodeData(at: start)
        case BinaryMarker.asciiString.rawValue, BinaryMarker.utf16String.rawValue:
            let (string, end) = try decodeString(at: start)
            return (.string(string), end)
        case BinaryMarker.utf8String.rawValue:
            // unsupportedObject
            throw PropertyListError(.unsupportedObject, "UTF-8 string marker 0x7n belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
        case BinaryMarker.uid.rawValue: return try decodeUID(at: start)
        case BinaryMarker.orderedSet.rawValue, BinaryMarker.set.rawValue:
            // unsupportedObject
            throw PropertyListError(.unsupportedObject, "sets (marker 0x\(Hex.upper(byte))) are not property-list values", at: .byteOffset(start))
        default:
            // unknownMarker (arrays and dictionaries are opened by the decoder, never decoded here)
            throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(byte))", at: .byteOffset(start))
        }
    }

    /// Decodes a real object (0x2n).
    @inline(__always)
    func decodeReal(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let low = Int(reader[start] & 0x0F)
        // badRealWidth: reals are float32 (0x22) or float64 (0x23).
        switch low {
        case 2:
            try need(4, at: start + 1, for: start)
            let bits = UInt32(truncatingIfNeeded: loadBigEndian(at: start + 1, width: 4))
            return (.real(Double(Float(bitPattern: bits))), start + 5)
        case 3:
            try need(8, at: start + 1, for: start)
            return (.real(Double(bitPattern: loadBigEndian(at: start + 1, width: 8))), start + 9)
        default:
            throw PropertyListError(.badRealWidth, "real of \(1 << low) bytes (only 4 or 8)", at: .byteOffset(start))
        }
    }

    /// Decodes a date object (0x33).
    @inline(__always)
    func decodeDate(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        try need(8, at: start + 1, for: start)
        let seconds = Double(bitPattern: loadBigEndian(at: start + 1, width: 8))
        // invalidDate: dates are finite and within PropertyListValue.dateRange.
        guard PropertyListValue.isValidDate(seconds) else {
            throw PropertyListError(.invalidDate, "date is \(seconds)", at: .byteOffset(start))
        }
        return (.date(Date(timeIntervalSinceReferenceDate: seconds)), start + 9)
    }

    /// Decodes a data object (0x4n).
    @inline(__always)
    func decodeData(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let (count, content) = try readCount(at: start)
        // dataLimitExceeded
        guard count <= limits.maxDataBytes else {
            throw PropertyListError(.dataLimitExceeded, "data of \(count) bytes, over the limit of \(limits.maxDataBytes)", at: .byteOffset(start))
        }
        try need(count, at: content, for: start)
        return (.data(reader.bytes.extracting(content..<(content + count)).data), content + count)
    }

    /// Decodes a UID object (0x8n).
    @inline(__always)
    func decodeUID(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let width = Int(reader[start] & 0x0F) + 1
        // uidTooWide: UIDs are at most 4 bytes wide.
        guard width <= 4 else {
            throw PropertyListError(.uidTooWide, "UID of \(width) bytes (at most 4)", at: .byteOffset(start))
        }
        try need(width, at: start + 1, for: start)
        return (.uid(UInt32(truncatingIfNeeded: loadBigEndian(at: start + 1, width: width))), start + 1 + width)
    }

    /// Decodes an integer object (0x1n).
    @inline(__always)
    func decodeInteger(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let exponent = Int(reader[start] & 0x0F)
        // badIntegerWidth: 1, 2, 4, 8 or 16 bytes.
        guard exponent <= 4 else {
            throw PropertyListError(.badIntegerWidth, "integer of 2^\(exponent) bytes (only 1, 2, 4, 8 or 16)", at: .byteOffset(start))
        }
        let width = 1 << exponent
        try need(width, at: start + 1, for: start)
        switch width {
        case 1, 2, 4:
            // Narrow integers are unsigned.
            return (.integer(PropertyListInteger(loadBigEndian(at: start + 1, width: width))), start + 1 + width)
        case 8:
            // 8-byte integers are signed.
            return (.integer(PropertyListInteger(Int64(bitPattern: loadBigEndian(at: start + 1, width: 8)))), start + 9)
        default:
            // 16-byte integers: signed 128-bit, accepted when the value lies in [-2⁶³, 2⁶⁴).
            let high = loadBigEndian(at: start + 1, width: 8)
            let low = loadBigEndian(at: start + 9, width: 8)
            if high == 0 {
                return (.integer(PropertyListInteger(low)), start + 17)
            }
            if high == UInt64.max, low >= 1 << 63 {
                return (.integer(PropertyListInteger(Int64(bitPattern: low))), start + 17)
            }
            // integerOutOfRange
            throw PropertyListError(.integerOutOfRange, "16-byte integer outside [-2^63, 2^64)", at: .byteOffset(start))
        }
    }

    /// Decodes a string object (0x5n ASCII or 0x6n UTF-16BE).
    @inline(__always)
    func decodeString(at start: Int) throws(PropertyListError) -> (String, end: Int) {
        let (count, content) = try readCount(at: start)
        if reader[start] & 0xF0 == BinaryMarker.asciiString.rawValue {
            // stringLimitExceeded
            guard count <= limits.maxStringBytes else {
                throw PropertyListError(.stringLimitExceeded, "string of \(count) bytes, over the limit of \(limits.maxStringBytes)", at: .byteOffset(start))
            }
            try need(count, at: content, for: start)
            // invalidASCII: every byte is below 0x80 (checked eight at a time).
            switch reader.bytes.extracting(content..<(content + count)).asciiString() {
            case .success(let string):
                return (string, content + count)
            case .failure(let bad):
                throw PropertyListError(.invalidASCII, "byte 0x\(Hex.upper(bad.byte)) in an ASCII string", at: .byteOffset(content + bad.offset))
            }
        }
        // stringLimitExceeded: UTF-16 units are counted as two bytes each.
        guard count <= limits.maxStringBytes / 2 else {
            throw PropertyListError(.stringLimitExceeded, "string of \(count) UTF-16 units, over the limit of \(limits.maxStringBytes) bytes", at: .byteOffset(start))
        }
        try need(count * 2, at: content, for: start)
        let string = try decodeUTF16BigEndian(from: content, units: count)
        return (string, content + count * 2)
    }

    /// Transcodes `units` UTF-16BE code units at `from` (checked to lie in
    /// the input) to a String, refusing unpaired surrogates (``UTF16BigEndian``).
    func decodeUTF16BigEndian(from: Int, units: Int) throws(PropertyListError) -> String {
        switch reader.utf16BigEndianString(at: from, units: units) {
        case .success(let string):
            return string
        case .failure(let surrogate):
            // invalidUTF16: surrogates come in high-low pairs.
            throw Self.unpairedSurrogate(from + 2 * surrogate.unit)
        }
    }

    private static func unpairedSurrogate(_ offset: Int) -> PropertyListError {
        PropertyListError(.invalidUTF16, "unpaired UTF-16 surrogate", at: .byteOffset(offset))
    }
}
