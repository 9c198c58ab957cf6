import DocumentFormats
import Foundation
import FoundationEssentials
@_spi(Fuzzing) import FuzzChecks
import TestSupport
import Testing
import PropertyList

/// Replays what fuzzing found (`Corpus/regressions/<entry-point>-<what>`) and
/// every seed (`Corpus/<entry-point>/`) through the same oracles the fuzz
/// targets run (Specs/fuzzing.md), so a finding that comes back fails `swift test`.
@Suite("Fuzz regressions and seeds replayed")
struct FuzzRegressionTests {
    static func files(in folder: URL, prefix: String = "") -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("every regression is named after an entry point and passes its oracle")
    func regressions() throws {
        let all = Self.files(in: Paths.regressions)
        #expect(!all.isEmpty)
        for file in all {
            let entry = FuzzEntryPoint.allCases.first { file.lastPathComponent.hasPrefix($0.rawValue + "-") }
            let entryPoint = try #require(entry, "\(file.lastPathComponent) names no entry point")
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try FuzzChecks.check(entryPoint, bytes) }
        }
    }

    /// Whether `name` is one of a campaign's accumulated inputs (40 hex digits,
    /// as libFuzzer names them), not a named seed.
    static func isAccumulated(_ name: String) -> Bool {
        name.count == 40 && name.allSatisfy(\.isHexDigit)
    }

    /// The named seeds and a sixteenth of the accumulated inputs (those whose
    /// name starts with `0`: the same ones every run). The whole accumulated
    /// corpus — some 14,000 inputs, 100 s in a debug build — replays through the
    /// same oracles in CI's fuzz stage (Fuzz/ci.sh: libFuzzer runs every corpus
    /// input before it mutates), release with AddressSanitizer (issue 43);
    /// `FUZZ_REPLAY=all swift test` replays it here.
    static func replayed(_ files: [URL]) -> [URL] {
        if ProcessInfo.processInfo.environment["FUZZ_REPLAY"] == "all" { return files }
        return files.filter { !isAccumulated($0.lastPathComponent) || $0.lastPathComponent.hasPrefix("0") }
    }

    @Test("every named seed, and a fixed sixteenth of the accumulated corpus, passes its oracle", arguments: FuzzEntryPoint.allCases)
    func seeds(entryPoint: FuzzEntryPoint) throws {
        let all = Self.files(in: Paths.packageRoot.appendingPathComponent("Corpus/\(entryPoint.rawValue)"))
        let seeds = Self.replayed(all)
        #expect(seeds.count >= 10, "Corpus/\(entryPoint.rawValue) holds the target's seeds")
        #expect(seeds.contains { !Self.isAccumulated($0.lastPathComponent) }, "Corpus/\(entryPoint.rawValue) holds named seeds")
        for file in seeds {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try FuzzChecks.check(entryPoint, bytes) }
        }
    }

    @Test("the oracles catch a broken round trip: they are not vacuous")
    func oraclesCanFail() throws {
        // A decoded value always round-trips, so feed the oracle's parts a value
        // that does not: a NaN date cannot be written, which must be a finding.
        let nanDate = [UInt8(0)] + [UInt8]("bplist00".utf8) + [0x33] + withUnsafeBytes(of: Double.nan.bitPattern.bigEndian, Array.init)
            + [0x08] + [UInt8](repeating: 0, count: 6) + [1, 1] + bigEndian(1, width: 8) + bigEndian(0, width: 8) + bigEndian(17, width: 8)
        // The reader refuses it first (invalidDate), so the oracle stays quiet…
        #expect(throws: Never.self) { try FuzzChecks.check(.binaryDecode, nanDate) }
        // …and a value the oracle is handed directly is checked in every format.
        #expect(throws: FuzzFinding.self) { try FuzzChecks.checkRoundTrip(of: .date(Date(timeIntervalSinceReferenceDate: .nan))) }
        // The literal oracle's reader reads what the writer writes, and nothing an injection would leave.
        let value: PropertyListValue = ["a\n\u{202E}": [.integer(-1), .real(0.5), .data(Data([1, 2])), .date(Date(timeIntervalSinceReferenceDate: 3))],
                                        "u": .integer(PropertyListInteger(UInt64.max)), "e": [:], "l": []]
        let swift = String(decoding: try LiteralSource.write(value, as: .swift, sourceFile: "x.json", outputFile: "-"), as: UTF8.self)
        #expect(FuzzChecks.swiftLiteralValue(swift) == value)
        #expect(FuzzChecks.swiftLiteralValue(swift.replacingOccurrences(of: "\\n", with: "\n")) == nil)
        #expect(FuzzChecks.swiftLiteralValue(swift + "print(1)\n") == nil)
        #expect(FuzzChecks.swiftLiteralValue(swift.replacingOccurrences(of: "-1 as Int", with: "-1.0 as Double")) != value)
    }
}
