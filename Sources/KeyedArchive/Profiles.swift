public import PropertyList
public import UserInfo
import FoundationEssentials

/// How a userInfo is laid out in a property list (Specs/keyed-archive.md, "Profiles").
public enum UserInfoProfile: String, Sendable, Hashable, CaseIterable {
    /// An NSKeyedArchiver archive: all ten types, the form Apple's system uses.
    case keyedArchive
    /// A plain property list: only the plist-native types (array, data, date,
    /// dictionary, number, string); null, set, UUID and URL are refused.
    case plain

    /// The profile of a property list: a top-level dictionary with `$archiver`
    /// is a keyed archive, anything else is plain.
    public static func of(_ plist: PropertyListValue) -> UserInfoProfile {
        plist.dictionaryValue?[Field.archiver] != nil ? .keyedArchive : .plain
    }

    /// The property list of `value` in this profile.
    ///
    /// - Throws: ``UserInfoError``; in the plain profile ``ErrorCode/notPlistNative``
    ///   names the key path of a null, set, UUID or URL.
    public func propertyList(from value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        switch self {
        case .keyedArchive: return try KeyedArchiveWriter().archive(value)
        case .plain: return try PlainProfile.propertyList(from: value)
        }
    }

    /// The userInfo value of a property list in this profile.
    ///
    /// - Parameters:
    ///   - plist: the property list, an archive or a plain userInfo.
    ///   - limits: the bounds the reading keeps to.
    ///   - inputBytes: the size of the bytes the property list was read
    ///     from, which sets the expansion budget of an archive (nil: only
    ///     `limits.maxExpandedBytes`).
    public func userInfo(from plist: PropertyListValue, limits: PropertyListLimits = .default,
                         inputBytes: Int? = nil) throws(UserInfoError) -> UserInfoValue {
        switch self {
        case .keyedArchive: return try KeyedArchiveReader(limits: limits).unarchive(plist, inputBytes: inputBytes)
        case .plain: return try PlainProfile.userInfo(from: plist)
        }
    }
}

/// The plain profile: userInfo values as plist-native values and back
/// (Specs/keyed-archive.md, "Profiles"). Both directions walk the value with
/// an explicit stack (Specs/architecture.md, "One stack policy").
public enum PlainProfile {
    /// The property list of a userInfo value made of plist-native types only.
    ///
    /// - Throws: ``ErrorCode/reservedKey`` for a top-level `$archiver` key,
    ///   ``ErrorCode/notPlistNative`` for a null, set, UUID or URL,
    ///   ``ErrorCode/invalidDate`` for a date no property list can hold.
    public static func propertyList(from value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        // reservedKey: a plain top-level dictionary with "$archiver" would read back as an archive.
        if case .dictionary(let dictionary) = value, dictionary[Field.archiver] != nil {
            throw UserInfoError(.reservedKey, "a plain userInfo cannot have the top-level key \"$archiver\" (it would read back as a keyed archive)",
                                keyPath: PropertyListKeyPath([.key(Field.archiver)]))
        }
        var walk = TreeConversion<UserInfoValue, PropertyListValue>()
        return try walk.run(value) { (value: UserInfoValue) throws(UserInfoError) -> PropertyListValue in
            switch value {
            case .date(let date) where !PropertyListValue.isValidDate(date.timeIntervalSinceReferenceDate):
                throw UserInfoError(.invalidDate, "date is \(date.timeIntervalSinceReferenceDate)")
            case .null, .set, .uuid, .url:
                // notPlistNative: these four need the keyed-archive profile.
                throw UserInfoError(.notPlistNative, "a \(value.typeName) cannot be written in the plain profile; use the keyed-archive profile")
            default: return value.propertyListScalar!
            }
        } array: { (elements) throws(UserInfoError) in .array(elements) } dictionary: { (keys, values) throws(UserInfoError) in
            var result = PropertyListDictionary(minimumCapacity: keys.count)
            for (key, member) in zip(keys, values) { result[key] = member }
            return .dictionary(result)
        }
    }

    /// The userInfo value of a plain property list.
    ///
    /// - Throws: ``ErrorCode/notUserInfoType`` for a UID or the binary null.
    public static func userInfo(from plist: PropertyListValue) throws(UserInfoError) -> UserInfoValue {
        var walk = TreeConversion<PropertyListValue, UserInfoValue>()
        return try walk.run(plist) { (plist: PropertyListValue) throws(UserInfoError) -> UserInfoValue in
            switch plist {
            case .uid, .null:
                // notUserInfoType: a UID or the binary null is no userInfo value in a plain property list.
                throw UserInfoError(.notUserInfoType, "a \(plist.typeName) is not a userInfo value in a plain property list")
            default: return UserInfoValue(propertyListScalar: plist)!
            }
        } array: { (elements) throws(UserInfoError) in .array(elements) } dictionary: { (keys, values) throws(UserInfoError) in
            var result = UserInfoDictionary(minimumCapacity: keys.count)
            for (key, member) in zip(keys, values) { result[key] = member }
            return .dictionary(result)
        }
    }
}
