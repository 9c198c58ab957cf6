import UserInfo

/// File URLs as the sender's translation reads them: our own reading of the
/// RFC 3986 / RFC 8089 grammar, so that what we call a file's path is what
/// every parser calls it (Specs/url-translation.md, "Outgoing").
///
/// ```
/// file-URL      = "file:" ( "//" [ "localhost" ] path-absolute / path-absolute )
/// path-absolute = "/" [ segment *( "/" segment ) ]
/// segment       = *( unreserved / pct-encoded / "!" / "$" / "&" / "'" / "(" / ")"
///                    / "*" / "+" / "," / "=" / ":" / "@" )
/// ```
enum FileURLGrammar {
    /// The scheme of a URL string (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`),
    /// lower-cased; nil for a relative reference.
    static func scheme(of text: String) -> String? {
        var scheme: [UInt8] = []
        for byte in text.utf8 {
            if byte == 0x3A { return scheme.isEmpty ? nil : String(decoding: scheme, as: UTF8.self) }
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
            guard isLetter || (!scheme.isEmpty && isOther) else { return nil }
            scheme.append(isLetter ? byte | 0x20 : byte)
        }
        return nil
    }

    /// The scheme a URL resolves to: its own, or its base's.
    static func resolvedScheme(_ url: UserInfoURL) -> String? {
        scheme(of: url.relative) ?? url.base.flatMap(resolvedScheme)
    }

    /// The percent-encoded path a file URL names, resolving a relative URL
    /// against its base as RFC 3986 §5.2 does (dot segments are left to the
    /// caller's normalisation); nil when the URL is not a file URL.
    ///
    /// - Throws: ``ErrorCode/fileOutsideContainer`` for a file URL
    ///   outside the grammar: an authority other than empty or `localhost`
    ///   (host, user information, port), a query, a fragment, a raw `;` (path
    ///   parameters), any other byte the grammar does not allow.
    static func resolvedPath(_ url: UserInfoURL) throws(PayloadError) -> Substring? {
        if let scheme = scheme(of: url.relative) {
            // An absolute URL ignores its base.
            guard scheme == "file" else { return nil }
            return Substring(try localPath(Array(url.relative.utf8), in: url.relative))
        }
        guard let base = url.base, let basePath = try resolvedPath(base) else { return nil }
        let relative = Array(url.relative.utf8)
        // A network-path reference ("//host/…") would replace the authority.
        guard !relative.starts(with: [0x2F, 0x2F]) else {
            throw PayloadError(.fileOutsideContainer, "\(url.relative) names another host than its file base")
        }
        try checkPath(relative[...], in: url.relative)
        // Both are ASCII from here on (checkPath allows nothing else raw).
        if relative.first == 0x2F { return Substring(url.relative) }
        if relative.isEmpty { return basePath }
        // Merge: the base's path up to its last "/", then the reference.
        let directory = basePath[...(basePath.lastIndex(of: "/") ?? basePath.startIndex)]
        return Substring(String(directory) + url.relative)
    }

    /// The path of an absolute file URL string (its bytes; the scheme is `file`).
    private static func localPath(_ bytes: [UInt8], in text: String) throws(PayloadError) -> String {
        var rest = bytes[5...]  // after "file:"
        if rest.starts(with: [0x2F, 0x2F]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: 0x2F) ?? rest.endIndex
            let authority = String(decoding: rest[..<end], as: UTF8.self)
            // fileOutsideContainer: only an empty authority or localhost (no user information, no port, no host).
            guard authority.isEmpty || authority.lowercased() == "localhost" else {
                throw PayloadError(.fileOutsideContainer, "\(text) is not a plain local file URL (its authority is \"\(authority)\")")
            }
            rest = rest[end...]
        }
        // fileOutsideContainer: a path-absolute (not "//…", not a DOS drive, not empty).
        guard rest.first == 0x2F, !rest.starts(with: [0x2F, 0x2F]) else {
            throw PayloadError(.fileOutsideContainer, "\(text) is not a plain local file URL (no absolute path)")
        }
        try checkPath(rest, in: text)
        return String(decoding: rest, as: UTF8.self)
    }

    /// Every byte of a path is `/`, a segment character, or a `%HH` escape.
    private static func checkPath(_ path: ArraySlice<UInt8>, in text: String) throws(PayloadError) {
        var bytes = path.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case 0x3F: throw PayloadError(.fileOutsideContainer, "\(text) has a query: not a plain local file URL")
            case 0x23: throw PayloadError(.fileOutsideContainer, "\(text) has a fragment: not a plain local file URL")
            case 0x3B:
                throw PayloadError(.fileOutsideContainer,
                                   "\(text) has a raw \";\" (path parameters, which parsers read differently); encode it as %3B")
            case 0x25:
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high), isHexDigit(low) else {
                    throw PayloadError(.fileOutsideContainer, "\(text) has a malformed percent escape")
                }
            default:
                guard byte == 0x2F || isSegmentByte(byte) else {
                    throw PayloadError(.fileOutsideContainer, "\(text) has a character a URL path cannot hold raw (byte 0x\(String(byte, radix: 16, uppercase: true)))")
                }
            }
        }
    }

    /// unreserved / sub-delims but ";" / ":" / "@"
    private static func isSegmentByte(_ byte: UInt8) -> Bool {
        if PercentEncoding.isUnreserved(byte) { return true }
        switch byte {
        case 0x21, 0x24, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x2C, 0x3D, 0x3A, 0x40: return true
        default: return false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
    }
}

extension UserInfoURL {
    /// The URL as messages show it: its string, and its base's when it has one.
    var text: String {
        guard let base else { return relative }
        return "\(relative) (relative to \(base.text))"
    }
}
