import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The deterministic order writers put set members in (Specs/userinfo-value.md,
/// "Sets"): by type name, then scalars by their value (numbers numerically,
/// reals and dates in IEEE total order, strings, data and UUIDs by their
/// bytes, URLs by their relative string), and containers (arrays,
/// dictionaries, sets), like any remaining tie, by their Foundation identity
/// digest, which the set keeps. No member is walked: ordering a set costs its
/// scalars' bytes and a sort, however deeply its containers nest.
enum CanonicalOrder {
    static func sorted(_ set: UserInfoSet) -> [UserInfoValue] {
        let members = set.members
        let keys = zip(members, set.memberDigests).map(SortKey.init)
        return members.indices.sorted { keys[$0] < keys[$1] }.map { members[$0] }
    }

    /// The members in canonical order, after checking that Foundation would not
    /// merge any two of them (ambiguousSetMembers).
    static func setMembers(_ set: UserInfoSet) throws(UserInfoError) -> [UserInfoValue] {
        try FoundationIdentity.checkDistinct(set)
        return sorted(set)
    }

    private struct SortKey: Comparable {
        let type: String
        let value: ScalarKey
        let digest: IdentityDigest

        init(_ member: UserInfoValue, _ digest: IdentityDigest) {
            type = member.typeName
            value = ScalarKey(member)
            self.digest = digest
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.type != rhs.type { return lhs.type.utf8.lexicographicallyPrecedes(rhs.type.utf8) }
            if lhs.value != rhs.value { return lhs.value < rhs.value }
            return lhs.digest < rhs.digest
        }
    }

    /// A scalar's own order; containers and null have none (`.none`).
    private enum ScalarKey: Comparable {
        case none
        case integer(PropertyListInteger)
        /// A real or a date's seconds, as its IEEE 754 total-order key.
        case real(UInt64)
        case bool(Bool)
        case bytes([UInt8])

        init(_ member: UserInfoValue) {
            switch member {
            case .number(.integer(let v)): self = .integer(v)
            case .number(.real(let v)): self = .real(Self.totalOrder(v))
            case .number(.bool(let v)): self = .bool(v)
            case .date(let v): self = .real(Self.totalOrder(v.timeIntervalSinceReferenceDate))
            case .string(let v): self = .bytes(Array(v.utf8))
            case .data(let v): self = .bytes(Array(v))
            case .uuid(let v): self = .bytes(v.byteArray)
            case .url(let v): self = .bytes(Array(v.relative.utf8))
            case .array, .dictionary, .set, .null: self = .none
            }
        }

        /// Negative reals (sign bit set) flipped whole, others with the sign bit set:
        /// unsigned comparison of the keys is IEEE 754 totalOrder.
        private static func totalOrder(_ real: Double) -> UInt64 {
            let bits = real.bitPattern
            return bits >> 63 == 1 ? ~bits : bits | (1 << 63)
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case let (.integer(a), .integer(b)): return a < b
            case let (.real(a), .real(b)): return a < b
            case let (.bool(a), .bool(b)): return !a && b
            case let (.bytes(a), .bytes(b)): return a.lexicographicallyPrecedes(b)
            default: return false  // one type: equal kinds only
            }
        }
    }
}

extension UserInfoSet {
    /// The members in canonical order (Specs/userinfo-value.md, "Sets"): the
    /// order every writer of this package puts them in.
    public var canonicalMembers: [UserInfoValue] { CanonicalOrder.sorted(self) }

    /// The members in canonical order, after checking that Foundation would
    /// not merge any two of them (``ErrorCode/ambiguousSetMembers``).
    public func canonicalMembersCheckingDistinct() throws(UserInfoError) -> [UserInfoValue] {
        try CanonicalOrder.setMembers(self)
    }

    /// Throws ``ErrorCode/ambiguousSetMembers`` when Foundation would merge two
    /// members (such as `1`, `1.0` and `true`), which an `NSSet` cannot hold apart.
    public func checkFoundationDistinct() throws(UserInfoError) {
        try FoundationIdentity.checkDistinct(self)
    }
}
