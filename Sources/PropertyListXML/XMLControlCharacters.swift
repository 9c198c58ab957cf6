import FoundationEssentials
@_spi(ByteKit) import PropertyList

extension XMLInput {
    // MARK: Control characters in strings

    /// The first of the 32 noncharacters U+FDD0–U+FDEF, which stand for the
    /// C0 controls U+0000–U+001F while libxml2 parses (UTF-8 `EF B7 90+n`).
    private static let markBase: UInt32 = 0xFDD0

    /// Whether a byte is a C0 control XML forbids raw (not tab, LF or CR; U+0000
    /// is refused before this point).
    @inline(__always)
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// Whether a scalar value is one of the 32 marks U+FDD0–U+FDEF.
    @inline(__always)
    private static func isMark(_ value: UInt32) -> Bool { value &- markBase < 0x20 }

    /// The document with each raw C0 control inside `<string>` or `<key>`
    /// content replaced by the noncharacter U+FDD0 + its value, and how many
    /// were replaced (Specs/xml-plist.md, "Control characters in strings").
    /// Nil when there is none to replace, or when the marks could collide
    /// (malformedXML stands): the document already holds one of those
    /// noncharacters, raw or as a numeric character reference, so that every
    /// mark the reader meets in a string or key is one placed here. Controls
    /// anywhere else are left for libxml2 to refuse; a control in other markup
    /// that this scan took for string content (a comment naming `<string>`) is
    /// marked, and found missing by the count.
    static func markingControls(_ utf8: Span<UInt8>) -> (bytes: [UInt8], count: Int)? {
        var marked: [UInt8] = []
        var count = 0
        var inside = false
        for i in utf8.indices {
            let byte = utf8[i]
            // malformedXML: the noncharacters themselves (EF B7 90–AF) would make marks no control stood for.
            if byte == 0xEF, i + 2 < utf8.count, utf8[i + 1] == 0xB7, (0x90...0xAF).contains(utf8[i + 2]) { return nil }
            // malformedXML: so would a reference to one (&#xFDD1;, &#64977;, any case, leading zeros).
            if byte == UInt8(ascii: "&"), i + 1 < utf8.count, utf8[i + 1] == UInt8(ascii: "#"),
               isMark(referencedValue(utf8, digitsFrom: i + 2)) { return nil }
            if byte == UInt8(ascii: "<") {
                inside = utf8.hasPrefix("<string>", at: i) || utf8.hasPrefix("<key>", at: i)
            } else if inside, isForbiddenControl(byte) {
                if count == 0 {
                    marked.reserveCapacity(utf8.count + 64)
                    marked.append(contentsOf: utf8.extracting(..<i).bytes.array)
                }
                marked += [0xEF, 0xB7, 0x90 + byte]
                count += 1
                continue
            }
            if count > 0 { marked.append(byte) }
        }
        return count == 0 ? nil : (marked, count)
    }

    /// The value of the numeric character reference whose `x` or digits start
    /// at `start` (after `&#`): hexadecimal after `x` (or `X`, which libxml2
    /// refuses anyway), decimal otherwise, digits in either case, as many as
    /// there are; saturated past U+10FFFF, so a long run never wraps into the
    /// marks' range. 0 when no digit follows.
    private static func referencedValue(_ utf8: Span<UInt8>, digitsFrom start: Int) -> UInt32 {
        var i = start
        var radix: UInt32 = 10
        if i < utf8.count, utf8[i] | 0x20 == UInt8(ascii: "x") { radix = 16; i += 1 }
        var value: UInt32 = 0
        while i < utf8.count {
            let byte = utf8[i]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return value
            }
            value = min(value * radix + digit, 0x11_0000)
            i += 1
        }
        return value
    }

    /// Turns each mark of ``markingControls(_:)`` in the text of one string or
    /// key back into its control, in place, as the reader builds it (the second
    /// parse; Specs/xml-plist.md, "Control characters in strings"); returns how
    /// many it turned back, which the reader adds up for the count check.
    static func restoringMarks(in text: inout ByteSink) -> Int {
        let count = text.count
        var read = 0, written = 0, found = 0
        while read < count {
            let byte = text[read]
            // A mark is EF B7 90+n (U+FDD0 + n), for the control n.
            if byte == 0xEF, read + 2 < count, text[read + 1] == 0xB7, (0x90...0xAF).contains(text[read + 2]) {
                text[written] = text[read + 2] - 0x90
                read += 3
                found += 1
            } else {
                text[written] = byte
                read += 1
            }
            written += 1
        }
        text.removeLast(from: written)
        return found
    }
}
