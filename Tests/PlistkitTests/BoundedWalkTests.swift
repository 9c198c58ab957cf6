import DocumentFormats
import Foundation
import KeyedArchive
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing
import UserInfo

/// Issue 42, "Hardening, fourth wave" (Specs/architecture.md, "One bounded
/// walk", "One counted output"): the consumers of decoded values that
/// re-expanded shared objects or scanned quadratically, each shown on the
/// input that broke it. Work is bounded by instruction counts (callgrind, as
/// ``ScalingTests``) and peak memory, never by wall time.
@Suite("Hardening 4: every consumer of a value walks it once, bounded")
struct BoundedWalkTests {
    // MARK: The walk and the counted output

    @Test("the walk charges every node as the readers do, and refuses past its budget at the key path where it stood")
    func walkCharges() throws {
        // {"ab": [1, "xyz"]}: the dictionary (8), the key (8 + 1 + 2), the array (8 + 1),
        // 1 (8 + 2), "xyz" (8 + 2 + 3): 51 bytes.
        let value: PropertyListValue = ["ab": [1, "xyz"]]
        #expect(try ValueWalk.expandedSize(of: value, budget: 51) == 51)
        let error = try #require(throws: PropertyListError.self) { try ValueWalk.expandedSize(of: value, budget: 50) }
        #expect(error.code == .expansionLimitExceeded)
        #expect(error.keyPath.description == "ab[1]")
        // A shared array is charged at every place it is used.
        let shared: PropertyListValue = .array([1, 2, 3])
        #expect(try ValueWalk.expandedSize(of: PropertyListValue.array([shared, shared]), budget: .max) == 8 + 2 * (9 + 3 * 10))
    }

