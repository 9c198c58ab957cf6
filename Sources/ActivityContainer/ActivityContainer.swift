public import FoundationEssentials

/// What one Apple device sends another for a Handoff activity: the activity
/// container of UserActivity.framework (Specs/activity-container.md). Either
/// an activity, with its five fields, or an error packet.
public enum ActivityContainer: Sendable, Hashable {
    /// An activity (header `0x1`, or `0x101` when the fields are bzip2-compressed).
    case activity(ActivityRecord)
    /// An error packet (header `0xF`): one field, a secure keyed archive of an `NSError`.
    case errorPacket(Data)
}

/// The fields of an activity container, in their order on the wire. Absent
/// fields are nil; a present field is never empty (the container writes an
/// absent field as length 0, so it cannot carry an empty one).
public struct ActivityRecord: Sendable, Hashable {
    /// Field 1: the activity's title (UTF-8).
    public var title: String?
    /// Field 2: the userInfo bytes, MP (mp-userinfo.md) or a keyed archive, undecoded.
    public var userInfo: Data?
    /// Field 3, `teamID`: the sender's team identifier (`""` for none).
    public var teamID: String
    /// Field 3, `type`: the activity type.
    public var activityType: String
    /// Field 3, `persistentID`, when set.
    public var persistentID: String?
    /// Field 3, `targetContentID` (`targetContentIdentifier`), when set.
    public var targetContentID: String?
    /// Field 4: the web page URL's absolute string (http or https).
    public var webpageURL: String?
    /// Field 5: the continuation-streams endpoint data, opaque.
    public var streamsEndpoint: Data?

    /// Creates a record.
    public init(activityType: String, teamID: String = "", title: String? = nil, userInfo: Data? = nil,
                persistentID: String? = nil, targetContentID: String? = nil, webpageURL: String? = nil,
                streamsEndpoint: Data? = nil) {
        self.activityType = activityType
        self.teamID = teamID
        self.title = title
        self.userInfo = userInfo
        self.persistentID = persistentID
        self.targetContentID = targetContentID
        self.webpageURL = webpageURL
        self.streamsEndpoint = streamsEndpoint
    }

    /// True when `string` is an absolute `http` or `https` URL with a host,
    /// the scheme compared case-insensitively as Apple's setter does
    /// (``ErrorCode/invalidWebpageURL`` otherwise).
    public static func isValidWebpageURL(_ string: String) -> Bool {
        guard let url = URL(string: string, encodingInvalidCharacters: false),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else { return false }
        return true
    }
}

/// The container's wire constants (Specs/activity-container.md, "Layout").
public enum ActivityContainerLayout {
    /// Header of an activity.
    public static let activityHeader: UInt32 = 0x1
    /// Header of an activity whose fields are bzip2-compressed.
    public static let compressedActivityHeader: UInt32 = 0x101
    /// Header of an error packet.
    public static let errorHeader: UInt32 = 0xF
    /// The bit that marks compressed fields.
    public static let compressedBit: UInt32 = 0x100
    /// The tag of a present field's word; the low 24 bits are its length.
    public static let presentTag: UInt32 = 0x0100_0000
    /// The longest field a word can frame.
    public static let maxFieldBytes = 0xFF_FFFF
    /// Packets of at least this many bytes are offered to bzip2 (observed).
    public static let compressionThreshold = 2049
    /// The names of an activity's fields, in order (their key paths in errors).
    public static let activityFieldNames = ["title", "userInfo", "info", "webpageURL", "streams"]
    /// The keys of the JSON field, in the order the writer puts them.
    public static let infoKeys = ["teamID", "type", "persistentID", "targetContentID"]
}

/// Where each part of a container lies, for `plistkit print` and for tests:
/// what ``ActivityContainerReader/inspect(_:)`` reports beside the container.
public struct ActivityContainerDetails: Sendable, Hashable {
    /// One field: its number (1-based), name, and where its bytes lie in the
    /// (inflated) packet; nil range for an absent field.
    public struct Field: Sendable, Hashable {
        public var number: Int
        public var name: String
        public var range: Range<Int>?
    }

    /// The u32 header as read.
    public var header: UInt32
    /// Whether the fields were bzip2-compressed, and the compressed stream's bytes.
    public var compressedBytes: Int?
    /// The packet's bytes after inflating (equal to the input's when not compressed).
    public var inflatedBytes: Int
    /// The fields in order.
    public var fields: [Field]
}
