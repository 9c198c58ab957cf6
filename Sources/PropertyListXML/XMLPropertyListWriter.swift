import FoundationEssentials
@_spi(ByteKit) public import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes XML property lists in Apple's layout, byte for byte as Linux
/// Foundation's `PropertyListSerialization` writes them where it is lossless:
/// XML declaration, Apple's DOCTYPE, `<plist version="1.0">`, one tab per
/// level, keys in UTF-16 order, reals as `%.17g`, data as base64 lines of
/// 76 − 8 × indent characters, dates as `YYYY-MM-DDTHH:MM:SSZ`.
///
/// Refused with ``ErrorCode/unrepresentableValue``: the null
/// object, and strings holding characters XML 1.0 cannot carry (NUL and the
/// other C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF).
/// A carriage return is written as `&#13;`, which every parser reads back
/// as itself. See `Specs/xml-plist.md`, "Writer".
public struct XMLPropertyListWriter: PropertyListByteWriter {
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger than a reader with the same limits reads.
    public var limits: WriterLimits
    /// The order of dictionary keys (``KeyOrder/sorted``, as Apple writes them, by default).
    public var keyOrder: KeyOrder = .sorted
    /// Compact output: the header lines, then the body with no indentation or
    /// line breaks between elements (data on one line). Apple's layout otherwise.
    public var compact = false

    public init(limits: WriterLimits = .default) {
        self.limits = limits
    }

    /// Encodes `value` as an XML property list into bytes
    /// (``PropertyListByteWriter/write(_:)`` gives them as `Data`).
    public func writeBytes(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        try limits.validate()
        var meter = ExpansionMeter(limit: limits.maxExpandedBytes)
        var out = ByteSink(capacity: 4096)
        out.append(XMLLayout.header)
        try XMLLayout.append(value, indent: 0, depth: 0, maxDepth: limits.maxDepth, keyOrder: keyOrder, compact: compact, meter: &meter, to: &out)
        if compact { out.append(0x0A) }
        out.append(XMLLayout.footer)
        let bytes = out.takeBytes()
        try meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }
}

enum XMLLayout {
    static let header: StaticString = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
    static let footer: StaticString = "</plist>\n"

    static func append(_ value: PropertyListValue, indent: Int, depth: Int, maxDepth: Int, keyOrder: KeyOrder = .sorted, compact: Bool = false, meter: inout ExpansionMeter,
                       to out: inout ByteSink) throws(PropertyListError) {
        try meter.charge(depth: depth, payload: value.payloadBytes)
        tabs(indent, compact, &out)
        switch value {
        case .string(let string):
            out.append("<string>")
            try escape(string, &out)
            out.append(compact ? "</string>" : "</string>\n")
        case .integer(let integer):
            out.append("<integer>")
            out.append(decimal: integer)
            out.append(compact ? "</integer>" : "</integer>\n")
        case .real(let real):
            out.append("<real>")
            appendReal(real, to: &out)
            out.append(compact ? "</real>" : "</real>\n")
        case .bool(let flag):
            out.append(flag ? (compact ? "<true/>" : "<true/>\n") : (compact ? "<false/>" : "<false/>\n"))
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // invalidDate: within PropertyListValue.dateRange (±10^15 seconds); fractions
            // are dropped (rounded down), as Apple's writer drops them.
            guard PropertyListValue.isValidDate(seconds) else {
                throw PropertyListError(.invalidDate, "a date must lie within ±10^15 seconds of 2001")
            }
            out.append("<date>")
            CivilTime(secondsSinceReference: seconds).appendAppleText(to: &out)
            out.append(compact ? "</date>" : "</date>\n")
        case .data(let data):
            appendData(data, indent: indent, compact: compact, &out)
        case .uid(let uid):
            out.append(compact ? "<dict>" : "<dict>\n")
            tabs(indent + 1, compact, &out)
            out.append(compact ? "<key>CF$UID</key>" : "<key>CF$UID</key>\n")
            tabs(indent + 1, compact, &out)
            out.append("<integer>")
            out.append(decimal: PropertyListInteger(UInt64(uid)))
            out.append(compact ? "</integer>" : "</integer>\n")
            tabs(indent, compact, &out)
            out.append(compact ? "</dict>" : "</dict>\n")
        case .null:
            throw PropertyListError(.unrepresentableValue, "XML property lists cannot carry the null object")
        case .array(let elements):
            // depthLimitExceeded: never write what the reader would refuse.
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if elements.isEmpty { out.append(compact ? "<array/>" : "<array/>\n"); return }
            out.append(compact ? "<array>" : "<array>\n")
            // Members are read in place, not copied out (a copy of a string
            // or container is an atomic retain and release).
            let members = elements.span
            for position in 0..<members.count {
                do throws(PropertyListError) {
                    try append(members[position], indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, keyOrder: keyOrder, compact: compact, meter: &meter, to: &out)
                } catch {
                    throw error.inside(.index(position))
                }
            }
            tabs(indent, compact, &out)
            out.append(compact ? "</array>" : "</array>\n")
        case .dictionary(let dictionary):
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if dictionary.isEmpty { out.append(compact ? "<dict/>" : "<dict/>\n"); return }
            // unrepresentableValue: in XML a one-key CF$UID dictionary with an integer is a UID.
            if dictionary.count == 1, case .integer? = dictionary["CF$UID"] {
                throw PropertyListError(.unrepresentableValue, "XML cannot tell a dictionary whose only key is CF$UID, holding an integer, from a UID")
            }
            out.append(compact ? "<dict>" : "<dict>\n")
            let (keys, values) = (dictionary.keys, dictionary.values)
            let (keySpan, valueSpan) = (keys.span, values.span)
            for position in dictionary.writerOrder(keyOrder) {
                do throws(PropertyListError) {
                    try meter.charge(depth: depth + 1, payload: keySpan[position].utf8.count)
                    tabs(indent + 1, compact, &out)
                    out.append("<key>")
                    try escape(keySpan[position], &out)
                    out.append(compact ? "</key>" : "</key>\n")
                    try append(valueSpan[position], indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, keyOrder: keyOrder, compact: compact, meter: &meter, to: &out)
                } catch {
                    throw error.inside(.key(keySpan[position]))
                }
            }
            tabs(indent, compact, &out)
            out.append(compact ? "</dict>" : "</dict>\n")
        }
    }

