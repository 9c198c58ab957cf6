public import FoundationEssentials
public import PropertyList
import PropertyListXML

/// How a userInfo is laid out in a property list.
public enum UserInfoProfile: String, Sendable, Hashable, CaseIterable {
    /// An NSKeyedArchiver archive: all ten types, the form Apple's system uses.
    case keyedArchive
    /// A plain property list: only the plist-native types (array, data, date,
    /// dictionary, number, string); null, set, UUID and URL are refused.
    case plain
}

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

    /// Encodes `value` in `profile` as a property list in `format`.
    ///
    /// - Throws: ``UserInfoError``; in the plain profile
    ///   ``UserInfoError/Code/notPlistNative`` names the key path of a null, set,
    ///   UUID or URL.
    public func encode(_ value: UserInfoValue, profile: UserInfoProfile = .keyedArchive,
                       format: PropertyListFormat = .binary) throws(UserInfoError) -> Data {
        let plist: PropertyListValue
        switch profile {
        case .keyedArchive: plist = try KeyedArchiveWriter().archive(value)
        case .plain: plist = try PlainProfile.propertyList(from: value)
        }
        return try PropertyListCodec.encode(plist, format: format)
    }

    /// Decodes bytes in either format and either profile.
    public func decode(_ data: Data) throws(UserInfoError) -> UserInfoValue {
        try decodeDetectingProfile(data).value
    }

    /// Decodes bytes and reports which profile they were in: a top-level
    /// dictionary with `$archiver` is a keyed archive, anything else is plain.
    public func decodeDetectingProfile(_ data: Data) throws(UserInfoError) -> (value: UserInfoValue, profile: UserInfoProfile) {
        let plist = try PropertyListCodec.decode(data, limits: limits)
        if KeyedArchiveReader.isArchive(plist) {
            return (try KeyedArchiveReader(limits: limits).unarchive(plist, inputBytes: data.count), .keyedArchive)
        }
        return (try PlainProfile.userInfo(from: plist), .plain)
    }
}

/// The property-list formats the userInfo layer reads and writes.
enum PropertyListCodec {
    static func encode(_ plist: PropertyListValue, format: PropertyListFormat) throws(UserInfoError) -> Data {
        do throws(PropertyListError) {
            switch format {
            // An archive's own property list nests four deep, whatever the userInfo's depth.
            case .binary: return try BinaryPropertyListWriter().write(plist)
            case .xml: return try XMLPropertyListWriter().write(plist)
            }
        } catch {
            throw UserInfoError(error)
        }
    }

    static func decode(_ data: Data, limits: PropertyListLimits) throws(UserInfoError) -> PropertyListValue {
        do throws(PropertyListError) {
            switch PropertyListFormat.detect(data) {
            case .binary: return try BinaryPropertyListReader(limits: limits).read(data)
            case .xml: return try XMLPropertyListReader(limits: limits).read(data)
            case nil: throw PropertyListError(.unknownFormat, "not a property list (neither binary nor XML)", at: .byteOffset(0))
            }
        } catch {
            throw UserInfoError(error)
        }
    }
}

/// The plain profile: userInfo values as plist-native values and back
/// (Specs/keyed-archive.md, "Profiles").
public enum PlainProfile {
    /// The property list of a userInfo value made of plist-native types only.
    public static func propertyList(from value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        // reservedKey: a plain top-level dictionary with "$archiver" would read back as an archive.
        if case .dictionary(let dictionary) = value, dictionary[Field.archiver] != nil {
            throw UserInfoError(.reservedKey, "a plain userInfo cannot have the top-level key \"$archiver\" (it would read back as a keyed archive)",
                                keyPath: PropertyListKeyPath([.key(Field.archiver)]))
        }
        return try convert(value)
    }

    private static func convert(_ value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        switch value {
        case .string(let v): return .string(v)
        case .number(.integer(let v)): return .integer(v)
        case .number(.real(let v)): return .real(v)
        case .number(.bool(let v)): return .bool(v)
        case .data(let v): return .data(v)
        case .date(let v):
            guard PropertyListValue.isValidDate(v.timeIntervalSinceReferenceDate) else {
                throw UserInfoError(.invalidDate, "date is \(v.timeIntervalSinceReferenceDate)")
            }
            return .date(v)
        case .array(let elements):
            var result: [PropertyListValue] = []
            result.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                do { result.append(try convert(element)) } catch { throw error.inside(.index(position)) }
            }
            return .array(result)
        case .dictionary(let dictionary):
            var result = PropertyListDictionary(minimumCapacity: dictionary.count)
            for (key, member) in dictionary {
                do { result[key] = try convert(member) } catch { throw error.inside(.key(key)) }
            }
            return .dictionary(result)
        case .null, .set, .uuid, .url:
            // notPlistNative: these four need the keyed-archive profile.
            throw UserInfoError(.notPlistNative, "a \(value.typeName) cannot be written in the plain profile; use the keyed-archive profile")
        }
    }

    /// The userInfo value of a plain property list.
    public static func userInfo(from plist: PropertyListValue) throws(UserInfoError) -> UserInfoValue {
        switch plist {
        case .string(let v): return .string(v)
        case .integer(let v): return .number(.integer(v))
        case .real(let v): return .number(.real(v))
        case .bool(let v): return .number(.bool(v))
        case .data(let v): return .data(v)
        case .date(let v): return .date(v)
        case .array(let elements):
            var result: [UserInfoValue] = []
            result.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                do { result.append(try userInfo(from: element)) } catch { throw error.inside(.index(position)) }
            }
            return .array(result)
        case .dictionary(let dictionary):
            var result = UserInfoDictionary(minimumCapacity: dictionary.count)
            for (key, member) in dictionary {
                do { result[key] = try userInfo(from: member) } catch { throw error.inside(.key(key)) }
            }
            return .dictionary(result)
        case .uid, .null:
            // notUserInfoType: a UID or the binary null is no userInfo value in a plain property list.
            throw UserInfoError(.notUserInfoType, "a \(plist.typeName) is not a userInfo value in a plain property list")
        }
    }
}

extension ErrorCode {
    /// A plain userInfo whose top-level dictionary has the key `$archiver`.
    public static let reservedKey = Self("reservedKey")
}
