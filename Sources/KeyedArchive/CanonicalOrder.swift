/// The deterministic order writers put set members in (Specs/userinfo-value.md,
/// "Sets"): by type name (as typed JSON spells it), then scalars by their
/// compact typed-JSON text and containers (arrays, dictionaries, sets) by
/// their Foundation identity digest, which the set keeps. No member is walked:
/// ordering a set costs its members' scalar texts and a sort, however deeply
/// its containers nest.
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
        /// A scalar's compact typed-JSON text; nil for a container.
        let text: [UInt8]?
        let digest: IdentityDigest

        init(_ member: UserInfoValue, _ digest: IdentityDigest) {
            type = member.typeName
            switch member {
            case .array, .dictionary, .set: text = nil
            default: text = Array(TypedJSONWriter.text(member).utf8)
            }
            self.digest = digest
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.type != rhs.type { return lhs.type.utf8.lexicographicallyPrecedes(rhs.type.utf8) }
            if let a = lhs.text, let b = rhs.text, a != b { return a.lexicographicallyPrecedes(b) }
            return lhs.digest < rhs.digest
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.type == rhs.type && lhs.text == rhs.text && lhs.digest == rhs.digest
        }
    }
}
