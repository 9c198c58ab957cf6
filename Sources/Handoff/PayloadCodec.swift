public import FoundationEssentials
public import UserInfo
import KeyedArchive
public import DocumentFormats
public import PropertyList

/// The size budget of an encoded userInfo. See `Specs/payload.md`, "Size budget".
public struct SizeBudget: Sendable, Hashable {
    /// Above this many bytes the encoder warns. Default 3 KB (3,072), Apple's advice.
    public var softLimit: Int
    /// Above this many bytes encoding fails with ``ErrorCode/overBudget``; nil for none.
    public var hardLimit: Int?

    public init(softLimit: Int = 3072, hardLimit: Int? = nil) {
        (self.softLimit, self.hardLimit) = (softLimit, hardLimit)
    }

    /// Checks the budget itself: no negative limit.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/invalidBudget``.
    public func validate() throws(PayloadError) {
        // invalidBudget
        guard softLimit >= 0, (hardLimit ?? 0) >= 0 else {
            throw PayloadError(.invalidBudget, "a size budget's limits are not negative (soft \(softLimit), hard \(hardLimit.map(String.init) ?? "none"))")
        }
    }

    /// Checks an encoded userInfo's size against the hard limit: the one place
    /// the budget is enforced (``PayloadCodec/encode(_:)``, `plistkit payload check`).
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/overBudget``.
    public func check(_ size: Int) throws(PayloadError) {
        // overBudget(size:limit:)
        if let hardLimit, size > hardLimit {
            throw PayloadError(.overBudget, "overBudget(size: \(size), limit: \(hardLimit))")
        }
    }

    /// The warnings for a size: one when it is over the soft limit.
    public func warnings(for size: Int) -> [String] {
        size > softLimit ? ["userInfo is \(size) bytes, over the advised \(softLimit)"] : []
    }
}

/// What a userInfo costs, from its real encoded form.
public struct CostReport: Sendable, Hashable {
    /// One key path and the bytes removing it saves.
    public struct Entry: Sendable, Hashable {
        public var keyPath: PropertyListKeyPath
        public var bytes: Int
    }

    /// Bytes of the encoded userInfo (keyed archive, binary).
    public var total: Int
    /// Every dictionary key path, largest cost first (ties in key-path order);
    /// empty unless requested (``PayloadCodec/reportsCostPerKeyPath``).
    public var entries: [Entry]
    /// Human warnings (over the soft limit).
    public var warnings: [String]
}

/// A payload that was encoded, with what the encoder noticed.
public struct EncodedPayload: Sendable {
    /// The wire form.
    public var data: Data
    /// The cost of the userInfo in it (per key path only when requested).
    public var cost: CostReport
}

/// A payload that was decoded, with the version it carried.
public struct DecodedPayload: Sendable {
    public var payload: ActivityPayload
    /// The version found in userInfo before migration (nil without versioning).
    public var foundVersion: PayloadVersion?
    /// The cost of the userInfo as it travelled (before migration and URL
    /// translation), when ``PayloadCodec/reportsCostPerKeyPath`` is set; else nil.
    public var cost: CostReport?
}

/// Encodes and decodes Handoff payloads with every payload rule applied:
/// envelope checks, versioning, URL translation, size budget and decode limits.
/// It is the only path to and from the wire (Specs/payload.md).
///
/// ```swift
/// var codec = PayloadCodec(layout: .macOS(home: "/Users/ada", containers: ["iCloud.com.example.App"]))
/// codec.versioning = PayloadVersioning(key: "com.example.app.version", current: PayloadVersion(2, 0))
/// let encoded = try codec.encode(payload)              // encoded.cost.warnings when over 3 KB
/// let decoded = try receiver.decode(encoded.data)      // file URLs now point into the receiver's container
/// ```
public struct PayloadCodec: Sendable {
    /// This device's synced containers: the sender's for encoding, the receiver's for decoding.
    public var layout: ContainerLayout?
    /// Which URL schemes may travel.
    public var policy: URLPolicy
    /// The app's versioning key, if it uses one.
    public var versioning: PayloadVersioning?
    /// The size budget for the encoded userInfo.
    public var budget: SizeBudget
    /// Decode limits (``PropertyListLimits/payload`` by default).
    public var limits: PropertyListLimits
    /// The property-list format written.
    public var format: PropertyListFormat
    /// Whether encode and decode compute the cost of every key path (one
    /// re-encoding per key path; off by default: the total is always known).
    public var reportsCostPerKeyPath: Bool = false

