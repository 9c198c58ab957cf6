import ActivityContainer
public import FoundationEssentials
import KeyedArchive
import MPUserInfo
public import PropertyList
public import UserInfo

/// The forms a userInfo travels in inside the activity container
/// (Specs/payload.md, "Wire form").
public enum UserInfoWireForm: String, Sendable, Hashable, CaseIterable {
    /// Apple's "MP" MessagePack (mp-userinfo.md): what current devices send.
    case mp
    /// An NSKeyedArchiver archive of the dictionary, binary (keyed-archive.md): what older peers send.
    case keyedArchive

    /// The form of userInfo bytes: `MP` first means MP (Apple's own test),
    /// anything else a keyed archive.
    public static func detect(_ bytes: some Collection<UInt8>) -> UserInfoWireForm {
        MPUserInfoReader.hasMagic(bytes) ? .mp : .keyedArchive
    }

    /// The userInfo's bytes in this form, no deeper or larger, expanded,
    /// than a reader with `limits` reads (``WriterLimits``).
    ///
    /// - Throws: ``UserInfoError`` from the form's writer.
    public func encode(_ userInfo: UserInfoDictionary, limits: PropertyListLimits = .default) throws(UserInfoError) -> Data {
        switch self {
        case .mp: return try MPUserInfoWriter(limits: WriterLimits(limits)).write(userInfo)
        case .keyedArchive: return try KeyedArchiveWriter(limits: WriterLimits(limits)).write(.dictionary(userInfo))
        }
    }

    /// Reads userInfo bytes in whichever form they are, within `limits`.
    ///
    /// - Throws: ``UserInfoError``: the form's reader's, or
    ///   ``ErrorCode/notDictionary`` for an archive whose root is not a dictionary.
    public static func decode(_ bytes: Data, limits: PropertyListLimits) throws(UserInfoError) -> (userInfo: UserInfoDictionary, form: UserInfoWireForm) {
        switch detect(bytes) {
        case .mp:
            return (try MPUserInfoReader(limits: limits).read(bytes), .mp)
        case .keyedArchive:
            let value = try KeyedArchiveReader(limits: limits).read(bytes)
            // notDictionary: Apple archives a userInfo dictionary.
            guard case .dictionary(let dictionary) = value else {
                throw UserInfoError(.notDictionary, "the archived userInfo is a \(value.typeName), not a dictionary")
            }
            return (dictionary, .keyedArchive)
        }
    }
}
