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
            out += Array("<string>".utf8)
            try escape(string, &out)
            out += Array("</string>\n".utf8)
        case .integer(let integer):
            out += Array("<integer>\(integer)</integer>\n".utf8)
        case .real(let real):
            out += Array("<real>\(realText(real))</real>\n".utf8)
        case .bool(let flag):
            out += Array((flag ? "<true/>\n" : "<false/>\n").utf8)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // invalidDate: within PropertyListValue.dateRange (±10^15 seconds); fractions
            // are dropped (rounded down), as Apple's writer drops them.
            guard PropertyListValue.isValidDate(seconds) else {
                throw PropertyListError(.invalidDate, "a date must lie within ±10^15 seconds of 2001")
            }
            out += Array("<date>\(appleDate(CivilTime(secondsSinceReference: seconds)))</date>\n".utf8)
        case .data(let data):
            appendData(data, indent: indent, &out)
        case .uid(let uid):
            out += Array("<dict>\n".utf8)
            tabs(indent + 1, &out)
            out += Array("<key>CF$UID</key>\n".utf8)
            tabs(indent + 1, &out)
            out += Array("<integer>\(uid)</integer>\n".utf8)
            tabs(indent, &out)
            out += Array("</dict>\n".utf8)
        case .null:
            throw PropertyListError(.unrepresentableValue, "XML property lists cannot carry the null object")
        case .array(let elements):
            // depthLimitExceeded: never write what the reader would refuse.
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if elements.isEmpty { out += Array("<array/>\n".utf8); return }
            out += Array("<array>\n".utf8)
            for (position, element) in elements.enumerated() {
                do { try append(element, indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, to: &out) } catch { throw error.inside(.index(position)) }
            }
            tabs(indent, &out)
            out += Array("</array>\n".utf8)
        case .dictionary(let dictionary):
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            if dictionary.isEmpty { out += Array("<dict/>\n".utf8); return }
            out += Array("<dict>\n".utf8)
            for key in dictionary.sortedKeys {
                do {
                    tabs(indent + 1, &out)
                    out += Array("<key>".utf8)
                    try escape(key, &out)
                    out += Array("</key>\n".utf8)
                    try append(dictionary[key]!, indent: indent + 1, depth: depth + 1, maxDepth: maxDepth, to: &out)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            tabs(indent, &out)
            out += Array("</dict>\n".utf8)
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
        // unrepresentableValue: Apple's parser drops a leading U+FEFF, however it is written.
        guard string.unicodeScalars.first != "\u{FEFF}" else {
            throw PropertyListError(.unrepresentableValue, "Apple's XML parser drops a U+FEFF at the start of a string or key")
        }
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3C: out += Array("&lt;".utf8)
            case 0x3E: out += Array("&gt;".utf8)
            case 0x0D: out += Array("&#13;".utf8)
            case 0x09, 0x0A: out.append(UInt8(scalar.value))
            case 0x00..<0x20, 0xFFFE, 0xFFFF:
                // unrepresentableValue: XML 1.0 has no way to write these.
                throw PropertyListError(.unrepresentableValue, "XML cannot carry the character U+\(String(scalar.value, radix: 16, uppercase: true))")
            case 0x20..<0x80: out.append(UInt8(scalar.value))
            default: UTF8.encode(scalar) { out.append($0) }
            }
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
        out += Array("<data>\n".utf8)
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
        out += Array("</data>\n".utf8)
    }
}
