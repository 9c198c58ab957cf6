public import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// A value Handoff can carry in an activity's `userInfo`: exactly the ten
/// types Apple's `NSUserActivity` accepts (NSArray, NSData, NSDate,
/// NSDictionary, NSNull, NSNumber, NSSet, NSString, NSUUID, NSURL).
///
/// Values compare *exactly*, like ``PropertyListValue``: strings by Unicode
/// scalars, reals and dates by bit pattern, integers, reals and booleans
/// apart, dictionaries and sets in any order. See `Specs/userinfo-value.md`.
public enum UserInfoValue: Sendable {
    /// An ordered list (`NSArray`).
    case array([UserInfoValue])
    /// Raw bytes (`NSData`).
    case data(Data)
    /// An instant (`NSDate`); finite.
    case date(Date)
    /// String-keyed entries (`NSDictionary`), unique keys, insertion order kept.
    case dictionary(UserInfoDictionary)
    /// `NSNull`.
    case null
    /// An integer, real or boolean (`NSNumber`), kept apart.
    case number(UserInfoNumber)
    /// Unordered members, no two equal (`NSSet`).
    case set(UserInfoSet)
    /// A string (`NSString`).
    case string(String)
    /// A UUID (`NSUUID`).
    case uuid(UUID)
    /// A URL (`NSURL`): the relative string exactly as given and an optional base.
    case url(UserInfoURL)
}

/// The number kinds `NSNumber` carries in a userInfo: integers in
/// [-2⁶³, 2⁶⁴), reals, and booleans, never conflated.
public enum UserInfoNumber: Sendable {
    /// An integer, exact over `Int64` ∪ `UInt64`.
    case integer(PropertyListInteger)
    /// A double-precision real.
    case real(Double)
    /// A boolean (`kCFBooleanTrue`/`kCFBooleanFalse`).
    case bool(Bool)
}

extension UserInfoNumber: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a.bitPattern == b.bitPattern
        case let (.bool(a), .bool(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let v): hasher.combine(0 as UInt8); hasher.combine(v)
        case .real(let v): hasher.combine(1 as UInt8); hasher.combine(v.bitPattern)
        case .bool(let v): hasher.combine(2 as UInt8); hasher.combine(v)
        }
    }
}

/// An `NSURL` as archived: a relative string kept exactly as given (never
/// normalised or resolved on the way through) and an optional base URL.
public struct UserInfoURL: Sendable, Hashable {
    /// The URL string, relative to ``base`` when there is one.
    public var relative: String
    // An array as the box for the recursive base (empty or one element).
    private var baseStorage: [UserInfoURL]

    /// The base URL, if any.
    public var base: UserInfoURL? {
        get { baseStorage.first }
        set { baseStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a URL from its relative string and optional base.
    public init(relative: String, base: UserInfoURL? = nil) {
        self.relative = relative
        self.baseStorage = base.map { [$0] } ?? []
    }

    /// Creates a URL from Foundation's `URL`, keeping its relative string and base.
    public init(_ url: URL) {
        self.init(relative: url.relativeString, base: url.baseURL.map(UserInfoURL.init))
    }

    /// The URL resolved by FoundationEssentials, or nil when the strings do not form one.
    public var url: URL? {
        guard let base else { return URL(string: relative) }
        guard let resolvedBase = base.url else { return nil }
        return URL(string: relative, relativeTo: resolvedBase)
    }

    /// The number of URLs in the base chain, this one included.
    public var chainLength: Int { 1 + (base?.chainLength ?? 0) }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        ExactString.equal(lhs.relative, rhs.relative) && lhs.base == rhs.base
    }

    public func hash(into hasher: inout Hasher) {
        ExactString.hash(relative, into: &hasher)
        hasher.combine(base)
    }
}

// MARK: - Typed accessors

extension UserInfoValue {
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The number, if this is one.
    public var numberValue: UserInfoNumber? { if case .number(let v) = self { return v }; return nil }
    /// The integer, if this is an integer number.
    public var integerValue: PropertyListInteger? { if case .number(.integer(let v)) = self { return v }; return nil }
    /// The integer as `Int`, if this is an integer number that fits.
    public var intValue: Int? { integerValue?.intValue }
    /// The real, if this is a real number.
    public var realValue: Double? { if case .number(.real(let v)) = self { return v }; return nil }
    /// The boolean, if this is a boolean number.
    public var boolValue: Bool? { if case .number(.bool(let v)) = self { return v }; return nil }
    /// The date, if this is one.
    public var dateValue: Date? { if case .date(let v) = self { return v }; return nil }
    /// The bytes, if this is data.
    public var dataValue: Data? { if case .data(let v) = self { return v }; return nil }
    /// The elements, if this is an array.
    public var arrayValue: [UserInfoValue]? { if case .array(let v) = self { return v }; return nil }
    /// The entries, if this is a dictionary.
    public var dictionaryValue: UserInfoDictionary? { if case .dictionary(let v) = self { return v }; return nil }
    /// The members, if this is a set.
    public var setValue: UserInfoSet? { if case .set(let v) = self { return v }; return nil }
    /// The UUID, if this is one.
    public var uuidValue: UUID? { if case .uuid(let v) = self { return v }; return nil }
    /// The URL, if this is one.
    public var urlValue: UserInfoURL? { if case .url(let v) = self { return v }; return nil }
    /// True for `NSNull`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The payload of a node in the expanded size (``ExpandedSize``): a string's
    /// UTF-8 bytes, data's bytes, 16 for a UUID, a URL's relative string in
    /// UTF-8 (its base is a node of its own), 0 otherwise.
    @usableFromInline package var payloadBytes: Int {
        switch self {
        case .string(let string): return string.utf8.count
        case .data(let data): return data.count
        case .uuid: return 16
        case .url(let url): return url.relative.utf8.count
        default: return 0
        }
    }

