internal import OrderedCollections
public import PropertyList

/// The entries of a userInfo dictionary (`NSDictionary`).
public typealias UserInfoDictionary = StringKeyedDictionary<UserInfoValue>

/// The members of a userInfo set (`NSSet`): no two exactly equal, kept in
/// insertion order for reading; equality and hashing ignore the order.
///
/// Writers put members in a canonical order (their typed-JSON text), so
/// equal sets give equal bytes. See `Specs/userinfo-value.md`, "Sets".
public struct UserInfoSet: Sendable {
    internal var storage: OrderedSet<UserInfoValue>

    /// Creates an empty set.
    public init() { storage = [] }

    /// Creates a set from members, dropping later members equal to earlier ones,
    /// as `NSSet` and Swift's `Set` do.
    public init(_ members: some Sequence<UserInfoValue>) { storage = OrderedSet(members) }

    /// Adds a member unless an exactly equal one is present; returns whether it was added.
    @discardableResult
    public mutating func insert(_ member: UserInfoValue) -> Bool { storage.append(member).inserted }

    /// True when an exactly equal member is present.
    public func contains(_ member: UserInfoValue) -> Bool { storage.contains(member) }

    /// The members in insertion order.
    public var members: [UserInfoValue] { storage.elements }
    /// The number of members.
    public var count: Int { storage.count }
    /// True when there are no members.
    public var isEmpty: Bool { storage.isEmpty }
}

extension UserInfoSet: Sequence {
    public func makeIterator() -> IndexingIterator<[UserInfoValue]> { storage.elements.makeIterator() }
}

extension UserInfoSet: Hashable {
    /// Equal when both hold exactly equal members, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.storage.allSatisfy(rhs.storage.contains)
    }

    /// An order-independent hash of the members.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in storage { combined = combined &+ member.hashValue }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension UserInfoSet: ExpressibleByArrayLiteral {
    /// Creates a set from a literal, dropping repeated members.
    public init(arrayLiteral elements: UserInfoValue...) { self.init(elements) }
}