    @Test("outputLimitExceeded: the counted output refuses what passes its budget, before the text grows")
    func countedOutput() throws {
        var output = CountedOutput(budget: 10)
        try output.append("0123456789")
        #expect(throws: PropertyListError(.outputLimitExceeded, "")) { try output.append("!") }
        #expect(output.text == "0123456789")
        // print's rendering, within a budget too small for it.
        var small = CountedOutput(budget: 16)
        var meter = ExpansionMeter(limit: .max)
        #expect(throws: PropertyListError(.outputLimitExceeded, "")) {
            try ReadableText.append(PropertyListValue.array(["a long string", "another"]), .tree, meter: &meter, to: &small)
        }
        #expect(CountedOutput.budget(forExpansionBudget: 1 << 20) == 32 << 20 + 4_096)
    }

    // MARK: The error packet's user info (issue 42, case 1)

    /// A keyed archive of an NSError whose user info is `{"k": a₀}`, each
    /// array aᵢ holding aᵢ₊₁ twice, `levels` deep (2^levels leaves, expanded).
    static func errorArchive(levels: Int) throws -> Data {
        // 1: the error; 2: its domain; 3: the user info; 4: its key; 5…5+levels: the arrays; then three classes.
        let firstArray = 5, errorClass = 6 + levels, dictionaryClass = errorClass + 1, arrayClass = errorClass + 2
        var objects: [PropertyListValue] = [
            "$null",
            ["$class": .uid(UInt32(errorClass)), "NSDomain": .uid(2), "NSCode": 1, "NSUserInfo": .uid(3)],
            "Domain",
            ["$class": .uid(UInt32(dictionaryClass)), "NS.keys": [.uid(4)], "NS.objects": [.uid(UInt32(firstArray))]],
            "k",
        ]
        for level in 0..<levels {
            let next = PropertyListValue.uid(UInt32(firstArray + level + 1))
            objects.append(["$class": .uid(UInt32(arrayClass)), "NS.objects": [next, next]])
        }
        objects.append(["$class": .uid(UInt32(arrayClass)), "NS.objects": []])
        objects.append(["$classname": "NSError", "$classes": ["NSError", "NSObject"]])
        objects.append(["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]])
        objects.append(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]])
        return try BinaryPropertyListWriter().write(["$archiver": "NSKeyedArchiver", "$version": 100_000,
                                                    "$top": ["root": .uid(1)], "$objects": .array(objects)])
    }

    /// An activity container holding `archive` as its error packet (Specs/activity-container.md).
    static func errorPacket(_ archive: Data) -> [UInt8] {
        let word = UInt32(archive.count) | 0x0100_0000
        return [0x0F, 0, 0, 0] + (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } + Array(archive)
    }

    /// The user info the archive describes, built directly.
    static func chain(levels: Int) -> UserInfoValue {
        var value = UserInfoValue.array([])
        for _ in 0..<levels { value = .array([value, value]) }
        return value
    }

    @Test("the graph's userInfo view resolves each object once: 60 levels of doubled references share one value per level")
    func graphResolvesOnce() throws {
        let graph = try KeyedArchiveGraph(reading: try Self.errorArchive(levels: 60))
        // 2^60 leaves expanded: only a value that shares its storage can exist at all.
        let userInfo = try #require(try graph.userInfoValue(at: 3, maxExpandedBytes: .max))
        var level = try #require(userInfo["k"])
        for _ in 0..<60 {
            guard case .array(let members) = level, members.count == 2,
                  case .array(let first) = members[0], case .array(let second) = members[1] else {
                Issue.record("not a chain of pairs: \(level.typeName)")
                return
            }
            #expect(StorageIdentity(first) == StorageIdentity(second), "the two references are one shared value")
            level = members[0]
        }
        #expect(level == .array([]))
    }

    @Test("the graph's userInfo view and ArchivedError keep to the input's budget: expansionLimitExceeded, within it the value")
    func errorWithinBudget() throws {
        let small = try Self.errorArchive(levels: 10)
        let error = try ArchivedError(reading: small)
        #expect(error.userInfo == ["k": Self.chain(levels: 10)])
        // 2^40 leaves from 1.4 KB: refused for the budget of its bytes, at once.
        let hostile = try Self.errorArchive(levels: 40)
        #expect(hostile.count < 1_500)
        #expect(throws: UserInfoError(.expansionLimitExceeded, "")) { try ArchivedError(reading: hostile) }
        let graph = try KeyedArchiveGraph(reading: hostile)
        #expect(throws: UserInfoError(.expansionLimitExceeded, "")) { try graph.userInfoValue(at: 3, maxExpandedBytes: 1 << 20) }
    }

    @Test("an error packet of 1.4 KB (40 levels): print, payload decode and payload check answer in one line each, within 64 MiB (was SIGABRT at 3.9 GB)")
    func errorPacketVerbs() throws {
        let input = Self.errorPacket(try Self.errorArchive(levels: 40))
        for (arguments, status) in [(["print", "{}"], Int32(0)), (["payload", "decode", "{}"], 1), (["payload", "check", "{}"], 1)] {
            let outcome = try HostileCostTests.run(arguments, input: input)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            #expect(outcome.peakKilobytes <= 64 << 10, "\(arguments): peak \(outcome.peakKilobytes) KiB")
            #expect(outcome.stdoutBytes < 4_096, "\(arguments): \(outcome.stdoutBytes) bytes of output")
            if status == 1 { #expect(outcome.stderr.contains("expansionLimitExceeded"), "\(arguments): \(outcome.stderr)") }
        }
        // Within the budget (12 levels), print shows the user info whole.
        let readable = Self.errorPacket(try Self.errorArchive(levels: 12))
        let printed = try launchPlistkit(["print", "-"], stdin: Data(readable))
        #expect(printed.status == 0)
        #expect(printed.stdout.split(separator: UInt8(ascii: "\n")).count > 4_096)
    }

    // MARK: diff (issue 42, cases 2, 3, 6, 7)

    /// A binary plist: `{"a": [d, d, …]}` with `copies` references to one
    /// array `d` of `count` distinct dictionaries `{"keyN": "value N"}`.
    static func sharedRecords(count: Int, copies: Int) throws -> [UInt8] {
        func ref(_ index: Int) -> [UInt8] { bigEndian(UInt64(index), width: 2) }
        func arrayMarker(_ count: Int) -> [UInt8] { count < 15 ? [0xA0 | UInt8(count)] : [0xAF, 0x11] + bigEndian(UInt64(count), width: 2) }
        func ascii(_ text: String) -> [UInt8] {
            let bytes = Array(text.utf8)
            return (bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]) + bytes
        }
        // 0: the top dictionary; 1: its key "a"; 2: the array of copies; 3: the shared array;
        // 4…: the records; then each record's key and value.
        let firstRecord = 4, firstString = firstRecord + count
        var objects: [[UInt8]] = [[0xD1] + ref(1) + ref(2), ascii("a"),
                                  arrayMarker(copies) + Array(repeating: ref(3), count: copies).flatMap { $0 },
                                  arrayMarker(count) + (0..<count).flatMap { ref(firstRecord + $0) }]
        for index in 0..<count { objects.append([0xD1] + ref(firstString + 2 * index) + ref(firstString + 2 * index + 1)) }
        for index in 0..<count { objects.append(ascii("key\(index)")); objects.append(ascii("value \(index)")) }
        return bplist(objects, referenceSize: 2)
    }

    @Test("diff FILE FILE of shared objects costs what the distinct objects cost: 40 references to one array, as 1 (was a copy per reference)")
    func diffOfSharedObjects() throws {
        let once = try Self.sharedRecords(count: 3_000, copies: 1)
        let shared = try Self.sharedRecords(count: 3_000, copies: 40)
        #expect(shared.count < once.count + 1_024, "the copies are references")
        var counts: [Int] = []
        for input in [once, shared] {
            let measured = try ScalingTests.instructions(["diff", "{}", "{}"], input: input)
            #expect(measured.status == 0)
            counts.append(measured.count)
        }
        #expect(Double(counts[1]) <= 1.25 * Double(counts[0]), "1 copy: \(counts[0]) instructions, 40 copies: \(counts[1])")
    }

    /// XML: `count` integers inside `depth` nested arrays; the last one changed when `edited`.
    static func nestedIntegers(depth: Int, count: Int, edited: Bool) -> [UInt8] {
        var text = "<plist version=\"1.0\">" + String(repeating: "<array>", count: depth)
        for index in 0..<count { text += "<integer>\(edited && index == count - 1 ? -1 : index)</integer>" }
        return Array((text + String(repeating: "</array>", count: depth) + "</plist>").utf8)
    }

    @Test("diff --match-moved hashes each member once: 5,000 integers 400 arrays deep cost as 1 deep (was depth × members)")
    func matchMovedDepth() throws {
        var counts: [Int] = []
        for depth in [1, 400] {
            let directory = try Peers.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let b = directory.appendingPathComponent("b.plist")
            try Data(Self.nestedIntegers(depth: depth, count: 5_000, edited: true)).write(to: b)
            let measured = try ScalingTests.instructions(["diff", "--match-moved", "{}", b.path],
                                                        input: Self.nestedIntegers(depth: depth, count: 5_000, edited: false))
            #expect(measured.status == 1, "one change")
            counts.append(measured.count)
        }
        #expect(Double(counts[1]) <= 1.5 * Double(counts[0]), "depth 1: \(counts[0]) instructions, depth 400: \(counts[1])")
    }

    @Test("diff --format json escapes what the text form escapes: no raw U+0085, U+2028, U+2029, DEL or bidirectional control")
    func diffJSONEscapes() throws {
        let hostile = ["\u{85}", "\u{2028}", "\u{2029}", "\u{7F}", "\u{202E}", "\u{2066}", "\u{200F}", "\u{61C}", "\u{9B}"]
        var first = PropertyListDictionary(), second = PropertyListDictionary()
        for (position, text) in hostile.enumerated() {
            first["k\(text)\(position)"] = .string("a\(text)")
            second["k\(text)\(position)"] = .string("b\(text)")
        }
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.plist"), b = directory.appendingPathComponent("b.plist")
        try BinaryPropertyListWriter().write(.dictionary(first)).write(to: a)
        try BinaryPropertyListWriter().write(.dictionary(second)).write(to: b)
        let result = try launchPlistkit(["diff", "--format", "json", a.path, b.path])
        #expect(result.status == 1)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0 != "\n" && JSONText.isUnreadable($0) }, "\(text.debugDescription)")
        // A Unicode-aware line reader sees one line per object, and two for the brackets.
        #expect(text.split(whereSeparator: \.isNewline).count == hostile.count + 2)
        let objects = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        #expect(objects.count == hostile.count)
        for object in objects {
            let path = try #require((object["path"] as? [String])?.first)
            let position = try #require(Int(String(path.unicodeScalars.last!)))
            #expect(path == "k\(hostile[position])\(position)", "the key reads back as it was")
            let new = try #require(object["new"] as? [String: Any])
            #expect(new["value"] as? String == "b\(hostile[position])")
        }
    }

    @Test("diff: a failed write of its output exits 2 (trouble), not 1 (different)")
    func diffWriteFailure() throws {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.plist"), b = directory.appendingPathComponent("b.plist")
        try BinaryPropertyListWriter().write(["x": 1]).write(to: a)
        try BinaryPropertyListWriter().write(["x": 2]).write(to: b)
        let result = try launch(CLITests.plistkit, ["diff", a.path, b.path], stdout: full)
        #expect(result.status == 2)
        #expect(String(decoding: result.stderr, as: UTF8.self).contains("writeFailed"))
    }

    /// Runs the built plistkit.
    func launchPlistkit(_ arguments: [String], stdin: Data? = nil) throws -> LaunchResult {
        try launch(CLITests.plistkit, arguments, stdin: stdin)
    }
}
