/// The tests' random source (issue 43, "Deterministic"): SplitMix64, seeded,
/// so that every run draws the same cases. Each test names its own seed;
/// `TEST_SEED=N swift test` draws other cases, and every expectation that
/// depends on the draw prints the seed it used, so a failure replays.
public struct TestRandom: RandomNumberGenerator, CustomStringConvertible {
    /// The seed the cases were drawn from.
    public let seed: UInt64
    private var state: UInt64

    /// A generator for the test's own `seed`, unless `TEST_SEED` names another.
    public init(seed: UInt64) {
        let override = ProcessInfoSeed.value
        self.seed = override ?? seed
        state = self.seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `seed N`, for expectation messages.
    public var description: String { "seed \(seed) (TEST_SEED=\(seed) replays it)" }
}

import Foundation

/// `TEST_SEED`, read once.
enum ProcessInfoSeed {
    static let value: UInt64? = ProcessInfo.processInfo.environment["TEST_SEED"].flatMap { UInt64($0) }
}
