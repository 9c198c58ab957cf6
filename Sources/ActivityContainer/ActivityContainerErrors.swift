public import PropertyList

/// The error of the activity-container codec (Specs/activity-container.md):
/// which rule was broken (``code``), why (``reason``), where in the packet
/// (``location``: a byte offset, into the inflated bytes when the packet was
/// compressed) and which field (``keyPath``: `title`, `userInfo`, `info`,
/// `webpageURL`, `streams`, `error`). Equality compares codes.
public struct ActivityContainerError: CodecError {
    public var code: ErrorCode
    public var reason: String
    public var location: ErrorLocation
    public var keyPath: PropertyListKeyPath

    /// Creates an error.
    public init(_ code: ErrorCode, _ reason: String, at location: ErrorLocation = .unknown,
                keyPath: PropertyListKeyPath = .root) {
        self.code = code
        self.reason = reason
        self.location = location
        self.keyPath = keyPath
    }

    /// A container error wraps nothing.
    public var underlyingError: (any CodecError)? { nil }

    /// `reason (at offset N, field F)`, leaving out what is unknown.
    public var description: String { described(keyPathLabel: "field") }
}

// Error codes of the activity container. Each is a rule in
// Specs/activity-container.md, under the same name; truncated, trailingBytes
// and invalidUTF8 are shared codes declared in PropertyList.

extension ErrorCode {
    /// A container header other than `0x1` (activity), `0x101` (compressed activity) or `0xF` (error packet).
    public static let badContainerHeader = Self("badContainerHeader")
    /// A field word whose top byte is neither `0x01` (present, with a length) nor a whole zero word (absent).
    public static let badFieldTag = Self("badFieldTag")
    /// A container that ends after fewer fields than its kind has (five for an activity, one for an error packet).
    public static let badFieldCount = Self("badFieldCount")
    /// The activity's JSON field is not one strict JSON object of the known keys with string values.
    public static let invalidActivityJSON = Self("invalidActivityJSON")
    /// `webpageURL` is not an http or https URL.
    public static let invalidWebpageURL = Self("invalidWebpageURL")
    /// A compressed container inflates past its cap.
    public static let inflatedTooLarge = Self("inflatedTooLarge")
    /// A compressed container whose rest is not exactly one whole bzip2 stream.
    public static let badCompression = Self("badCompression")
    /// A field longer than a 24-bit length can frame (16,777,215 bytes).
    public static let fieldTooLarge = Self("fieldTooLarge")
    /// A present field of zero bytes, which the container cannot tell from an absent one.
    public static let emptyField = Self("emptyField")
}
