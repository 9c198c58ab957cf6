public import FoundationEssentials
public import PropertyList
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
/// Refused with ``PropertyListError/Code/unrepresentableValue``: the null
/// object, and strings holding characters XML 1.0 cannot carry (NUL and the
/// other C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF).
/// A carriage return is written as `&#13;`, which every parser reads back
/// as itself. See `Specs/xml-plist.md`, "Writer".
public struct XMLPropertyListWriter: Sendable {
    /// Deepest container nesting written (the reader's default limit).
    public var maxDepth: Int

    public init(maxDepth: Int = PropertyListLimits.default.maxDepth) { self.maxDepth = maxDepth }

    /// Encodes `value` as an XML property list.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        Data(try writeBytes(value))
    }

    /// Encodes `value` as an XML property list into bytes.
    public func writeBytes(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        out += XMLLayout.header
        try XMLLayout.append(value, indent: 0, depth: 0, maxDepth: maxDepth, to: &out)
        out += XMLLayout.footer
        return out
    }
}

enum XMLLayout {
    static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)
    static let footer = Array("</plist>\n".utf8)

    static func append(_ value: PropertyListValue, indent: Int, depth: Int, maxDepth: Int, to out: inout [UInt8]) throws(PropertyListError) {
        tabs(indent, &out)
        switch value {
        case .string(let string):
            out.append(contentsOf: "<string>".utf8)
            try escape(string, &out)
            out.append(contentsOf: "</string>\n".utf8)
        case .integer(let integer):
            out.append(contentsOf: "<integer>".utf8)
            out.append(contentsOf: integer.description.utf8)
            out.append(contentsOf: "</integer>\n".utf8)
        case .real(let real):
            out.append(contentsOf: "<real>".utf8)
            out.append(contentsOf: realText(real).utf8)
            out.append(contentsOf: "</real>\n".utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "<true/>\n" : "<false/>\n").utf8)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // invalidDate: within PropertyListValue.dateRange (±10^15 seconds); fractions
            // are dropped (rounded down), as Apple's writer drops them.
            guard PropertyListValue.isValidDate(seconds) else {
                throw PropertyListError(.invalidDate, "a date must lie within ±10^15 seconds of 2001")
            }
            out.append(contentsOf: "<date>".utf8)
            out.append(contentsOf: appleDate(CivilTime(secondsSinceReference: seconds)).utf8)
            out.append(contentsOf: "</date>\n".utf8)
        case .data(let data):
            appendData(data, indent: indent, &out)
        case .uid(let uid):
            out.append(contentsOf: "<dict>\n".utf8)
            tabs(indent + 1, &out)
            out.append(contentsOf: "<key>CF$UID</key>\n".utf8)
            tabs(indent + 1, &out)
            out.append(contentsOf: "<integer>".utf8)
            out.append(contentsOf: uid.description.utf8)
            out.append(contentsOf: "</integer>\n".utf8)
            tabs(indent, &out)
            out.append(contentsOf: "</dict>\n".utf8)
        case .null:
            throw PropertyListError(.unrepresentableValue, "XML property lists cannot carry the null object")
        case .array(let elements):
            // depthLimitExceeded: never write what the reader would refuse.
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if elements.isEmpty { out.append(contentsOf: "<array/>\n".utf8); return }
            out.append(contentsOf: "<array>\n".utf8)
            for (position, element) in elements.enumerated() {
                do { try append(element, indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, to: &out) } catch { throw error.inside(.index(position)) }
            }
            tabs(indent, &out)
            out.append(contentsOf: "</array>\n".utf8)
        case .dictionary(let dictionary):
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if dictionary.isEmpty { out.append(contentsOf: "<dict/>\n".utf8); return }
            // unrepresentableValue: in XML a one-key CF$UID dictionary with an integer is a UID.
            if dictionary.count == 1, case .integer? = dictionary["CF$UID"] {
                throw PropertyListError(.unrepresentableValue, "XML cannot tell a dictionary whose only key is CF$UID, holding an integer, from a UID")
            }
            out.append(contentsOf: "<dict>\n".utf8)
            for (key, element) in dictionary.sortedEntries {
                do {
                    tabs(indent + 1, &out)
                    out.append(contentsOf: "<key>".utf8)
                    try escape(key, &out)
                    out.append(contentsOf: "</key>\n".utf8)
                    try append(element, indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, to: &out)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            tabs(indent, &out)
            out.append(contentsOf: "</dict>\n".utf8)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` with the year as C's `%04d` prints it, as
    /// CoreFoundation writes it: `0001`, `10000`, `-001` (the sign takes a digit's place).
    static func appleDate(_ civil: CivilTime) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(appleYear(civil.year))-\(two(civil.month))-\(two(civil.day))T\(two(civil.hour)):\(two(civil.minute)):\(two(civil.second))Z"
    }

    static func appleYear(_ year: Int) -> String {
        let digits = String(abs(year))
        let sign = year < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, 4 - sign.count - digits.count)) + digits
    }

    private static func tabs(_ count: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(0x09, count: count))
    }

    /// `&`, `<`, `>` as entities, a carriage return as `&#13;`; characters XML 1.0
    /// cannot carry are refused.
    static func escape(_ string: String, _ out: inout [UInt8]) throws(PropertyListError) {
        var string = string
        // Runs of bytes that need nothing are copied at once; the scalar XML
        // cannot carry, if any, is returned.
        let refused: UInt32? = string.withUTF8 { bytes in
            // unrepresentableValue: Apple's parser drops a leading U+FEFF, however it is written.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return 0xFEFF }
            var run = 0
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte >= 0x20, byte != 0x26, byte != 0x3C, byte != 0x3E, byte != 0xEF { i += 1; continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                switch byte {
                case 0x26: out.append(contentsOf: "&amp;".utf8)
                case 0x3C: out.append(contentsOf: "&lt;".utf8)
                case 0x3E: out.append(contentsOf: "&gt;".utf8)
                case 0x0D: out.append(contentsOf: "&#13;".utf8)
                case 0x09, 0x0A: out.append(byte)
                case 0xEF:
                    // U+FFFE and U+FFFF (EF BF BE, EF BF BF) are not XML characters.
                    if i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] >= 0xBE {
                        return 0xFF00 | UInt32(bytes[i + 2])
                    }
                    out.append(byte)
                default:
                    // unrepresentableValue: XML 1.0 has no way to write C0 controls but tab and line feed.
                    return UInt32(byte)
                }
                i += 1
                run = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<bytes.count]))
            return nil
        }
        if let refused {
            throw PropertyListError(.unrepresentableValue, refused == 0xFEFF
                ? "Apple's XML parser drops a U+FEFF at the start of a string or key"
                : "XML cannot carry the character U+\(String(refused, radix: 16, uppercase: true))")
        }
    }

    /// Apple's spelling of a real: `%.17g`, `0.0` for zero (`-0.0` for negative
    /// zero, which Apple's writer loses), `nan`, `+infinity`, `-infinity`.
    static func realText(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        if real == 0 { return real.sign == .minus ? "-0.0" : "0.0" }
        var buffer = [CChar](repeating: 0, count: 40)
        _ = withVaList([real]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 40, "%.17g", arguments) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Base64 in lines of 76 − 8 × indent characters, each line preceded by the
    /// element's tabs — both counting the indent only up to 8, as CoreFoundation
    /// does — and `</data>` at the element's full indent.
    static func appendData(_ data: Data, indent: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: "<data>\n".utf8)
        let lineIndent = min(indent, 8)
        let encoded = Array(data.base64EncodedString().utf8)
        let lineLength = 76 - 8 * lineIndent
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            tabs(lineIndent, &out)
            out += encoded[start..<end]
            out.append(0x0A)
            start = end
        }
        tabs(indent, &out)
        out.append(contentsOf: "</data>\n".utf8)
    }
}
