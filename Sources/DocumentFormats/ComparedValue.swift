@_spi(ByteKit) public import PropertyList
public import UserInfo
import KeyedArchive

/// A value of any document, as ``DocumentComparison`` compares it: a property
/// list or a userInfo value, compared across the two models, so that a binary
/// plist and an MP userInfo of the same value compare equal (Specs/plistkit.md,
/// "Diff").
///
/// A compared value holds the value it was made from, never a copy: an object
/// shared in its document (a binary object, an archived object) stays one
/// object, so a comparison is linear in the documents' bytes whatever they share.
public struct ComparedValue: Sendable {
    /// The value as read.
    public enum Origin: Sendable {
        case propertyList(PropertyListValue)
        case userInfo(UserInfoValue)
    }

    /// The value as read.
    public let origin: Origin

    /// A property list, compared as it is.
    public init(_ value: PropertyListValue) { origin = .propertyList(value) }

    /// A userInfo value, compared as it is.
    public init(_ value: UserInfoValue) { origin = .userInfo(value) }

    /// The type's name, as typed JSON names it: `string`, `integer`, `real`,
    /// `bool`, `date`, `data`, `array`, `dict`, `set`, `null`, `uuid`, `url`, `uid`.
    public var typeName: String {
        switch origin {
        case .propertyList(let value): return value.typeName
        case .userInfo(let value): return value.typeName
        }
    }

    /// The value as a property list: itself, or a userInfo value of
    /// plist-native types (nil when it holds a null, set, UUID or URL).
    public var propertyListValue: PropertyListValue? {
        switch origin {
        case .propertyList(let value): return value
        case .userInfo(let value): return try? PlainProfile.propertyList(from: value)
        }
    }

    /// The value as a userInfo value: itself, or a property list without UIDs
    /// or binary nulls (nil otherwise).
    public var userInfoValue: UserInfoValue? {
        switch origin {
        case .userInfo(let value): return value
        case .propertyList(let value): return try? PlainProfile.userInfo(from: value)
        }
    }
}

extension ComparedValue: Hashable {
    /// Exact equality across the two models, as ``DocumentComparison`` with
    /// exact dates finds it: strings scalar by scalar, reals and dates by
    /// their bits, integers by value, dictionaries and sets in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        DocumentComparison().equal(lhs, rhs)
    }

    /// Hashes the type only (equal values have the same type); compare with ``==``.
    public func hash(into hasher: inout Hasher) { hasher.combine(typeName) }
}

@_spi(ByteKit) extension ComparedValue: ReadableValue {
    public var walkShape: WalkShape {
        switch origin {
        case .propertyList(let value): return value.walkShape
        case .userInfo(let value): return value.walkShape
        }
    }

    public func walkMembers(sorted: Bool) -> WalkMembers<ComparedValue> {
        switch origin {
        case .propertyList(let value):
            let members = value.walkMembers(sorted: sorted)
            return WalkMembers(keys: members.keys, values: members.values.map(ComparedValue.init))
        case .userInfo(let value):
            let members = value.walkMembers(sorted: sorted)
            return WalkMembers(keys: members.keys, values: members.values.map(ComparedValue.init))
        }
    }

    public func appendReadableScalar(_ style: ReadableStyle, to out: inout String) {
        switch origin {
        case .propertyList(let value): value.appendReadableScalar(style, to: &out)
        case .userInfo(let value): value.appendReadableScalar(style, to: &out)
        }
    }
}


// MARK: - Storage and keys, for the comparison walk

extension ComparedValue {
    /// The identity of a container's storage (the value it holds), nil for a scalar or a set.
    var storageIdentity: StorageIdentity? {
        switch origin {
        case .propertyList(.array(let elements)): return StorageIdentity(elements)
        case .propertyList(.dictionary(let entries)): return entries.storageIdentity
        case .userInfo(.array(let elements)): return StorageIdentity(elements)
        case .userInfo(.dictionary(let entries)): return entries.storageIdentity
        default: return nil
        }
    }

    /// The position of `key` spelled exactly so, in a dictionary: Swift's
    /// `String` equality, which the dictionary's lookup uses, takes
    /// canonically equivalent spellings as one key; a document keeps them apart.
    func position(ofKey key: String) -> Int? {
        switch origin {
        case .propertyList(.dictionary(let entries)):
            guard let position = entries.position(forKey: key), ExactString.equal(entries.keys[position], key) else { return nil }
            return position
        case .userInfo(.dictionary(let entries)):
            guard let position = entries.position(forKey: key), ExactString.equal(entries.keys[position], key) else { return nil }
            return position
        default: return nil
        }
    }
}
