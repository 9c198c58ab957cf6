internal import OrderedCollections
public import PropertyList

/// The entries of a userInfo dictionary (`NSDictionary`).
public typealias UserInfoDictionary = StringKeyedDictionary<UserInfoValue>

/// The members of a userInfo set (`NSSet`): no two exactly equal, kept in
/// insertion order for reading; equality and hashing ignore the order.
///
/// A set keeps, beside its members, what each costs to compare: its exact
/// hash (summed into the set's own, order-independent hash) and its
/// Foundation identity digest (which checks and orders sets). Both are
/// computed once, when a member is inserted, so a set nested in others is
/// never walked again for them: hashing, comparing, checking and ordering
/// nested sets is linear in their size (Specs/userinfo-value.md, "Sets").
///
/// Writers put members in a canonical order (scalars by their typed-JSON
/// text, containers by digest), so equal sets give equal bytes.
public struct UserInfoSet: Sendable {
    internal var storage: OrderedSet<UserInfoValue>
    /// Each member's Foundation identity digest, in member order.
    internal private(set) var memberDigests: [IdentityDigest] = []
    /// The sum of the members' hash values (the set's order-independent hash).
    private var combinedHash = 0

    /// Creates an empty set.
    public init() { storage = [] }

    /// Creates a set from members, dropping later members equal to earlier ones,
    /// as `NSSet` and Swift's `Set` do.
    public init(_ members: some Sequence<UserInfoValue>) {
        storage = []
        for member in members { insert(member) }
    }

    /// Adds a member unless an exactly equal one is present; returns whether it was added.
    @discardableResult
    public mutating func insert(_ member: UserInfoValue) -> Bool {
        guard storage.append(member).inserted else { return false }
        memberDigests.append(FoundationIdentity.digest(of: member))
        combinedHash = combinedHash &+ member.hashValue
        return true
    }

    /// `insert(_:)` for a reader that knows the member's digest already
    /// (the keyed-archive reader computes each object's digest once).
    @discardableResult
    internal mutating func insert(_ member: UserInfoValue, digest: IdentityDigest) -> Bool {
        guard storage.append(member).inserted else { return false }
        memberDigests.append(digest)
        combinedHash = combinedHash &+ member.hashValue
        return true
    }

    /// True when an exactly equal member is present.
    public func contains(_ member: UserInfoValue) -> Bool { storage.contains(member) }

    /// The members in insertion order.
    public var members: [UserInfoValue] { storage.elements }
    /// The number of members.
    public var count: Int { storage.count }
    /// True when there are no members.
    public var isEmpty: Bool { storage.isEmpty }

    /// The members' digests in ascending order: the set's own identity.
    internal var sortedDigests: [IdentityDigest] { memberDigests.sorted() }
}

extension UserInfoSet: Sequence {
    public func makeIterator() -> IndexingIterator<[UserInfoValue]> { storage.elements.makeIterator() }
}

extension UserInfoSet: Hashable {
    /// Equal when both hold exactly equal members, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.combinedHash == rhs.combinedHash && lhs.storage.allSatisfy(rhs.storage.contains)
    }

    /// An order-independent hash of the members, kept as they are inserted.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(combinedHash)
    }
}

extension UserInfoSet: ExpressibleByArrayLiteral {
    /// Creates a set from a literal, dropping repeated members.
    public init(arrayLiteral elements: UserInfoValue...) { self.init(elements) }
}
