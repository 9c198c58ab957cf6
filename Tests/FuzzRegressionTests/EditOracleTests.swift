import Foundation
@_spi(Fuzzing) import FuzzChecks
import PropertyList
import TestSupport
import Testing

/// The edit oracle (Specs/fuzzing.md, "Output oracles") is not vacuous: over
/// the seeds it chooses every kind of edit, both edits that apply and edits
/// plutil's rules refuse, and its regression input (an append naming an
/// array's count, which trapped) passes.
@Suite("Edit oracle")
struct EditOracleTests {
    @Test("over the seeds, the edit oracle chooses inserts, appends, replacements and removals, applying and refused")
    func choosesEveryKind() throws {
        var modes: [String: Int] = [:]
        var applying = 0, refused = 0
        for target in ["binary-decode", "xml-decode", "openstep-read"] {
            for file in FuzzRegressionTests.files(in: Paths.packageRoot.appendingPathComponent("Corpus/\(target)")) {
                let bytes = try [UInt8](Data(contentsOf: file))
                guard bytes.count > 1, let edit = FuzzChecks.chosenEdit(for: Array(bytes.dropFirst())) else { continue }
                modes[edit.removes ? "remove" : "\(edit.mode)", default: 0] += 1
                if edit.applies { applying += 1 } else { refused += 1 }
            }
        }
        print("edit oracle over the seeds: \(modes.sorted { $0.key < $1.key }), \(applying) apply, \(refused) refused")
        for mode in ["insert", "append", "replace", "remove"] {
            #expect(modes[mode, default: 0] >= 10, "\(mode): \(modes)")
        }
        #expect(applying >= 100 && refused >= 20, "\(applying) apply, \(refused) refused")
    }

    @Test("key paths split and escape by Unicode scalars: a dot before a combining mark is a separator (the oracle found it split as one)")
    func dotBeforeCombiningMark() throws {
        #expect(try PlutilKeyPath(parsing: "0.\u{0369}UU").components == ["0", "\u{0369}UU"])
        #expect(try PlutilKeyPath(parsing: "a\\.\u{0301}b").components == ["a.\u{0301}b"])
        for components in [["a.\u{0301}", "\u{0301}"], ["\\\u{0301}.", "x"]] {
            let text = try PlutilKeyPath(parsing: "x").description  // a spelling that parses
            #expect(text == "x")
            var path = try PlutilKeyPath(parsing: "x")
            path.components = components
            #expect(try PlutilKeyPath(parsing: path.description).components == components, "\(components)")
        }
        let bytes = try [UInt8](Data(contentsOf: Paths.regressions.appendingPathComponent("xml-decode-edit-key-path-dot-before-combining-mark")))
        #expect(throws: Never.self) { try FuzzChecks.check(.xmlDecode, bytes) }
    }

    @Test("the regression input chooses an append naming the array's count, refused as indexOutOfRange (it trapped)")
    func appendAtArrayCount() throws {
        let bytes = try [UInt8](Data(contentsOf: Paths.regressions.appendingPathComponent("xml-decode-edit-append-at-array-count")))
        let edit = try #require(FuzzChecks.chosenEdit(for: Array(bytes.dropFirst())))
        #expect(edit.components == ["1"] && edit.mode == .append && !edit.removes && !edit.applies)
        let value: PropertyListValue = [[]]
        let error = try #require(throws: PropertyListError.self) { try value.setting(.integer(1), at: PlutilKeyPath(parsing: "1"), mode: .append) }
        #expect(error.code == .indexOutOfRange, "\(error)")
        #expect(try value.setting(.integer(1), at: PlutilKeyPath(parsing: "0"), mode: .append) == [[.integer(1)]])
        #expect(throws: Never.self) { try FuzzChecks.check(.xmlDecode, bytes) }
    }
}
