import ActivityContainer
public import DocumentFormats
public import FoundationEssentials
public import PropertyList
public import UserInfo

/// A payload that was encoded, with what the encoder noticed.
public struct EncodedPayload: Sendable {
    /// The wire form: an activity container (activity-container.md).
    public var data: Data
    /// The cost of the userInfo in it (per key path only when requested).
    public var cost: CostReport
}

/// A payload that was decoded, with the version it carried.
public struct DecodedPayload: Sendable {
    public var payload: ActivityPayload
    /// The form its userInfo travelled in.
    public var userInfoForm: UserInfoWireForm
    /// The version found in userInfo before migration (nil without versioning).
    public var foundVersion: PayloadVersion?
    /// The cost of the userInfo as it travelled (before migration and URL
    /// translation), when ``PayloadCodec/reportsCostPerKeyPath`` is set; else nil.
    public var cost: CostReport?
}

/// Encodes and decodes Handoff payloads with every payload rule applied:
/// activity checks, versioning, URL translation, size budget and decode limits.
/// The wire form is Apple's activity container, with the userInfo as MP or
/// as a keyed archive. It is the only path to and from the wire (Specs/payload.md).
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
    /// The form the userInfo is written in (``UserInfoWireForm/mp`` by default;
    /// decoding reads both).
    public var userInfoForm: UserInfoWireForm
    /// Whether the container is compressed as Apple's sender does (default) or never.
    public var compresses: Bool = true
    /// Whether encode and decode compute the cost of every key path (one
    /// re-encoding per key path; off by default: the total is always known).
    public var reportsCostPerKeyPath: Bool = false

    public init(layout: ContainerLayout? = nil, policy: URLPolicy = URLPolicy(), versioning: PayloadVersioning? = nil,
                budget: SizeBudget = SizeBudget(), limits: PropertyListLimits = .payload, userInfoForm: UserInfoWireForm = .mp) {
        (self.layout, self.policy, self.versioning, self.budget, self.limits, self.userInfoForm) = (layout, policy, versioning, budget, limits, userInfoForm)
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

    /// Validates, stamps the version, translates file URLs, encodes the
    /// userInfo, checks the budget, and writes the container.
    public func encode(_ payload: ActivityPayload) throws(PayloadError) -> EncodedPayload {
        try validate()
        try payload.validate()
        var outgoing = payload
        if let versioning { outgoing.userInfo = versioning.stamp(outgoing.userInfo) }
        let translator = URLTranslator(policy: policy)
        outgoing.userInfo = try translator.outgoing(userInfo: outgoing.userInfo, fromValidated: layout)
        let userInfoBytes = try Self.encodeUserInfo(outgoing.userInfo, as: userInfoForm, limits: limits)
        return try send(outgoing, userInfoBytes: userInfoBytes)
    }

    /// From the userInfo's bytes on: `payloadLimits`, the cost and the
    /// budget, the container and its read-back.
    func send(_ outgoing: ActivityPayload, userInfoBytes: Data) throws(PayloadError) -> EncodedPayload {
        // payloadLimits: what is sent is what this codec's own decode accepts
        // (every bound of `limits`, not only the writer's depth and size): MP
        // too small to reach any of them needs no decoding (Specs/payload.md).
        if !userInfoForm.readsWithinLimits(byteCount: userInfoBytes.count, limits) {
            do {
                _ = try UserInfoWireForm.decode(userInfoBytes, limits: limits)
            } catch {
                throw PayloadError(encoding: error)
            }
        }
        let cost = try Self.cost(of: outgoing.userInfo, form: userInfoForm, budget: budget, perKeyPath: reportsCostPerKeyPath,
                                 total: userInfoBytes.count)
        try budget.check(cost.total)
        let record = ActivityRecord(
            activityType: outgoing.activityType, teamID: outgoing.teamID, title: outgoing.title, userInfo: userInfoBytes,
            persistentID: outgoing.persistentID, targetContentID: outgoing.targetContentID,
            webpageURL: outgoing.webpageURL?.relative, streamsEndpoint: outgoing.streamsEndpoint)
        do {
            let data = try Document.write(.activity(record), compressed: compresses)
            _ = try Document.activityContainer(data, maxBytes: limits.maxInputBytes)
            return EncodedPayload(data: data, cost: cost)
        } catch {
            throw PayloadError(encoding: error)
        }
    }

    /// Reads the container within the payload limits, decodes its userInfo
    /// (MP or keyed archive), checks the activity and the version (migrating
    /// older ones), and resolves container references.
    public func decode(_ data: Data) throws(PayloadError) -> DecodedPayload {
        try validate()
        let container: ActivityContainer
        do {
            container = try Document.activityContainer(data, maxBytes: limits.maxInputBytes)
        } catch {
            throw PayloadError(error)
        }
        // errorPacket: the sender's activity failed; there is no activity to decode.
        guard case .activity(let record) = container else {
            guard case .errorPacket(let archive) = container else { preconditionFailure("a container is an activity or an error packet") }
            throw PayloadError(.errorPacket, "the container is an error packet (the sender could not send its activity), not an activity: "
                               + Document.errorSummary(archive))
        }
        let userInfoBytes = record.userInfo ?? Data()
        var userInfo: UserInfoDictionary = [:]
        var form = UserInfoWireForm.mp
        if record.userInfo != nil {
            do {
                (userInfo, form) = try UserInfoWireForm.decode(userInfoBytes, limits: limits)
            } catch {
                throw PayloadError(error)
            }
        }
        var payload = ActivityPayload(
            activityType: record.activityType, title: record.title, webpageURL: record.webpageURL.map { UserInfoURL(relative: $0) },
            userInfo: userInfo, teamID: record.teamID, persistentID: record.persistentID,
            targetContentID: record.targetContentID, streamsEndpoint: record.streamsEndpoint)
        try payload.validate()
        let cost = reportsCostPerKeyPath
            ? try Self.cost(of: payload.userInfo, form: form, budget: budget, perKeyPath: true, total: userInfoBytes.count) : nil
        var found: PayloadVersion?
        if let versioning {
            let checked = try versioning.check(payload.userInfo)
            payload.userInfo = checked.userInfo
            found = checked.found
        }
        payload.userInfo = try URLTranslator(policy: policy).incoming(userInfo: payload.userInfo, toValidated: layout)
        return DecodedPayload(payload: payload, userInfoForm: form, foundVersion: found, cost: cost)
    }

    /// The userInfo's bytes in `form`.
    static func encodeUserInfo(_ userInfo: UserInfoDictionary, as form: UserInfoWireForm,
                               limits: PropertyListLimits = .default) throws(PayloadError) -> Data {
        do {
            return try form.encode(userInfo, limits: WriterLimits(limits))
        } catch {
            throw PayloadError(encoding: error)
        }
    }

    /// The cost report of a userInfo: its encoded size in `form`, the warnings
    /// of the budget, and for every dictionary key path the bytes that
    /// removing it saves.
    public static func cost(of userInfo: UserInfoDictionary, form: UserInfoWireForm = .mp,
                            budget: SizeBudget = SizeBudget()) throws(PayloadError) -> CostReport {
        try cost(of: userInfo, form: form, budget: budget, perKeyPath: true, total: nil)
    }

    static func cost(of userInfo: UserInfoDictionary, form: UserInfoWireForm, budget: SizeBudget, perKeyPath: Bool,
                     total known: Int?) throws(PayloadError) -> CostReport {
        guard perKeyPath else {
            let total: Int
            if let known { total = known } else { total = try encodeUserInfo(userInfo, as: form).count }
            return CostReport(total: total, entries: [], warnings: budget.warnings(for: total))
        }
        let costs: (total: Int, entries: [UserInfoWireForm.EntryCost])
        do { costs = try form.costs(of: userInfo) } catch { throw PayloadError(error) }
        let total = known ?? costs.total
        var entries = costs.entries.map { CostReport.Entry(keyPath: $0.keyPath, bytes: $0.bytes) }
        entries.sort { ($0.bytes, $1.keyPath.description) > ($1.bytes, $0.keyPath.description) }
        return CostReport(total: total, entries: entries, warnings: budget.warnings(for: total))
    }
}
