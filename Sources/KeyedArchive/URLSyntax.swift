import FoundationEssentials

/// Which URL strings an archive may carry: those FoundationEssentials parses
/// as an RFC 3986 URL reference without percent-encoding anything for us
/// (`URL(string:encodingInvalidCharacters: false)`), since the relative string
/// travels exactly as given. An empty relative string is valid only with a
/// base (it names the base). See `Specs/keyed-archive.md`, "URLs".
enum URLSyntax {
    static func isValid(_ url: UserInfoURL) -> Bool {
        if url.relative.isEmpty { return url.base != nil }
        return URL(string: url.relative, encodingInvalidCharacters: false) != nil
    }
}
