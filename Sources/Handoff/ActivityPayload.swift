public import FoundationEssentials
public import UserInfo
public import PropertyList
import ActivityContainer

/// A Handoff activity as it travels: the fields of `NSUserActivity` that
/// Handoff carries. See `Specs/payload.md`, "Envelope".
public struct ActivityPayload: Sendable, Hashable {
    /// Reverse-DNS activity type, such as `com.example.shop.browse`.
    public var activityType: String
    /// A user-visible title.
    public var title: String?
    /// A web page to open when no app continues the activity; http or https only.
    public var webpageURL: UserInfoURL?
    /// The app's state.
    public var userInfo: UserInfoDictionary
    /// The keys the receiver needs; nil means all keys.
    public var requiredUserInfoKeys: Set<String>?
    /// When the activity stops being offered.
    public var expirationDate: Date?
    /// Search keywords.
    public var keywords: Set<String>

    public init(activityType: String, title: String? = nil, webpageURL: UserInfoURL? = nil,
                userInfo: UserInfoDictionary = [:], requiredUserInfoKeys: Set<String>? = nil,
                expirationDate: Date? = nil, keywords: Set<String> = []) {
        self.activityType = activityType
        self.title = title
        self.webpageURL = webpageURL
        self.userInfo = userInfo
        self.requiredUserInfoKeys = requiredUserInfoKeys
        self.expirationDate = expirationDate
        self.keywords = keywords
    }

    /// Checks the envelope's own rules (activity type, web page URL, required keys).
    public func validate() throws(PayloadError) {
        // invalidActivityType: non-empty reverse-DNS characters, no empty labels.
        guard Self.isValidActivityType(activityType) else {
            throw PayloadError(.invalidActivityType, "activity type \"\(activityType)\" is not reverse-DNS (letters, digits, '-', '_', dot-separated labels)")
        }
        // invalidWebpageURL: http or https (compared case-insensitively), absolute.
        if let webpageURL {
            guard webpageURL.base == nil, let url = URL(string: webpageURL.relative, encodingInvalidCharacters: false),
                  let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw PayloadError(.invalidWebpageURL, "webpageURL \"\(webpageURL.relative)\" is not an http or https URL")
            }
        }
        // missingRequiredKeys: every required key is in userInfo.
        if let required = requiredUserInfoKeys {
            let missing = required.filter { userInfo[$0] == nil }.sorted()
            guard missing.isEmpty else {
                throw PayloadError(.missingRequiredKeys, "required userInfo keys missing: \(missing.joined(separator: ", "))")
            }
        }
    }

    /// Reverse-DNS characters: labels of ASCII letters, digits, `-` and `_`, joined by dots.
    public static func isValidActivityType(_ type: String) -> Bool {
        !type.isEmpty && type.utf8.count <= 255 && type.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
        }
    }

    // MARK: The envelope as a userInfo value

    enum Field {
        static let activityType = "activityType", title = "title", webpageURL = "webpageURL", userInfo = "userInfo"
        static let requiredUserInfoKeys = "requiredUserInfoKeys", expirationDate = "expirationDate", keywords = "keywords"
        static let all: Set<String> = [activityType, title, webpageURL, userInfo, requiredUserInfoKeys, expirationDate, keywords]
    }

    /// The envelope dictionary that is archived (Specs/payload.md, "Wire form").
    public var envelope: UserInfoValue {
        var fields = UserInfoDictionary()
        fields[Field.activityType] = .string(activityType)
        fields[Field.userInfo] = .dictionary(userInfo)
        fields[Field.keywords] = .set(UserInfoSet(keywords.sorted().map { .string($0) }))
        if let title { fields[Field.title] = .string(title) }
        if let webpageURL { fields[Field.webpageURL] = .url(webpageURL) }
        if let required = requiredUserInfoKeys { fields[Field.requiredUserInfoKeys] = .set(UserInfoSet(required.sorted().map { .string($0) })) }
        if let expirationDate { fields[Field.expirationDate] = .date(expirationDate) }
        return .dictionary(fields)
    }

    /// Reads an envelope dictionary; unknown fields and wrong types are refused.
    public init(envelope: UserInfoValue) throws(PayloadError) {
        // invalidEnvelope: a dictionary of the documented fields with their types.
        guard case .dictionary(let fields) = envelope else {
            throw PayloadError(.invalidEnvelope, "a payload envelope is a dictionary, not a \(envelope.typeName)")
        }
        if let unknown = fields.keys.sorted().first(where: { !Field.all.contains($0) }) {
            throw PayloadError(.invalidEnvelope, "the envelope has an unknown field \"\(unknown)\"", keyPath: PropertyListKeyPath([.key(unknown)]))
        }
        func wrong(_ field: String, _ expected: String) -> PayloadError {
            PayloadError(.invalidEnvelope, "envelope field \(field) is not \(expected)", keyPath: PropertyListKeyPath([.key(field)]))
        }
        guard case .string(let type)? = fields[Field.activityType] else { throw wrong(Field.activityType, "a string") }
        guard case .dictionary(let userInfo)? = fields[Field.userInfo] else { throw wrong(Field.userInfo, "a dictionary") }
        self.init(activityType: type, userInfo: userInfo)
        switch fields[Field.title] {
        case nil: break
        case .string(let title)?: self.title = title
        default: throw wrong(Field.title, "a string")
        }
        switch fields[Field.webpageURL] {
        case nil: break
        case .url(let url)?: webpageURL = url
        default: throw wrong(Field.webpageURL, "a URL")
        }
        switch fields[Field.expirationDate] {
        case nil: break
        case .date(let date)?: expirationDate = date
        default: throw wrong(Field.expirationDate, "a date")
        }
        func strings(_ field: String) throws(PayloadError) -> Set<String>? {
            guard let value = fields[field] else { return nil }
            guard case .set(let set) = value else { throw wrong(field, "a set of strings") }
            var result = Set<String>()
            for member in set {
                guard case .string(let string) = member else { throw wrong(field, "a set of strings") }
                // invalidEnvelope: two members Swift's String equality merges (canonically
                // equivalent spellings, which NSSet keeps apart) would lose one silently.
                guard result.insert(string).inserted else {
                    throw PayloadError(.invalidEnvelope, "envelope field \(field) holds two canonically equivalent spellings of \"\(string)\", which a Set<String> cannot keep apart",
                                       keyPath: PropertyListKeyPath([.key(field)]))
                }
            }
            return result
        }
        keywords = try strings(Field.keywords) ?? []
        requiredUserInfoKeys = try strings(Field.requiredUserInfoKeys)
    }
}

extension PropertyListLimits {
    /// Decode limits for Handoff payloads, far tighter than for general
    /// property lists: 64 KiB of input, depth 32, 4,096 objects and members,
    /// strings and data up to 64 KiB, and an expanded size of at most 1 MiB
    /// (whatever the input's size). See `Specs/payload.md`, "Decode limits".
    public static let payload = PropertyListLimits(
        maxInputBytes: 64 << 10, maxDepth: 32, maxObjects: 4096, maxCollectionCount: 4096,
        maxStringBytes: 64 << 10, maxDataBytes: 64 << 10, maxExpandedBytes: 1 << 20, expansionFactor: 0)
}
