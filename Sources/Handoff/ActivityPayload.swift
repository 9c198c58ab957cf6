public import FoundationEssentials
public import UserInfo
public import PropertyList
import ActivityContainer

/// A Handoff activity as it travels: what Apple's activity container carries
/// (Specs/activity-container.md), with the userInfo as values. See
/// `Specs/payload.md`, "Activity".
public struct ActivityPayload: Sendable, Hashable {
    /// Reverse-DNS activity type, such as `com.example.shop.browse`.
    public var activityType: String
    /// A user-visible title.
    public var title: String?
    /// A web page to open when no app continues the activity; http or https only.
    public var webpageURL: UserInfoURL?
    /// The app's state.
    public var userInfo: UserInfoDictionary
    /// The sender's team identifier (`""` when none, as Apple writes `0000000000`).
    public var teamID: String
    /// The activity's `persistentIdentifier`, when set.
    public var persistentID: String?
    /// The activity's `targetContentIdentifier`, when set.
    public var targetContentID: String?
    /// The continuation-streams endpoint data, opaque, when the activity offers streams.
    public var streamsEndpoint: Data?
    /// The keys the receiver needs; nil means all keys. Checked when encoding
    /// (``ErrorCode/missingRequiredKeys``); the container has no field for it,
    /// so it is not sent and a decoded payload has nil (observed).
    public var requiredUserInfoKeys: Set<String>?

    public init(activityType: String, title: String? = nil, webpageURL: UserInfoURL? = nil,
                userInfo: UserInfoDictionary = [:], teamID: String = "", persistentID: String? = nil,
                targetContentID: String? = nil, streamsEndpoint: Data? = nil, requiredUserInfoKeys: Set<String>? = nil) {
        self.activityType = activityType
        self.title = title
        self.webpageURL = webpageURL
        self.userInfo = userInfo
        self.teamID = teamID
        self.persistentID = persistentID
        self.targetContentID = targetContentID
        self.streamsEndpoint = streamsEndpoint
        self.requiredUserInfoKeys = requiredUserInfoKeys
    }

    /// Checks the activity's own rules (activity type, web page URL, required keys).
    public func validate() throws(PayloadError) {
        // invalidActivityType: non-empty reverse-DNS characters, no empty labels.
        guard Self.isValidActivityType(activityType) else {
            throw PayloadError(.invalidActivityType, "activity type \"\(activityType)\" is not reverse-DNS (letters, digits, '-', '_', dot-separated labels)")
        }
        // invalidWebpageURL: http or https (compared case-insensitively), absolute, no base.
        if let webpageURL {
            guard webpageURL.base == nil, ActivityRecord.isValidWebpageURL(webpageURL.relative) else {
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
        ReverseDNS.labelCount(type) != nil
    }

    // MARK: The envelope: the payload as one userInfo value (typed JSON in plistkit)

    enum Field {
        static let activityType = "activityType", title = "title", webpageURL = "webpageURL", userInfo = "userInfo"
        static let teamID = "teamID", persistentID = "persistentID", targetContentID = "targetContentID"
        static let streamsEndpoint = "streamsEndpoint", requiredUserInfoKeys = "requiredUserInfoKeys"
        static let all: Set<String> = [activityType, title, webpageURL, userInfo, teamID, persistentID, targetContentID,
                                       streamsEndpoint, requiredUserInfoKeys]
    }

    /// The payload as one dictionary value (Specs/payload.md, "Envelope"): what
    /// `plistkit payload decode` prints as typed JSON and `encode` reads.
    /// Not a wire form: the wire form is the activity container.
    public var envelope: UserInfoValue {
        var fields = UserInfoDictionary()
        fields[Field.activityType] = .string(activityType)
        if let title { fields[Field.title] = .string(title) }
        if let webpageURL { fields[Field.webpageURL] = .url(webpageURL) }
        fields[Field.teamID] = .string(teamID)
        if let persistentID { fields[Field.persistentID] = .string(persistentID) }
        if let targetContentID { fields[Field.targetContentID] = .string(targetContentID) }
        if let streamsEndpoint { fields[Field.streamsEndpoint] = .data(streamsEndpoint) }
        if let required = requiredUserInfoKeys { fields[Field.requiredUserInfoKeys] = .set(UserInfoSet(required.sorted().map { .string($0) })) }
        fields[Field.userInfo] = .dictionary(userInfo)
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
        func string(_ field: String) throws(PayloadError) -> String? {
            switch fields[field] {
            case nil: return nil
            case .string(let value)?: return value
            default: throw wrong(field, "a string")
            }
        }
        guard let type = try string(Field.activityType) else { throw wrong(Field.activityType, "a string") }
        guard case .dictionary(let userInfo)? = fields[Field.userInfo] else { throw wrong(Field.userInfo, "a dictionary") }
        self.init(activityType: type, userInfo: userInfo)
        title = try string(Field.title)
        teamID = try string(Field.teamID) ?? ""
        persistentID = try string(Field.persistentID)
        targetContentID = try string(Field.targetContentID)
        switch fields[Field.webpageURL] {
        case nil: break
        case .url(let url)?: webpageURL = url
        default: throw wrong(Field.webpageURL, "a URL")
        }
        switch fields[Field.streamsEndpoint] {
        case nil: break
        case .data(let data)?: streamsEndpoint = data
        default: throw wrong(Field.streamsEndpoint, "data")
        }
        if let value = fields[Field.requiredUserInfoKeys] {
            guard case .set(let set) = value else { throw wrong(Field.requiredUserInfoKeys, "a set of strings") }
            var result = Set<String>()
            for member in set {
                guard case .string(let key) = member else { throw wrong(Field.requiredUserInfoKeys, "a set of strings") }
                // invalidEnvelope: two members Swift's String equality merges (canonically
                // equivalent spellings, which NSSet keeps apart) would lose one silently.
                guard result.insert(key).inserted else {
                    throw PayloadError(.invalidEnvelope, "envelope field \(Field.requiredUserInfoKeys) holds two canonically equivalent spellings of \"\(key)\", which a Set<String> cannot keep apart",
                                       keyPath: PropertyListKeyPath([.key(Field.requiredUserInfoKeys)]))
                }
            }
            requiredUserInfoKeys = result
        }
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
