public import ActivityContainer
public import FoundationEssentials
import KeyedArchive
import MPUserInfo
public import PropertyList
public import UserInfo

/// The forms a userInfo travels in inside the activity container
/// (Specs/payload.md, "Wire form"): not a format of its own, but the
/// payload's choice between two, told apart by ``DocumentFormat/detect(_:among:after:)``.
public enum UserInfoWireForm: String, Sendable, Hashable, CaseIterable {
    /// Apple's "MP" MessagePack (mp-userinfo.md, ``DocumentFormat/mpUserInfo``): what current devices send.
    case mp
    /// An NSKeyedArchiver archive of the dictionary, a binary property list (keyed-archive.md): what older peers send.
    case keyedArchive

    /// The userInfo's bytes in this form, within `limits`.
    ///
    /// - Throws: ``UserInfoError`` from the form's writer.
    public func encode(_ userInfo: UserInfoDictionary, limits: WriterLimits = .default) throws(UserInfoError) -> Data {
        switch self {
        case .mp: return try MPUserInfoWriter(limits: limits).write(userInfo)
        case .keyedArchive: return try KeyedArchiveWriter(limits: limits).write(.dictionary(userInfo))
        }
    }

    /// Reads userInfo bytes in whichever form they are, within `limits`: an
    /// MP userInfo when ``DocumentFormat/detect(_:among:after:)`` says so
    /// (`MP` first, as Apple's reader tells them), a keyed archive otherwise.
    ///
    /// - Throws: ``UserInfoError``: the form's reader's, or
    ///   ``ErrorCode/notDictionary`` for an archive whose root is not a dictionary.
    public static func decode(_ bytes: Data, limits: PropertyListLimits) throws(UserInfoError) -> (userInfo: UserInfoDictionary, form: UserInfoWireForm) {
        if DocumentFormat.detect(bytes) == .mpUserInfo {
            return (try MPUserInfoReader(limits: limits).read(bytes), .mp)
        }
        let value = try KeyedArchiveReader(limits: limits).read(bytes)
        // notDictionary: Apple archives a userInfo dictionary.
        guard case .dictionary(let dictionary) = value else {
            throw UserInfoError(.notDictionary, "the archived userInfo is a \(value.typeName), not a dictionary")
        }
        return (dictionary, .keyedArchive)
    }

    /// payloadLimits, proven from the size alone: bytes of this form `count`
    /// long cannot exceed any bound of `limits` (Specs/payload.md,
    /// "payloadLimits"). Only MP is so proven (``MPUserInfoReader``'s
    /// `withinLimits`); a keyed archive is read to be sure.
    package func readsWithinLimits(byteCount count: Int, _ limits: PropertyListLimits) -> Bool {
        self == .mp && MPUserInfoReader.withinLimits(byteCount: count, limits)
    }

    /// The userInfo's size in this form and, for every dictionary entry, the
    /// bytes that removing it saves (Specs/payload.md, "Cost report"): MP
    /// shares nothing (`MPCostAttribution`); a keyed archive is measured on
    /// its binary property list's object graph (`CostAttribution`).
    ///
    /// - Throws: ``UserInfoError`` of the form's writer.
    package func costs(of userInfo: UserInfoDictionary) throws(UserInfoError) -> (total: Int, entries: [EntryCost]) {
        switch self {
        case .mp:
            do throws(PropertyListError) { return try MPCostAttribution.costs(of: userInfo) } catch { throw UserInfoError(error) }
        case .keyedArchive:
            return try CostAttribution.costs(of: userInfo)
        }
    }

    /// One dictionary entry's cost: its key path and the bytes removing it saves.
    package typealias EntryCost = (keyPath: PropertyListKeyPath, bytes: Int)
}

/// The activity container (Specs/activity-container.md), read and written
/// for the payload layer and the command line.
extension Document {
    /// Reads an activity container of at most `maxBytes`, compressed or inflated.
    ///
    /// - Throws: ``ActivityContainerError``, with the codes of Specs/activity-container.md.
    @inlinable
    public static func activityContainer(_ data: Data, maxBytes: Int) throws(ActivityContainerError) -> ActivityContainer {
        try ActivityContainerReader(maxBytes: maxBytes).read(data)
    }

    /// Reads an activity container of at most `maxBytes`, and where each part lay.
    ///
    /// - Throws: ``ActivityContainerError``.
    @inlinable
    public static func inspectActivityContainer(_ data: Data, maxBytes: Int) throws(ActivityContainerError)
        -> (container: ActivityContainer, details: ActivityContainerDetails) {
        try ActivityContainerReader(maxBytes: maxBytes).inspect(data)
    }

    /// Writes an activity container, bzip2-compressed as Apple's sender does
    /// when `compressed`, else never.
    ///
    /// - Throws: ``ActivityContainerError``.
    @inlinable
    public static func write(_ container: ActivityContainer, compressed: Bool) throws(ActivityContainerError) -> Data {
        try ActivityContainerWriter(compression: compressed ? .apple : .never).write(container)
    }
}
