import FoundationEssentials

/// The scalar objects of a binary property list (Specs/binary-plist.md, "Objects").
extension BinaryInput {
    /// Decodes a non-container object at `start`; returns it and the offset after it.
    @inline(__always)
    func decodeScalar(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker & 0xF0 {
        case 0x00:
            switch marker {
            case BinaryFormat.Marker.null: return (.null, start + 1)
            case BinaryFormat.Marker.falseValue: return (.bool(false), start + 1)
            case BinaryFormat.Marker.trueValue: return (.bool(true), start + 1)
            case BinaryFormat.Marker.fill:
                throw PropertyListError(.unsupportedObject, "fill byte 0x0F is not a value", at: .byteOffset(start))
            case 0x0C, 0x0D, 0x0E:
                throw PropertyListError(.unsupportedObject, "marker 0x\(Hex.upper(marker)) (URL/UUID) belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
            default:
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker))", at: .byteOffset(start))
            }
        case BinaryFormat.Marker.int:
            return try decodeInteger(at: start)
        case BinaryFormat.Marker.real:
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
        case 0x30:
            guard marker == BinaryFormat.Marker.date else {
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker)) (dates are 0x33)", at: .byteOffset(start))
            }
            try need(8, at: start + 1, for: start)
            let seconds = Double(bitPattern: loadBigEndian(at: start + 1, width: 8))
            // invalidDate: dates are finite and within PropertyListValue.dateRange.
            guard PropertyListValue.isValidDate(seconds) else {
                throw PropertyListError(.invalidDate, "date is \(seconds)", at: .byteOffset(start))
            }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), start + 9)
        case BinaryFormat.Marker.data:
            let (count, content) = try readCount(at: start)
            // dataLimitExceeded
            guard count <= limits.maxDataBytes else {
                throw PropertyListError(.dataLimitExceeded, "data of \(count) bytes, over the limit of \(limits.maxDataBytes)", at: .byteOffset(start))
            }
            try need(count, at: content, for: start)
            return (.data(bytes.withBytes(in: content..<(content + count)) { $0.data }), content + count)
        case BinaryFormat.Marker.asciiString, BinaryFormat.Marker.utf16String:
            let (string, end) = try decodeString(at: start)
            return (.string(string), end)
        case BinaryFormat.Marker.utf8String:
            throw PropertyListError(.unsupportedObject, "UTF-8 string marker 0x7n belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
        case BinaryFormat.Marker.uid:
            let width = low + 1
            // uidTooWide: UIDs are at most 4 bytes wide.
            guard width <= 4 else {
                throw PropertyListError(.uidTooWide, "UID of \(width) bytes (at most 4)", at: .byteOffset(start))
            }
            try need(width, at: start + 1, for: start)
            return (.uid(UInt32(truncatingIfNeeded: loadBigEndian(at: start + 1, width: width))), start + 1 + width)
        case BinaryFormat.Marker.orderedSet, BinaryFormat.Marker.set:
            throw PropertyListError(.unsupportedObject, "sets (marker 0x\(Hex.upper(marker))) are not property-list values", at: .byteOffset(start))
        default:
            throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker))", at: .byteOffset(start))
        }
    }

    /// Decodes an integer object (0x1n).
    @inline(__always)
    func decodeInteger(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let exponent = Int(bytes[start] & 0x0F)
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
        if bytes[start] & 0xF0 == BinaryFormat.Marker.asciiString {
            // stringLimitExceeded
            guard count <= limits.maxStringBytes else {
                throw PropertyListError(.stringLimitExceeded, "string of \(count) bytes, over the limit of \(limits.maxStringBytes)", at: .byteOffset(start))
            }
            try need(count, at: content, for: start)
            // invalidASCII: every byte is below 0x80 (checked eight at a time).
            switch bytes.withBytes(in: content..<(content + count), { $0.asciiString() }) {
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
        switch bytes.utf16BigEndianString(at: from, units: units) {
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