    /// The indent of Apple's layout (none when compact).
    private static func tabs(_ count: Int, _ compact: Bool, _ out: inout ByteSink) {
        if !compact { out.append(repeating: 0x09, count: count) }
    }

    /// `&`, `<`, `>` as entities, a carriage return as `&#13;`; characters XML 1.0
    /// cannot carry are refused.
    static func escape(_ string: String, _ out: inout ByteSink) throws(PropertyListError) {
        if let refused = string.withUTF8Span({ escape(utf8: $0, &out) }) {
            throw PropertyListError(.unrepresentableValue, refused == 0xFEFF
                ? "Apple's XML parser drops a U+FEFF at the start of a string or key"
                : "XML cannot carry the character U+\(String(refused, radix: 16, uppercase: true))")
        }
    }

    /// ``escape(_:_:)`` on a string's UTF-8: runs of bytes that need nothing
    /// are copied at once (found eight bytes at a time); the scalar XML cannot
    /// carry, if any, is returned.
    private static func escape(utf8 bytes: Span<UInt8>, _ out: inout ByteSink) -> UInt32? {
        let count = bytes.count
        // unrepresentableValue: Apple's parser drops a leading U+FEFF, however it is written.
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return 0xFEFF }
        var run = 0
        var from = 0
        while let i = bytes.firstByte(from: from, wordMayMatch: XMLLayout.mayNeedEscaping, isMatch: XMLLayout.needsEscaping) {
            let byte = bytes[i]
            if byte == 0xEF {
                // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters; other EF sequences are copied.
                if i + 2 < count, bytes[i + 1] == 0xBF, bytes[i + 2] >= 0xBE {
                    return 0xFF00 | UInt32(bytes[i + 2])
                }
                from = i + 1
                continue
            }
            out.append(bytes.extracting(run..<i))
            switch byte {
            case 0x26: out.append("&amp;")
            case 0x3C: out.append("&lt;")
            case 0x3E: out.append("&gt;")
            case 0x0D: out.append("&#13;")
            case 0x09, 0x0A: out.append(byte)
            default:
                // unrepresentableValue: XML 1.0 has no way to write C0 controls but tab and line feed.
                return UInt32(byte)
            }
            run = i + 1
            from = run
        }
        out.append(bytes.extracting(run..<count))
        return nil
    }

    /// True for the bytes ``escape(utf8:_:)`` looks at: C0 controls, `&`, `<`, `>`, 0xEF.
    @inline(__always)
    static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0xEF
    }

    /// False when none of the eight bytes of `word` can need escaping or refusal:
    /// none is a C0 control, `&`, `<`, `>`, or 0xEF (the lead byte of U+FFFE and
    /// U+FFFF). Each test finds whether such a byte exists, exactly; a flag may
    /// land on the wrong byte, which does not matter here.
    @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        WordScan.bytes(in: word, below: 0x20) | WordScan.bytes(in: word, equalTo: 0x26) | WordScan.bytes(in: word, equalTo: 0x3C)
            | WordScan.bytes(in: word, equalTo: 0x3E) | WordScan.bytes(in: word, equalTo: 0xEF) != 0
    }

    /// Apple's spelling of a real: `%.17g` (``RealText``), `0.0` for zero
    /// (`-0.0` for negative zero, which Apple's writer loses), `nan`,
    /// `+infinity`, `-infinity`.
    static func appendReal(_ real: Double, to out: inout ByteSink) {
        if real.isNaN { out.append("nan"); return }
        if real.isInfinite { out.append(real < 0 ? "-infinity" : "+infinity"); return }
        if real == 0 { out.append(real.sign == .minus ? "-0.0" : "0.0"); return }
        RealText.appendG17(real, to: &out)
    }

    /// Base64 in lines of 76 − 8 × indent characters, each line preceded by the
    /// element's tabs — both counting the indent only up to 8, as CoreFoundation
    /// does — and `</data>` at the element's full indent.
    static func appendData(_ data: Data, indent: Int, compact: Bool = false, _ out: inout ByteSink) {
        if compact {
            // One line of base64, no layout.
            out.append("<data>")
            out.append(contentsOf: Array(data.base64EncodedString().utf8))
            out.append("</data>")
            return
        }
        out.append("<data>\n")
        let lineIndent = min(indent, 8)
        let encoded = Array(data.base64EncodedString().utf8)
        let lineLength = 76 - 8 * lineIndent
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            tabs(lineIndent, false, &out)
            out.append(encoded.span.extracting(start..<end))
            out.append(0x0A)
            start = end
        }
        tabs(indent, false, &out)
        out.append("</data>\n")
    }
}