    public init(layout: ContainerLayout? = nil, policy: URLPolicy = URLPolicy(), versioning: PayloadVersioning? = nil,
                budget: SizeBudget = SizeBudget(), limits: PropertyListLimits = .payload, format: PropertyListFormat = .binary) {
        (self.layout, self.policy, self.versioning, self.budget, self.limits, self.format) = (layout, policy, versioning, budget, limits, format)
    }

    /// Checks the configuration before any byte is read or written
    /// (Specs/payload.md, "Configuration").
    ///
    /// - Throws: ``PayloadError`` with ``ErrorCode/invalidLayout``,
    ///   ``ErrorCode/invalidVersioning``, ``ErrorCode/invalidBudget``
    ///   or ``ErrorCode/invalidLimits``.
    public func validate() throws(PayloadError) {
        try layout?.validate()
        try versioning?.validate()
        try budget.validate()
        do {
            try limits.validate()
        } catch {
            throw PayloadError(.invalidLimits, error.reason)
        }
    }

    /// Validates, stamps the version, translates file URLs, checks the budget, and archives.
    public func encode(_ payload: ActivityPayload) throws(PayloadError) -> EncodedPayload {
        try validate()
        try payload.validate()
        var outgoing = payload
        if let versioning { outgoing.userInfo = versioning.stamp(outgoing.userInfo) }
        let translator = URLTranslator(policy: policy)
        outgoing.userInfo = try translator.outgoing(userInfo: outgoing.userInfo, from: layout)
        let cost = try Self.cost(of: outgoing.userInfo, budget: budget, perKeyPath: reportsCostPerKeyPath)
        try budget.check(cost.total)
        do {
            return EncodedPayload(data: try UserInfoCodec().encode(outgoing.envelope, format: format), cost: cost)
        } catch {
            throw PayloadError(error)
        }
    }

    /// Unarchives within the payload limits, checks the envelope, required keys and
    /// version (migrating older ones), and resolves container references.
    public func decode(_ data: Data) throws(PayloadError) -> DecodedPayload {
        try validate()
        let envelope: UserInfoValue
        do throws(UserInfoError) {
            let (value, profile) = try UserInfoCodec(limits: limits).decodeDetectingProfile(data)
            guard profile == .keyedArchive else {
                throw UserInfoError(.missingArchiveKey, "a payload is a keyed archive, not a plain property list")
            }
            envelope = value
        } catch {
            throw PayloadError(error)
        }
        var payload = try ActivityPayload(envelope: envelope)
        try payload.validate()
        let cost = reportsCostPerKeyPath ? try Self.cost(of: payload.userInfo, budget: budget, perKeyPath: true) : nil
        var found: PayloadVersion?
        if let versioning {
            let checked = try versioning.check(payload.userInfo)
            payload.userInfo = checked.userInfo
            found = checked.found
        }
        payload.userInfo = try URLTranslator(policy: policy).incoming(userInfo: payload.userInfo, to: layout)
        return DecodedPayload(payload: payload, foundVersion: found, cost: cost)
    }

    /// The cost report of a userInfo: its encoded size, the warnings of the
    /// budget, and for every dictionary key path the bytes that removing it
    /// saves (measured by re-encoding).
    public static func cost(of userInfo: UserInfoDictionary, budget: SizeBudget = SizeBudget()) throws(PayloadError) -> CostReport {
        try cost(of: userInfo, budget: budget, perKeyPath: true)
    }

    static func cost(of userInfo: UserInfoDictionary, budget: SizeBudget, perKeyPath: Bool) throws(PayloadError) -> CostReport {
        guard perKeyPath else {
            let total: Int
            do { total = try KeyedArchiveWriter().write(.dictionary(userInfo)).count } catch { throw PayloadError(error) }
            return CostReport(total: total, entries: [], warnings: budget.warnings(for: total))
        }
        var (total, entries) = try CostAttribution.costs(of: userInfo)
        entries.sort { ($0.bytes, $1.keyPath.description) > ($1.bytes, $0.keyPath.description) }
        return CostReport(total: total, entries: entries, warnings: budget.warnings(for: total))
    }
}
