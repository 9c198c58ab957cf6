// Text helpers every codec shares, defined once: hexadecimal digits and JSON
// string quoting (word-at-a-time scans are in Memory/WordScan.swift) (Specs/architecture.md, "Shared tools").

/// Hexadecimal digits.
/// English for messages: "a" or "an" before a type name (`an array`, `a string`).
package enum English {
    package static func article(_ noun: String) -> String { noun.first.map { "aeiou".contains($0) } == true ? "an" : "a" }
}

package enum Hex {
    private static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Two uppercase digits (`0x` is the caller's).
    package static func upper(_ byte: UInt8) -> String {
        String(decoding: [upperDigits[Int(byte >> 4)], upperDigits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// Two lowercase digits.
    package static func lower(_ byte: UInt8) -> String { upper(byte).lowercased() }

    /// The value of one hexadecimal digit (either case), or nil.
    package static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x41...0x46: return digit - 0x41 + 10
        case 0x61...0x66: return digit - 0x61 + 10
        default: return nil
        }
    }
}

/// The escaping every quoted output shares (JSON, readable text, OpenStep,
/// Swift and Objective-C literals, terminal lines): line feed, carriage
/// return and tab by name, the quote and the backslash escaped when the text
/// is quoted, and whatever `special` spells otherwise for the scalars it
/// claims; everything else as it is.
package enum TextEscaping {
    /// Appends `string`, escaped, to `out`. `special` gets each other scalar
    /// and its position, and returns its escape, or nil to keep it.
    package static func append(_ string: String, quoted: Bool, to out: inout String,
                               special: (Unicode.Scalar, Int) -> String?) {
        for (position, scalar) in string.unicodeScalars.enumerated() {
            switch scalar {
            case "\\" where quoted: out += "\\\\"
            case "\"" where quoted: out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if let escape = special(scalar, position) { out += escape } else { out.unicodeScalars.append(scalar) }
            }
        }
    }

    /// `\u` and four or more lowercase hex digits (JSON's spelling).
    package static func jsonHex(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: false)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// JSON string literals, as every JSON and description writer spells them.
package enum JSONText {
    /// A JSON string literal: quote, backslash and control characters escaped
    /// (`\n`, `\r`, `\t`, `\b`, `\f`, others as `\u00XX`), everything else as is.
    package static func appendQuoted(_ string: String, to out: inout String) {
        appendQuoted(string, readable: false, to: &out)
    }

    /// A quoted string for people to read (a printed tree, a report line): as
    /// ``appendQuoted(_:to:)``, and DEL, the C1 controls, the line and paragraph
    /// separators and the bidirectional controls as `\uXXXX` too, so that no
    /// value moves the cursor, forges a line or reorders what a terminal shows
    /// (Specs/plistkit.md, "Errors": the escaping of every human-readable line).
    package static func appendReadableQuoted(_ string: String, to out: inout String) {
        appendQuoted(string, readable: true, to: &out)
    }

    /// The two quotings: JSON's (C0 controls escaped, `\b` and `\f` by name),
    /// or the readable one (every unreadable scalar as `\uXXXX`).
    private static func appendQuoted(_ string: String, readable: Bool, to out: inout String) {
        out += "\""
        TextEscaping.append(string, quoted: true, to: &out) { scalar, _ in
            if readable { return isUnreadable(scalar) ? TextEscaping.jsonHex(scalar) : nil }
            switch scalar {
            case "\u{08}": return "\\b"
            case "\u{0C}": return "\\f"
            default: return scalar.value < 0x20 ? TextEscaping.jsonHex(scalar) : nil
            }
        }
        out += "\""
    }

    /// The characters no human-readable output shows raw: C0, DEL, C1, the line
    /// and paragraph separators, the bidirectional controls.
    package static func isUnreadable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
