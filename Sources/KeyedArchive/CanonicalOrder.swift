import FoundationEssentials

/// Deterministic order of set members: by their compact typed-JSON text
/// (Specs/keyed-archive.md, "Sets").
enum CanonicalOrder {
    static func sorted(_ set: UserInfoSet) -> [UserInfoValue] {
        set.members
            .map { (text: Array(TypedJSONWriter.text($0).utf8), member: $0) }
            .sorted { $0.text.lexicographicallyPrecedes($1.text) }
            .map(\.member)
    }

    /// The members in canonical order, after checking that Foundation would not
    /// merge any two of them.
    static func setMembers(_ set: UserInfoSet) throws(UserInfoError) -> [UserInfoValue] {
        try FoundationIdentity.checkDistinct(set.members)
        return sorted(set)
    }
}

/// What Foundation's `isEqual:` considers the same: NSNumber compares numeric
/// values across integers, reals and booleans (1 == 1.0 == true), NSDate
/// compares time intervals (0 == -0), collections compare members that way.
/// `NSSet` keeps one of such members, so a set holding two of them would
/// lose one on Apple's side. See `Specs/keyed-archive.md`, "Sets".
enum FoundationIdentity: Hashable {
    case number(Double, exactInteger: String?)
    case other(UserInfoValue)
    indirect case array([FoundationIdentity])
    indirect case set(Set<FoundationIdentity>)
    indirect case dictionary([String: FoundationIdentity])

    init(_ value: UserInfoValue) {
        switch value {
        case .number(.bool(let flag)): self = .number(flag ? 1 : 0, exactInteger: flag ? "1" : "0")
        case .number(.integer(let integer)):
            self = .number(Double(integer.int64Value.map(Double.init) ?? Double(integer.uint64Value!)), exactInteger: integer.description)
        case .number(.real(let real)):
            // NaN equals NaN and -0.0 equals 0 for NSNumber.
            let normal = real.isNaN ? Double.nan : (real == 0 ? 0 : real)
            let integral = normal.isFinite && normal.rounded() == normal && abs(normal) < 1.8e19
            self = .number(normal, exactInteger: integral ? PropertyListIntegerText.of(normal) : nil)
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            self = .other(.date(Date(timeIntervalSinceReferenceDate: seconds == 0 ? 0 : seconds)))
        case .array(let elements): self = .array(elements.map(FoundationIdentity.init))
        case .set(let set): self = .set(Set(set.members.map(FoundationIdentity.init)))
        case .dictionary(let dictionary):
            var entries: [String: FoundationIdentity] = [:]
            for (key, member) in dictionary { entries[key] = FoundationIdentity(member) }
            self = .dictionary(entries)
        default: self = .other(value)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.number(a, ai), .number(b, bi)):
            if let ai, let bi { return ai == bi }
            if a.isNaN && b.isNaN { return true }
            return ai == nil && bi == nil && a == b
        case let (.other(a), .other(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.set(a), .set(b)): return a == b
        case let (.dictionary(a), .dictionary(b)): return a == b
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .number(let value, let integer):
            hasher.combine(0 as UInt8)
            if let integer { hasher.combine(integer) } else if value.isNaN { hasher.combine("nan") } else { hasher.combine(value) }
        case .other(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .array(let elements): hasher.combine(2 as UInt8); hasher.combine(elements)
        case .set(let members): hasher.combine(3 as UInt8); hasher.combine(members)
        case .dictionary(let entries): hasher.combine(4 as UInt8); hasher.combine(entries)
        }
    }

    /// ambiguousSetMembers: no two members Foundation would consider equal.
    static func checkDistinct(_ members: [UserInfoValue]) throws(UserInfoError) {
        var seen: [FoundationIdentity: Int] = [:]
        for (position, member) in members.enumerated() {
            let identity = FoundationIdentity(member)
            if let earlier = seen[identity] {
                throw UserInfoError(.ambiguousSetMembers,
                                    "set members \(earlier) and \(position) are equal to Foundation (NSSet would keep one)",
                                    keyPath: PropertyListKeyPath([.index(position)]))
            }
            seen[identity] = position
        }
    }
}

import PropertyList

/// Decimal text of an integral double within ±2⁶⁴.
enum PropertyListIntegerText {
    static func of(_ integral: Double) -> String {
        if integral >= 0 { return String(UInt64(integral)) }
        return integral >= -9.2e18 ? String(Int64(integral)) : integral.description
    }
}
