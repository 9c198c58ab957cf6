package import FoundationEssentials

/// Strict base64 decoding shared by the text formats (XML `<data>`, typed JSON):
/// the standard alphabet (`A–Z a–z 0–9 + /`), padded with `=` to a multiple of
/// four symbols, padding only at the very end, and zero bits after the last
/// symbol, so that exactly one text spells each byte string.
/// See `Specs/xml-plist.md` ("Values", data) and `Specs/typed-json.md`.
package enum StrictBase64 {
    /// Decodes `text`; nil when it is not strict base64. With `skippingWhitespace`,
    /// space, tab, line feed and carriage return may appear anywhere and are ignored.
    /// (The decoder itself, which writes raw memory, is in the byte kit:
    /// Memory/StrictBase64Decoding.swift.)
    package static func decode(_ text: String, skippingWhitespace: Bool) -> Data? {
        text.withUTF8Span { decode($0, skippingWhitespace: skippingWhitespace) }
    }

    static let padSymbol: UInt8 = 0xFE
    static let whitespace: UInt8 = 0xFD
    private static let invalid: UInt8 = 0xFF

    /// Each byte's 6-bit value, or one of the markers above.
    static let sextet: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, symbol) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(symbol)] = UInt8(value)
        }
        table[Int(UInt8(ascii: "="))] = padSymbol
        for space in [0x20, 0x09, 0x0A, 0x0D] { table[space] = whitespace }
        return table
    }()
}
