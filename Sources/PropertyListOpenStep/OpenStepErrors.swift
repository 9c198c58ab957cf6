public import PropertyList

// Error codes of the OpenStep reader. Each is a rule in Specs/openstep.md,
// under the same name; the shared codes (truncated, trailingBytes,
// invalidUTF8, duplicateKey, the limits) are PropertyList's.

extension ErrorCode {
    /// A character where the OpenStep grammar needs something else (a value, `=`, `;`, `,`, `)`, `}`).
    public static let unexpectedCharacter = Self("unexpectedCharacter")
    /// An OpenStep quoted string with no closing quote.
    public static let unterminatedString = Self("unterminatedString")
    /// A `/*` comment with no `*/`.
    public static let unterminatedComment = Self("unterminatedComment")
    /// An OpenStep escape CF does not define, or one it reads loosely (short `\U`, octal above `\177`, a lone surrogate).
    public static let invalidEscape = Self("invalidEscape")
    /// OpenStep `<…>` data that is not hex digit pairs and whitespace, closed by `>`.
    public static let invalidHexData = Self("invalidHexData")
    /// A GNUstep `<*…>` typed value that is not a valid integer, real, boolean or date.
    public static let invalidTypedValue = Self("invalidTypedValue")
}
