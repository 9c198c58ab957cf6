package import FoundationEssentials

/// Strict base64 decoding shared by the text formats (XML `<data>`, typed JSON):
/// the standard alphabet (`A–Z a–z 0–9 + /`), padded with `=` to a multiple of
/// four symbols, padding only at the very end, and zero bits after the last
/// symbol, so that exactly one text spells each byte string.
/// See `Specs/xml-plist.md` ("Values", data) and `Specs/typed-json.md`.
package enum StrictBase64 {
    /// Decodes `text`; nil when it is not strict base64. With `skippingWhitespace`,
    /// space, tab, line feed and carriage return may appear anywhere and are ignored.
    package static func decode(_ text: String, skippingWhitespace: Bool) -> Data? {
        text.withUTF8Span { decode($0, skippingWhitespace: skippingWhitespace) }
    }

    /// Decodes UTF-8 bytes; see ``decode(_:skippingWhitespace:)-(String,_)``.
    package static func decode(_ bytes: Span<UInt8>, skippingWhitespace: Bool) -> Data? {
        var output = ByteSink(capacity: bytes.count / 4 * 3)
        var quad: UInt32 = 0
        var symbols = 0
        var padding = 0
        let sextet = Self.sextet
        let valid = { () -> Bool in
            let count = bytes.count
            var index = 0
            while index < count {
                // A whole group of four symbols, no padding or whitespace in it: three bytes at once.
                if symbols & 3 == 0, index &+ 4 <= count {
                    let a = sextet[Int(bytes[index])], b = sextet[Int(bytes[index &+ 1])]
                    let c = sextet[Int(bytes[index &+ 2])], d = sextet[Int(bytes[index &+ 3])]
                    if a | b | c | d < 64 {
                        guard padding == 0 else { return false }
                        let group = UInt64(a) &<< 18 | UInt64(b) &<< 12 | UInt64(c) &<< 6 | UInt64(d)
                        output.append(bigEndian: group, width: 3)
                        symbols &+= 4
                        index &+= 4
                        continue
                    }
                }
                let byte = bytes[index]
                index &+= 1
                let digit = sextet[Int(byte)]
                if digit < 64 {
                    // A symbol after padding.
                    guard padding == 0 else { return false }
                    quad = quad << 6 | UInt32(digit)
                } else if digit == padSymbol {
                    // Padding only in the last two places of a group.
                    padding += 1
                    guard symbols % 4 >= 2, padding <= 2 else { return false }
                    quad <<= 6
                } else if digit == whitespace && skippingWhitespace {
                    continue
                } else {
                    return false
                }
                symbols += 1
                if symbols % 4 == 0 {
                    output.append(UInt8(truncatingIfNeeded: quad >> 16))
                    output.append(UInt8(truncatingIfNeeded: quad >> 8))
                    output.append(UInt8(truncatingIfNeeded: quad))
                    if padding > 0 {
                        // Zero bits after the last symbol: 4 of them with "==", 2 with "=".
                        let unused: UInt32 = padding == 2 ? 0xFFFF : 0xFF
                        guard quad & unused == 0 else { return false }
                    }
                    quad = 0
                }
            }
            return symbols % 4 == 0
        }()
        guard valid else { return nil }
        output.removeLast(from: output.count - padding)
        return output.data
    }

    private static let padSymbol: UInt8 = 0xFE
    private static let whitespace: UInt8 = 0xFD
    private static let invalid: UInt8 = 0xFF

    /// Each byte's 6-bit value, or one of the markers above.
    private static let sextet: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, symbol) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(symbol)] = UInt8(value)
        }
        table[Int(UInt8(ascii: "="))] = padSymbol
        for space in [0x20, 0x09, 0x0A, 0x0D] { table[space] = whitespace }
        return table
    }()
}
