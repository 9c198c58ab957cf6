public import PropertyList

// Error codes of the MP userInfo reader and writer. Each is a rule in
// Specs/mp-userinfo.md, under the same name. They are thrown as
// ``UserInfoError``s located by byte offset; the codes shared with other
// formats (truncated, badMagic, unknownMarker, trailingBytes, invalidUTF8,
// nonStringKey, duplicateKey, the limits) are declared in PropertyList.

extension ErrorCode {
    /// MP bytes whose version bytes (after `MP`) are not `03 05`.
    public static let unsupportedMPVersion = Self("unsupportedMPVersion")
    /// The top value of an MP userInfo is not a map.
    public static let notDictionary = Self("notDictionary")
    /// An MP extension type other than 1–5 (UUID, set, date, URL with and without a base).
    public static let unknownExtension = Self("unknownExtension")
    /// An MP extension in a form Apple's writer does not use for its type (size,
    /// marker, a set not followed by an array, a URL part that is not a URL or string).
    public static let badExtension = Self("badExtension")
}
