public import UserInfo
public import ActivityContainer
@_spi(ByteKit) public import PropertyList

/// The error of the payload layer: the envelope, URL translation,
/// versioning and budgets. It names the rule (``code``), says why
/// (``reason``) and where in the userInfo (``keyPath``); when the bytes
/// themselves were bad, ``underlying`` holds the lower layer's error (the
/// container's, or the userInfo decoder's).
/// Equality compares codes. See `Specs/payload.md`.
public struct PayloadError: CodecError {
    /// Which rule was broken (``ErrorCode``; the name is kept for source compatibility).
    public typealias Code = ErrorCode

    public var code: ErrorCode
    public var reason: String
    public var keyPath: PropertyListKeyPath
    public var underlying: (any CodecError)?

    public init(_ code: ErrorCode, _ reason: String, keyPath: PropertyListKeyPath = .root, underlying: (any CodecError)? = nil) {
        self.code = code
        self.reason = reason
        self.keyPath = keyPath
        self.underlying = underlying
    }

    /// Wraps an error of the userInfo layer (``ErrorCode/malformedPayload``).
    public init(_ error: UserInfoError) {
        self.init(.malformedPayload, error.description, keyPath: error.keyPath, underlying: error)
    }

    /// A userInfo the payload's own limits refuse while it is encoded: the
    /// rule the writer or the read-back broke keeps its code
    /// (``ErrorCode/stringLimitExceeded``, ``ErrorCode/depthLimitExceeded``, …).
    public init(encoding error: UserInfoError) {
        // A keyed archive's own property-list error names the rule underneath.
        let code = error.code == .propertyList ? error.underlyingError?.code ?? error.code : error.code
        self.init(code, error.description, keyPath: error.keyPath, underlying: error)
    }

    /// A container the payload's own limits refuse while it is encoded (its code kept).
    public init(encoding error: ActivityContainerError) {
        self.init(error.code, "container: \(error.description)", underlying: error)
    }

    /// Wraps an error of the activity container (``ErrorCode/malformedPayload``).
    public init(_ error: ActivityContainerError) {
        self.init(.malformedPayload, "container: \(error.description)", underlying: error)
    }

    /// Where in the input: the wrapped error's place, if any.
    public var location: ErrorLocation { underlying?.location ?? .unknown }

    public var underlyingError: (any CodecError)? { underlying }

    public var description: String {
        keyPath.isRoot || underlying != nil ? reason : "\(reason) (key path \(keyPath))"
    }
}

extension ErrorCode {
    // Configuration (Specs/payload.md, "Configuration")
    /// A layout's root is not a normalised absolute path, or a container identifier is invalid.
    public static let invalidLayout = Self("invalidLayout")
    /// The versioning configuration is unusable (empty key, negative version, migrations).
    public static let invalidVersioning = Self("invalidVersioning")
    /// A size budget's limit is negative.
    public static let invalidBudget = Self("invalidBudget")

    // Envelope (Specs/payload.md, "Envelope")
    /// The bytes are not a valid activity container, or its userInfo is not valid MP or a
    /// valid keyed archive of userInfo values; see ``PayloadError/underlying``.
    public static let malformedPayload = Self("malformedPayload")
    /// The container is an error packet (the sender's activity failed), not an activity.
    public static let errorPacket = Self("errorPacket")
    /// The envelope is not a dictionary of the documented fields, or a field has the wrong type.
    public static let invalidEnvelope = Self("invalidEnvelope")
    /// `activityType` is empty or not reverse-DNS characters.
    public static let invalidActivityType = Self("invalidActivityType")
    /// Keys listed in `requiredUserInfoKeys` are missing from `userInfo`.
    public static let missingRequiredKeys = Self("missingRequiredKeys")

    // URL translation (Specs/url-translation.md)
    /// A file URL outside every synced container of the sender's layout.
    public static let fileOutsideContainer = Self("fileOutsideContainer")
    /// A path that leaves its container after decoding and normalisation.
    public static let pathEscapesContainer = Self("pathEscapesContainer")
    /// A container reference naming a container the receiver does not have.
    public static let unknownContainer = Self("unknownContainer")
    /// A malformed container reference (bad identifier, encoding, component, length).
    public static let invalidContainerReference = Self("invalidContainerReference")
    /// A raw `file:` URL arriving from the sender.
    public static let rawFileURL = Self("rawFileURL")
    /// A URL whose scheme the policy does not allow (`javascript:`, `data:`, …).
    public static let schemeNotAllowed = Self("schemeNotAllowed")

    // Versioning (Specs/versioning.md)
    /// The version key is absent and no version is assumed.
    public static let missingVersion = Self("missingVersion")
    /// The version value is not a `major.minor` string.
    public static let invalidVersion = Self("invalidVersion")
    /// The payload's major version is newer than the receiver supports.
    public static let unsupportedVersion = Self("unsupportedVersion")
    /// No registered migration leads from the payload's version to the current one.
    public static let noMigrationPath = Self("noMigrationPath")
    /// A migration step failed; the reason names the step.
    public static let migrationFailed = Self("migrationFailed")

    // The receiving app (Specs/payload.md, "The receiving app")
    /// An Info.plist whose Handoff declarations are not of the shapes Xcode writes.
    public static let malformedDeclarations = Self("malformedDeclarations")
    /// An activity type the receiving app does not declare.
    public static let undeclaredActivityType = Self("undeclaredActivityType")
    /// The sender's team ID is not the receiving app's.
    public static let teamMismatch = Self("teamMismatch")
    /// An Info.plist that declares no activity type.
    public static let missingActivityTypes = Self("missingActivityTypes")
    /// An activity type declared twice in `NSUserActivityTypes`.
    public static let duplicateActivityType = Self("duplicateActivityType")

    // Document activities (Specs/payload.md, "Document activities")
    /// Building a document activity whose userInfo already has `NSUserActivityDocumentURL`.
    public static let documentKeyInUse = Self("documentKeyInUse")
    /// A document URL that is not a `file:` URL (after translation, when reading).
    public static let documentNotFileURL = Self("documentNotFileURL")
    /// A document activity's userInfo without `NSUserActivityDocumentURL`.
    public static let missingDocumentURL = Self("missingDocumentURL")
    /// `NSUserActivityDocumentURL` holding something other than a URL.
    public static let documentURLNotURL = Self("documentURLNotURL")
    /// A document whose extension matches no document type of the app.
    public static let undeclaredDocumentType = Self("undeclaredDocumentType")
    /// A document whose document types declare another activity type, or none.
    public static let documentActivityMismatch = Self("documentActivityMismatch")
    /// A document type's content type that neither the app nor the system declares.
    public static let undeclaredContentType = Self("undeclaredContentType")

    // Budgets (Specs/payload.md, "Size budget")
    /// The encoded userInfo is larger than the hard limit.
    public static let overBudget = Self("overBudget")
}

@_spi(ByteKit) extension PayloadError: WalkFailure {
    /// The walk's refusal (Specs/architecture.md, "One bounded walk").
    public init(walking error: PropertyListError) { self.init(UserInfoError(error)) }
}
