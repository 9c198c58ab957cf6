/// A small deterministic generator (SplitMix64), shared by the edit oracle
/// (seeded from the document's bytes by FNV-1a, so that an input always
/// chooses the same edit) and the structure-aware mutators (seeded by
/// libFuzzer's seed, so that a mutation can be replayed).
struct SplitMix {
    private var state: UInt64

    init(seed bytes: [UInt8]) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        state = hash
    }

    init(seed: UInt64) { state = seed }

    /// A number below `bound` (at least 1).
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(max(bound, 1)))
    }

    /// True once in `odds` draws.
    mutating func oneIn(_ odds: Int) -> Bool { next(odds) == 0 }

    /// A member of a non-empty collection.
    mutating func pick<C: Collection>(_ choices: C) -> C.Element where C.Index == Int {
        choices[choices.startIndex + next(choices.count)]
    }

    /// A part of `root` at the end of a random walk (possibly `root` itself):
    /// up to 16 steps, each taken two times in three, into the member that
    /// `member` picks (nil for a scalar or an empty container, which ends the
    /// walk). The walk of both oracles, over their own value types.
    mutating func randomPart<Value, Component>(
        of root: Value, member: (Value, inout SplitMix) -> (Component, Value)?
    ) -> Value {
        var node = root
        for _ in 0..<16 {
            guard next(3) != 0, case let (_, child)? = member(node, &self) else { break }
            node = child
        }
        return node
    }
}
