package import FoundationEssentials

/// Which URL strings a userInfo may carry: those FoundationEssentials parses
/// as an RFC 3986 URL reference without percent-encoding anything for us
/// (`URL(string:encodingInvalidCharacters: false)`), since the relative string
/// travels exactly as given. An empty relative string is valid only with a
/// base (it names the base). See `Specs/userinfo-value.md`, "URLs".
extension UserInfoURL {
    /// True when the URL may travel in a userInfo (``ErrorCode/invalidURL`` otherwise).
    public var isValid: Bool {
        if relative.isEmpty { return base != nil }
        return URL(string: relative, encodingInvalidCharacters: false) != nil
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