    /// The type's name in specs, errors and typed JSON: `array`, `data`, `date`,
    /// `dict`, `null`, `integer`, `real`, `bool`, `set`, `string`, `uuid`, `url`.
    public var typeName: String {
        switch self {
        case .array: return "array"
        case .data: return "data"
        case .date: return "date"
        case .dictionary: return "dict"
        case .null: return "null"
        case .number(.integer): return "integer"
        case .number(.real): return "real"
        case .number(.bool): return "bool"
        case .set: return "set"
        case .string: return "string"
        case .uuid: return "uuid"
        case .url: return "url"
        }
    }
}

// MARK: - The scalars property lists share

extension UserInfoValue {
    /// The userInfo value of a property-list scalar both models have (string,
    /// integer, real, boolean, data, date), or nil for a container, a UID or
    /// the binary null. The one mapping every encoding uses
    /// (Specs/userinfo-value.md, "Property-list scalars").
    public init?(propertyListScalar plist: PropertyListValue) {
        switch plist {
        case .string(let v): self = .string(v)
        case .integer(let v): self = .number(.integer(v))
        case .real(let v): self = .number(.real(v))
        case .bool(let v): self = .number(.bool(v))
        case .data(let v): self = .data(v)
        case .date(let v): self = .date(v)
        case .array, .dictionary, .uid, .null: return nil
        }
    }

    /// The property-list scalar of a value both models have (string, number,
    /// data, date), or nil for a container, null, UUID or URL.
    public var propertyListScalar: PropertyListValue? {
        switch self {
        case .string(let v): return .string(v)
        case .number(.integer(let v)): return .integer(v)
        case .number(.real(let v)): return .real(v)
        case .number(.bool(let v)): return .bool(v)
        case .data(let v): return .data(v)
        case .date(let v): return .date(v)
        case .array, .dictionary, .set, .null, .uuid, .url: return nil
        }
    }
}

// MARK: - Equality

extension UserInfoValue: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.array(a), .array(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.date(a), .date(b)):
            return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.dictionary(a), .dictionary(b)): return a == b
        case (.null, .null): return true
        case let (.number(a), .number(b)): return a == b
        case let (.set(a), .set(b)): return a == b
        case let (.string(a), .string(b)): return ExactString.equal(a, b)
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.url(a), .url(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .array(let v): hasher.combine(0 as UInt8); hasher.combine(v)
        case .data(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .date(let v): hasher.combine(2 as UInt8); hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .dictionary(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .null: hasher.combine(4 as UInt8)
        case .number(let v): hasher.combine(5 as UInt8); hasher.combine(v)
        case .set(let v): hasher.combine(6 as UInt8); hasher.combine(v)
        // Exact, scalar-by-scalar hashing, shared with the property-list layer.
        case .string(let v): hasher.combine(7 as UInt8); ExactString.hash(v, into: &hasher)
        case .uuid(let v): hasher.combine(8 as UInt8); hasher.combine(v)
        case .url(let v): hasher.combine(9 as UInt8); hasher.combine(v)
        }
    }
}

// MARK: - Literals

extension UserInfoValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension UserInfoValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .number(.integer(PropertyListInteger(value))) }
}

extension UserInfoValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .number(.real(value)) }
}

extension UserInfoValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .number(.bool(value)) }
}

extension UserInfoValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: UserInfoValue...) { self = .array(elements) }
}

extension UserInfoValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary; a literal with a repeated key is a programming error and traps.
    public init(dictionaryLiteral elements: (String, UserInfoValue)...) {
        self = .dictionary(UserInfoDictionary(uniqueKeysWithValues: elements))
    }
}

extension UserInfoValue: ExpressibleByNilLiteral {
    /// `nil` in a literal is `NSNull`.
    public init(nilLiteral: ()) { self = .null }
}

extension UserInfoValue: StringKeyedTree {}
