import Foundation
@_spi(Fuzzing) import FuzzChecks
import TestSupport
import Testing

/// The oracles of the `error-packet` and `diff` targets (Specs/fuzzing.md,
/// "error-packet and diff"; issue 42) look at what they claim to: over their
/// named seeds (which `FuzzRegressionTests` replays through the oracles), the
/// error packets take each of print's paths, and the diff target derives
/// second values that differ, whose differences its patch needs every one of.
@Suite("Fuzz oracles of the error packet and diff")
struct ErrorPacketDiffOracleTests {
    @Test("error-packet seeds: user infos that read, one refused for its budget in a few lines, hostile strings printed escaped")
    func errorPacketSeeds() throws {
        let seeds = try MutationTests.seeds("error-packet")
        let probes = seeds.map(FuzzChecks.errorPacketProbe)
        #expect(probes.allSatisfy { $0.printed != nil }, "print answers for every error packet")
        #expect(probes.filter(\.readsUserInfo).count >= 4)
        // The 40-level chain of doubled references (issue 42, case 1): refused at once, printed in a few lines.
        let chain = try #require(seeds.first { $0.count > 1_200 && $0.count < 1_400 && FuzzChecks.errorPacketProbe($0).refusedForBudget })
        #expect(try #require(FuzzChecks.errorPacketProbe(chain).printed).utf8.count < 1_024)
        for probe in probes {
            let printed = try #require(probe.printed)
            #expect(!printed.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{2028}" || $0 == "\u{1B}" })
        }
    }

    @Test("diff seeds: most derived values differ; the patch needs every difference; equal ones give none")
    func diffSeeds() throws {
        let probes = try MutationTests.seeds("diff").compactMap(FuzzChecks.diffProbe)
        #expect(probes.count >= 20)
        let differing = probes.filter { $0.differences > 0 }
        #expect(differing.count * 2 > probes.count, "most derived values differ: \(differing.count) of \(probes.count)")
        #expect(probes.allSatisfy { $0.patches })
        // Dropping a difference leaves the patch short: the patch oracle sees a missing line.
        #expect(differing.allSatisfy { !$0.patchesWithoutLast })
    }
}
