import FoundationEssentials
public import UserInfo
public import PropertyList

/// A document-based app's activity (Specs/payload.md, "Document
/// activities"): the document's file URL in userInfo under
/// `NSUserActivityDocumentURL`, as `NSDocument` and `UIDocument` put it, with
/// the activity type the document's type declares.
///
/// ```swift
/// let activity = DocumentActivity(activityType: "com.example.planner.document",
///                                 documentURL: UserInfoURL(relative: "file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan"))
/// let sent = try macCodec.encode(try activity.payload())
/// let opened = try DocumentActivity(reading: try phoneCodec.decode(sent.data).payload)
/// opened.documentURL   // the same document in the iPhone's container
/// ```
public struct DocumentActivity: Sendable, Hashable {
    /// `NSUserActivityDocumentURLKey`'s string value.
    public static let documentURLKey = "NSUserActivityDocumentURL"

    /// The activity type (the document type's `NSUbiquitousDocumentUserActivityType`).
    public var activityType: String
    /// The document: a `file:` URL (in a synced container, to travel).
    public var documentURL: UserInfoURL
    /// The app's own userInfo keys, beside the document's.
    public var userInfo: UserInfoDictionary

    public init(activityType: String, documentURL: UserInfoURL, userInfo: UserInfoDictionary = [:]) {
        self.activityType = activityType
        self.documentURL = documentURL
        self.userInfo = userInfo
    }

    /// The payload to encode: the app's userInfo with the document's URL under ``documentURLKey``.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/documentKeyInUse`` when the
    ///   app's userInfo has the key already; ``ErrorCode/documentNotFileURL``
    ///   when the URL is not a `file:` URL.
    public func payload(title: String? = nil, teamID: String = "") throws(PayloadError) -> ActivityPayload {
        // documentKeyInUse: the key is the document's.
        guard userInfo[Self.documentURLKey] == nil else {
            throw PayloadError(.documentKeyInUse, "the app's userInfo already has the key \(Self.documentURLKey), which holds the document's URL")
        }
        try Self.checkFileURL(documentURL)
        var entries = userInfo
        entries[Self.documentURLKey] = .url(documentURL)
        return ActivityPayload(activityType: activityType, title: title, userInfo: entries, teamID: teamID)
    }

    /// Reads a document activity from a decoded payload: the URL under
    /// ``documentURLKey`` (translated into the receiver's container by the
    /// decode), the other keys as ``userInfo``.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/missingDocumentURL``,
    ///   ``ErrorCode/documentURLNotURL``, ``ErrorCode/documentNotFileURL``.
    public init(reading payload: ActivityPayload) throws(PayloadError) {
        // missingDocumentURL
        guard let value = payload.userInfo[Self.documentURLKey] else {
            throw PayloadError(.missingDocumentURL, "userInfo has no \(Self.documentURLKey): not a document activity")
        }
        // documentURLNotURL: the key holds an NSURL.
        guard case .url(let url) = value else {
            throw PayloadError(.documentURLNotURL, "\(Self.documentURLKey) holds a \(value.typeName) value, not a URL")
        }
        // documentNotFileURL: after translation, only a container reference became a file URL.
        try Self.checkFileURL(url)
        var others = payload.userInfo
        others[Self.documentURLKey] = nil
        self.init(activityType: payload.activityType, documentURL: url, userInfo: others)
    }

    /// The document's file name extension (after the last `.` of its last
    /// path component, percent-decoded), empty when it has none.
    public var pathExtension: String { documentURL.url?.pathExtension ?? "" }

    /// Whether a payload carries a document (its userInfo has ``documentURLKey``).
    public static func isDocumentActivity(_ payload: ActivityPayload) -> Bool { payload.userInfo[documentURLKey] != nil }

    private static func checkFileURL(_ url: UserInfoURL) throws(PayloadError) {
        // documentNotFileURL
        guard FileURLGrammar.resolvedScheme(url)?.lowercased() == "file" else {
            throw PayloadError(.documentNotFileURL, "the document URL \"\(url.relative)\" is not a file URL (a document in a synced container)")
        }
    }
}
