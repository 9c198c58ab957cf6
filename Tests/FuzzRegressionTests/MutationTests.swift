import ActivityContainer
import Foundation
@_spi(Fuzzing) import FuzzChecks
import MPUserInfo
import PropertyList
import PropertyListOpenStep
import PropertyListXML
import TestSupport
import Testing
import UserInfo

/// The structure-aware mutators (Specs/fuzzing.md, "Structure-aware
/// mutation") keep what they claim to keep, and reach what byte mutation
/// does not: run on the named seeds of their targets, beside a stand-in for
/// libFuzzer's byte mutation (a few bit flips, byte insertions, erasures and
/// overwrites), their mutants take the reader past its first checks more
/// often and end in more of the reader's rules.
@Suite("Structure-aware mutation")
struct MutationTests {
    /// The named seeds (not the accumulated corpus) of `target`, options byte included.
    static func seeds(_ target: String) throws -> [[UInt8]] {
        try FuzzRegressionTests.files(in: Paths.packageRoot.appendingPathComponent("Corpus/\(target)"))
            .filter { $0.lastPathComponent.range(of: #"^[0-9a-f]{40}$"#, options: .regularExpression) == nil }
            .map { try [UInt8](Data(contentsOf: $0)) }
            .filter { $0.count > 1 }
    }

    /// A seeded generator, so that every run of the tests sees the same mutants.
    struct SeededRandom: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A stand-in for `LLVMFuzzerMutate`: one to four byte changes.
    static func byteMutation(seed: UInt64) -> StructureAwareMutation.ByteMutation {
        var generator = SeededRandom(state: seed)
        return { bytes, maxSize in
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                case 1 where bytes.count < maxSize: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: at)
                case 2 where bytes.count > 1: bytes.remove(at: at)
                case _ where !bytes.isEmpty: bytes[at] = [0x00, 0xFF, 0x7F, 0x80, 0x01][Int.random(in: 0..<5, using: &generator)]
                default: break
                }
            }
        }
    }

    /// What the target's reader makes of a document: "read", or the code it refused with.
    static func outcome(_ mutation: StructureAwareMutation, _ document: [UInt8]) -> String {
        let data = Data(document)
        do {
            switch mutation {
            case .binaryPlist: _ = try BinaryPropertyListReader().read(data)
            case .mp: _ = try MPUserInfoReader().read(data)
            case .container:
                let container = try ActivityContainerReader().read(data)
                // A container that reads is worth more when its userInfo reads too.
                if case .activity(let record) = container, let userInfo = record.userInfo, userInfo.starts(with: [0x4D, 0x50]) {
                    _ = try MPUserInfoReader().read(userInfo)
                    return "read with its userInfo"
                }
            case .xml: _ = try XMLPropertyListReader().read(data)
            case .openStep: _ = try OpenStepReader().read(data)
            }
            return "read"
        } catch let error as PropertyListError {
            return "\(error.code)"
        } catch let error as UserInfoError {
            return "\(error.code)"
        } catch let error as ActivityContainerError {
            return "\(error.code)"
        } catch {
            return "\(type(of: error))"
        }
    }

    static let targets: [(String, StructureAwareMutation)] = [
        ("binary-decode", .binaryPlist), ("mp-decode", .mp), ("container-decode", .container), ("xml-decode", .xml), ("openstep-read", .openStep),
    ]

    @Test("a mutant is deterministic in its seed and within the size libFuzzer allows", arguments: targets)
    func deterministicAndBounded(_ target: String, _ mutation: StructureAwareMutation) throws {
        let seeds = try Self.seeds(target)
        #expect(seeds.count >= 10)
        let flipFirst: StructureAwareMutation.ByteMutation = { bytes, _ in if !bytes.isEmpty { bytes[0] ^= 1 } }
        for (index, seed) in seeds.enumerated() {
            for value in UInt32(0)..<3 {
                let first = mutation.mutate(seed, maxSize: 65536, seed: value &+ UInt32(index) &* 977, bytes: flipFirst)
                let second = mutation.mutate(seed, maxSize: 65536, seed: value &+ UInt32(index) &* 977, bytes: flipFirst)
                #expect(first == second)
                let small = mutation.mutate(seed, maxSize: seed.count + 16, seed: value, bytes: flipFirst)
                #expect(small.count <= seed.count + 16)
            }
        }
    }

    @Test("structured mutants keep the layout: every bplist mutant's offset table and trailer, most MP lengths and container words")
    func layoutKept() throws {
        let mutate = Self.byteMutation(seed: 1)
        for (target, mutation) in Self.targets where [.binaryPlist, .mp, .container].contains(mutation) {
            var taken = 0, kept = 0
            for seed in try Self.seeds(target) {
                for value in UInt32(0)..<20 {
                    let document = Array(seed.dropFirst())
                    guard mutation.takesApart(document),
                          let mutant = mutation.structuredMutant(of: document, seed: UInt64(value) << 32 | UInt64(taken), bytes: mutate) else { continue }
                    taken += 1
                    if mutation.takesApart(mutant) { kept += 1 }
                }
            }
            print("\(mutation): \(kept) of \(taken) structured mutants keep the layout")
            #expect(taken >= 200)
            let share = Double(kept) / Double(max(taken, 1))
            #expect(mutation == .binaryPlist ? kept == taken : share >= 0.8, "\(mutation): \(kept) of \(taken)")
        }
    }

    /// Rules a reader can only meet past its layout checks, in a well-formed
    /// structure: sharing and cycles, duplicate keys and set members, a value
    /// missing from a pair, a container whose userInfo reads.
    static let structuralRules: [StructureAwareMutation: Set<String>] = [
        .binaryPlist: ["cyclicReference", "duplicateKey", "nonStringKey"],
        .mp: ["duplicateKey", "duplicateSetMember", "ambiguousSetMembers"],
        .container: ["read with its userInfo", "invalidActivityJSON", "badFieldCount"],
        .xml: ["duplicateKey", "missingValue", "plistValueCount"],
        .openStep: ["duplicateKey"],
    ]

    @Test("from the same seeds, structured mutants pass the reader more often and meet its structural rules far more often", arguments: targets)
    func reachesDeeper(_ target: String, _ mutation: StructureAwareMutation) throws {
        let mutate = Self.byteMutation(seed: 2)
        var structured: [String: Int] = [:], plain: [String: Int] = [:]
        let seeds = try Self.seeds(target)
        for (index, seed) in seeds.enumerated() {
            for value in UInt32(0)..<24 {
                let mutant = mutation.mutate(seed, maxSize: 65536, seed: value &* 7919 &+ UInt32(index), bytes: mutate)
                structured[Self.outcome(mutation, Array(mutant.dropFirst())), default: 0] += 1
                var bytes = Array(seed.dropFirst())
                mutate(&bytes, 65536)
                plain[Self.outcome(mutation, bytes), default: 0] += 1
            }
        }
        print("\(target) structured: \(structured.sorted { $0.key < $1.key })")
        print("\(target) byte mutation: \(plain.sorted { $0.key < $1.key })")
        func reads(_ outcomes: [String: Int]) -> Int { outcomes.filter { $0.key.hasPrefix("read") }.values.reduce(0, +) }
        func structural(_ outcomes: [String: Int]) -> Int { outcomes.filter { Self.structuralRules[mutation]!.contains($0.key) }.values.reduce(0, +) }
        #expect(Double(reads(structured)) >= 1.5 * Double(reads(plain)), "read: structured \(reads(structured)), byte mutation \(reads(plain))")
        #expect(structural(structured) >= 3 * max(structural(plain), 1),
                "structural rules: structured \(structural(structured)), byte mutation \(structural(plain))")
    }

    @Test("chains of mutants (each mutated again, as libFuzzer does) never trap, whatever the mutator makes of its own output", arguments: targets)
    func chainsNeverTrap(_ target: String, _ mutation: StructureAwareMutation) throws {
        let mutate = Self.byteMutation(seed: 3)
        var steps = 0
        for (index, seed) in try Self.seeds(target).filter({ $0.count <= 60000 }).prefix(12).enumerated() {
            var input = seed
            for step in UInt32(0)..<40 {
                input = mutation.mutate(input, maxSize: 65536, seed: step &* 31 &+ UInt32(index), bytes: mutate)
                #expect(!input.isEmpty && input.count <= 65536)
                steps += 1
            }
        }
        #expect(steps >= 400)
    }
}
