public import PropertyList

/// The error of the userInfo layer: keyed archives, the plain profile and
/// typed JSON. It says which rule was broken (``code``), why (``reason``),
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
        var places: [String] = []
        if let objectIndex { places.append("object \(objectIndex)") }
        if location != .unknown, underlying == nil { places.append("at \(location)") }
        if !keyPath.isRoot { places.append("key path \(keyPath)") }
        return Self.describe(reason, places: places)
    }
}

// MARK: - Codes (Specs/keyed-archive.md)

extension ErrorCode {
    /// The bytes are not a valid property list; see ``UserInfoError/underlying``.
    public static let propertyList = Self("propertyList")
    /// The archive's top-level dictionary lacks `$archiver`, `$version`, `$top` or `$objects`.
    public static let missingArchiveKey = Self("missingArchiveKey")
    /// The archive's top-level dictionary has a key other than those four.
    public static let unexpectedArchiveKey = Self("unexpectedArchiveKey")
    /// `$archiver` is not the string `NSKeyedArchiver`.
    public static let wrongArchiver = Self("wrongArchiver")
    /// `$version` is not the integer 100000.
    public static let wrongVersion = Self("wrongVersion")
    /// `$objects` is not an array starting with the string `$null`.
    public static let badObjects = Self("badObjects")
    /// `$top` is not a dictionary with exactly one root key (`root`, or the legacy `$$0`) holding a UID.
    public static let badTop = Self("badTop")
    /// The root reference is nil (UID 0 or the `$null` object).
    public static let nilRoot = Self("nilRoot")
    /// An object's class is not one of the ten userInfo classes (or their mutable variants).
    public static let classNotAllowed = Self("classNotAllowed")
    /// A class entry is malformed or contradicts itself (name, chain, hints).
    public static let inconsistentClass = Self("inconsistentClass")
    /// An object dictionary has no `$class`.
    public static let missingClass = Self("missingClass")
    /// A field the class needs is absent (`NS.objects`, `NS.keys`, `NS.time`, `NS.uuidbytes`, `NS.relative`, …).
    public static let missingField = Self("missingField")
    /// A field has the wrong type (`NS.keys` not an array of UIDs, `NS.uuidbytes` not 16 bytes, …).
    public static let wrongFieldType = Self("wrongFieldType")
    /// An object has an `NS.`- or `$`-prefixed field its class does not define.
    public static let unexpectedField = Self("unexpectedField")
    /// `NS.keys` and `NS.objects` differ in length.
    public static let keysObjectsMismatch = Self("keysObjectsMismatch")
    /// A set holds two exactly equal members.
    public static let duplicateSetMember = Self("duplicateSetMember")
    /// A set holds two members Foundation considers equal (such as 1, 1.0 and true).
    public static let ambiguousSetMembers = Self("ambiguousSetMembers")
    /// A collection member is nil.
    public static let nilMember = Self("nilMember")
    /// An object in `$objects` is referenced by nothing reachable from the root.
    public static let unreferencedObject = Self("unreferencedObject")
    /// An inline object of a type no userInfo value is archived as (a UID, a plain date, a binary null).
    public static let unexpectedObjectType = Self("unexpectedObjectType")
    /// A URL string that Foundation cannot parse.
    public static let invalidURL = Self("invalidURL")
    /// The string `$null`, which NSKeyedUnarchiver reads back as nil.
    public static let reservedString = Self("reservedString")
    /// A plain-profile value of a type plain property lists cannot carry (null, set, UUID, URL).
    public static let notPlistNative = Self("notPlistNative")
    /// A property-list value that is not a userInfo type (a UID, a binary null).
    public static let notUserInfoType = Self("notUserInfoType")
}
