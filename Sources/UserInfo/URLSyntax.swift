package import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// Which URL strings a userInfo may carry: those FoundationEssentials parses
/// as an RFC 3986 URL reference without percent-encoding anything for us
/// (`URL(string:encodingInvalidCharacters: false)`), since the relative string
/// travels exactly as given. An empty relative string is valid only with a
/// base (it names the base). See `Specs/userinfo-value.md`, "URLs".
extension UserInfoURL {
    /// True when the URL may travel in a userInfo (``ErrorCode/invalidURL`` otherwise).
    public var isValid: Bool {
        if relative.isEmpty { return base != nil }
        if Self.isPlainURLString(relative) { return true }
        return URL(string: relative, encodingInvalidCharacters: false) != nil
    }

    /// True for a URL string valid at a glance, without parsing it: a scheme
    /// (`ALPHA *(ALPHA / DIGIT / "+" / "-" / ".")`) and `:`, then either `//`,
    /// a host of letters, digits, `-` and `.`, and a path that is empty or
    /// starts with `/`; or a path not starting with `//`. The path holds only
    /// RFC 3986 path characters (unreserved, sub-delims, `:`, `@`, `/`) and
    /// `%` with two hex digits; no query or fragment. Every such string is
    /// an RFC 3986 URI that FoundationEssentials parses without encoding
    /// anything (checked against it on generated strings,
    /// `URLSyntaxTests.plainURLStrings`); anything else is parsed. What is
    /// written most (file URLs, `https://host/path`) costs a scan, not a parse.
    package static func isPlainURLString(_ text: String) -> Bool {
        text.withUTF8Span { isPlainURLString(bytes: $0) }
    }

    static func isPlainURLString(bytes: Span<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 0, isLetter(bytes[0]) else { return false }
        var index = 1
        // The scheme.
        while index < count, isLetter(bytes[index]) || isDigit(bytes[index]) || bytes[index] == 0x2B || bytes[index] == 0x2D || bytes[index] == 0x2E {
            index += 1
        }
        guard index < count, bytes[index] == 0x3A else { return false }
        index += 1
        // The authority: "//" and a host of letters, digits, "-" and ".".
        if index + 1 < count, bytes[index] == 0x2F, bytes[index + 1] == 0x2F {
            index += 2
            while index < count, bytes[index] != 0x2F {
                let byte = bytes[index]
                guard isLetter(byte) || isDigit(byte) || byte == 0x2D || byte == 0x2E else { return false }
                index += 1
            }
        }
        // The path.
        while index < count {
            let byte = bytes[index]
            if byte == 0x25 {
                guard index + 2 < count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isPathCharacter(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }

    /// RFC 3986 `pchar` without `%` (unreserved, sub-delims, `:`, `@`), and `/`.
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x2D, 0x2E, 0x5F, 0x7E,                                      // - . _ ~
             0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3B, 0x3D, // ! $ & ' ( ) * + , ; =
             0x3A, 0x40, 0x2F:                                            // : @ /
            return true
        default:
            return false
        }
    }
}

extension UserInfoURL {
    /// The URL of a valid URL without a base, parsed once: what ``isValid``
    /// parses, and what ``url`` gives for it (a string that parses without
    /// percent-encoding parses the same with it allowed). Nil otherwise.
    package var validURL: URL? {
        guard base == nil, !relative.isEmpty else { return nil }
        return URL(string: relative, encodingInvalidCharacters: false)
    }
}
