public import PropertyList

// Error codes of the XML property-list reader and writer.
// Each is a rule in Specs/xml-plist.md, under the same name.

extension ErrorCode {
    /// Not well-formed XML (libxml2's message, line and column).
    public static let malformedXML = Self("malformedXML")
    /// An encoding other than UTF-8, or UTF-16 with a byte-order mark.
    public static let unsupportedEncoding = Self("unsupportedEncoding")
    /// A document type other than Apple's, an internal subset, or any declaration in it.
    public static let forbiddenDeclaration = Self("forbiddenDeclaration")
    /// A processing instruction (other than the XML declaration) or an entity reference.
    public static let forbiddenNode = Self("forbiddenNode")
    /// The root element is not `<plist>` (with no attribute but `version="1.0"`).
    public static let unexpectedRoot = Self("unexpectedRoot")
    /// An element name the plist grammar does not have.
    public static let unknownElement = Self("unknownElement")
    /// An attribute on an element other than `<plist version="1.0">`.
    public static let unexpectedAttribute = Self("unexpectedAttribute")
    /// A known element in the wrong place: a key outside a dictionary, a value
    /// without a key, an element inside a scalar.
    public static let misplacedElement = Self("misplacedElement")
    /// Text where only whitespace may be (between elements, in booleans).
    public static let unexpectedText = Self("unexpectedText")
    /// A comment inside a key or scalar value, where Apple's parser reads it differently.
    public static let commentInValue = Self("commentInValue")
    /// A CDATA section anywhere but inside `<string>` or `<key>`.
    public static let misplacedCDATA = Self("misplacedCDATA")
    /// `<plist>` holding no value, or more than one.
    public static let plistValueCount = Self("plistValueCount")
    /// A dictionary key with no value after it.
    public static let missingValue = Self("missingValue")
    /// An `<integer>` that is not a decimal or hexadecimal integer in [-2⁶³, 2⁶⁴).
    public static let invalidInteger = Self("invalidInteger")
    /// A `<real>` that is not a finite decimal number or one of Apple's spellings of NaN and infinity.
    public static let invalidReal = Self("invalidReal")
    /// `<data>` that is not padded base64 (whitespace allowed between characters).
    public static let invalidData = Self("invalidData")

    // Input screening (XMLInput.swift): where libxml2 and Apple's parser disagree.
    /// A raw carriage return inside string or key content (libxml2 and Apple's parser disagree on it).
    public static let ambiguousLineEnding = Self("ambiguousLineEnding")
    /// A string or key starting with U+FEFF (Apple's parser drops it, libxml2 keeps it).
    public static let leadingByteOrderMark = Self("leadingByteOrderMark")
    /// An empty comment `<!---->` before the root element, which Apple's parser reads as unterminated.
    public static let emptyPrologComment = Self("emptyPrologComment")
    /// A character or entity reference outside `<string>` and `<key>` text, which
    /// Apple's parser does not expand there.
    public static let misplacedReference = Self("misplacedReference")
    /// A tag over 1,024 bytes (libxml2 checks attributes in quadratic time).
    public static let tagTooLong = Self("tagTooLong")
    /// A character reference of more than 8 digits (`&#0000000000060;`), read differently by parsers.
    public static let longCharacterReference = Self("longCharacterReference")
}
