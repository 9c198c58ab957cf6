public import PropertyList

/// The error of the userInfo layer and the encodings built on it (keyed
/// archives, the profiles, typed JSON). It says which rule was broken (``code``), why (``reason``),
/// which archive object (``objectIndex``), where in the userInfo value
/// (``keyPath``), where in the input text (``location``, for typed JSON), and,
/// when the bytes were not even a valid property list, the ``underlying``
/// property-list error. Equality compares codes. See `Specs/keyed-archive.md`.
public struct UserInfoError: CodecError {
    /// Which rule was broken (``ErrorCode``; the name is kept for source compatibility).
    public typealias Code = ErrorCode

    /// The rule that was broken.
    public var code: ErrorCode
    /// A short human explanation.
    public var reason: String
    /// The index in the archive's `$objects`, when the problem is in one object.
    public var objectIndex: Int?
    /// Where in the userInfo value (archive reading and writing, typed JSON).
    public var keyPath: PropertyListKeyPath
    /// Where in the input text (typed JSON), or in the property-list bytes.
    public var location: ErrorLocation
    /// The property-list error, when the input was not a valid property list.
    public var underlying: PropertyListError?

    /// Creates an error.
    public init(_ code: ErrorCode, _ reason: String, objectIndex: Int? = nil,
                keyPath: PropertyListKeyPath = .root, location: ErrorLocation = .unknown,
                underlying: PropertyListError? = nil) {
        self.code = code
        self.reason = reason
        self.objectIndex = objectIndex
        self.keyPath = keyPath
        self.location = location
        self.underlying = underlying
    }

    /// Wraps a property-list error (``ErrorCode/propertyList``), keeping its location.
    public init(_ error: PropertyListError) {
        self.init(.propertyList, error.description, location: error.location, underlying: error)
    }

    public var underlyingError: (any CodecError)? { underlying }

    /// `reason (object N, at line L, column C, key path P)`, leaving out what is unknown.
    public var description: String {
        described(first: objectIndex.map { "object \($0)" }, showsLocation: underlying == nil)
    }
}

// MARK: - Codes of the userInfo layer (Specs/userinfo-value.md), shared by its encodings

extension ErrorCode {
    /// The bytes are not a valid property list; see ``UserInfoError/underlying``.
    public static let propertyList = Self("propertyList")
    /// A field the encoded form needs is absent (an archive object's `NS.objects`,
    /// `NS.keys`, `NS.time`, `NS.uuidbytes`, `NS.relative`; a typed-JSON node's `value`, …).
    public static let missingField = Self("missingField")
    /// A field has the wrong type (`NS.keys` not an array of UIDs, `NS.uuidbytes`
    /// not 16 bytes, a typed-JSON `type` that is not a string, …).
    public static let wrongFieldType = Self("wrongFieldType")
    /// A field the form does not define (an archive object's `NS.`- or
    /// `$`-prefixed field its class lacks, a typed-JSON node's extra member).
    public static let unexpectedField = Self("unexpectedField")
    /// A set holds two exactly equal members.
    public static let duplicateSetMember = Self("duplicateSetMember")
    /// A set holds two members Foundation considers equal (such as 1, 1.0 and true).
    public static let ambiguousSetMembers = Self("ambiguousSetMembers")
    /// A URL string that Foundation cannot parse.
    public static let invalidURL = Self("invalidURL")
    /// A plain-profile value of a type plain property lists cannot carry (null, set, UUID, URL).
    public static let notPlistNative = Self("notPlistNative")
    /// A property-list value that is not a userInfo type (a UID, a binary null).
    public static let notUserInfoType = Self("notUserInfoType")
}
