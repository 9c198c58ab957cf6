public import FoundationEssentials
public import KeyedArchive
public import PropertyList
public import UserInfo

/// Encodes and decodes userInfo values in either profile and either
/// property-list format, detecting both from the bytes when decoding.
/// See `Specs/keyed-archive.md`, "Profiles".
///
/// ```swift
/// let codec = UserInfoCodec()
/// let bytes = try codec.encode(["page": 3, "doc": .uuid(id)])          // keyed archive, binary
/// let (value, profile) = try codec.decodeDetectingProfile(bytes)
/// ```
public struct UserInfoCodec: Sendable {
    /// Bounds applied when decoding.
    public var limits: PropertyListLimits

    /// Creates a codec.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Encodes `value` in `profile` as a property list in `format`, binary or XML.
    ///
    /// - Throws: ``UserInfoError``; in the plain profile ``ErrorCode/notPlistNative``
    ///   names the key path of a null, set, UUID or URL.
    public func encode(_ value: UserInfoValue, profile: UserInfoProfile = .keyedArchive,
                       format: DocumentFormat = .binary) throws(UserInfoError) -> Data {
        // unrepresentableValue: a userInfo travels as a binary or an XML property list.
        guard format == .binary || format == .xml else {
            throw UserInfoError(.unrepresentableValue, "a userInfo is encoded as a binary or XML property list, not as \(format)")
        }
        // An archive's own property list nests four deep, whatever the userInfo's depth.
        if profile == .keyedArchive { return Data(try Document.archiveBytes(value, as: format)) }
        let plist = try profile.propertyList(from: value)
        do throws(PropertyListError) {
            return try Document.write(plist, as: format)
        } catch {
            throw UserInfoError(error)
        }
    }

    /// Decodes bytes in either format and either profile.
    public func decode(_ data: Data) throws(UserInfoError) -> UserInfoValue {
        try decodeDetectingProfile(data).value
    }

    /// Decodes bytes and reports which profile they were in: a top-level
    /// dictionary with `$archiver` is a keyed archive, anything else is plain.
    public func decodeDetectingProfile(_ data: Data) throws(UserInfoError) -> (value: UserInfoValue, profile: UserInfoProfile) {
        let plist: PropertyListValue
        do throws(PropertyListError) {
            plist = try Document.read(any: data, limits: limits)
        } catch {
            throw UserInfoError(error)
        }
        let profile = UserInfoProfile.of(plist)
        return (try profile.userInfo(from: plist, limits: limits, inputBytes: data.count), profile)
    }
}
