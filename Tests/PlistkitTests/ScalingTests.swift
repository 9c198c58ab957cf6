import Foundation
import KeyedArchive
import PropertyList
import PropertyListXML
import TestSupport
import Testing
import UserInfo

/// Bounded work (Specs/value-model.md, "Cost bounds"): every reader, writer,
/// set check and report costs time in proportion to its input, whatever its
/// shape. Each hostile shape is run through the built `plistkit` at size n and
/// 4n under callgrind, which counts instructions exactly (wall time on this
/// machine is too noisy to test): past the tool's start-up, 4n may cost at most
/// 5 times n (linear work costs 4 times; the quadratic algorithms these shapes
/// once hit cost 16). Each n is the smallest that keeps the old quadratic
/// terms well past a tenth of the linear work (where 4n would pass 5 times n),
/// about 50–400 million instructions in a debug build: callgrind runs some
/// fifty times slower than the program, and this suite is the test command's
/// longest (issue 43: 370 s alone, 4n of a project edit 19 billion instructions).
@Suite("Cost grows linearly with the input, whatever its shape")
struct ScalingTests {
    /// A copy of plistkit without debug information (valgrind 3.19 cannot read
    /// Swift's DWARF 5), made once.
    static let plistkit: String = {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("plistkit-scaling-\(getpid())").path
        let result = try? launch(which("strip") ?? "/usr/bin/strip", ["--strip-debug", "-o", copy, CLITests.plistkit])
        return result?.status == 0 ? copy : CLITests.plistkit
    }()

    /// Instructions `plistkit arguments…` executes on `input` (written to a file),
    /// and its exit status.
    static func instructions(_ arguments: [String], input: [UInt8]) throws -> (count: Int, status: Int32) {
        let valgrind = try #require(which("valgrind"), "valgrind is not installed (apt-get install -y valgrind; .ci/setup installs it)")
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("input")
        try Data(input).write(to: file)
        let result = try launch(valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null", plistkit]
                                    + arguments.map { $0 == "{}" ? file.path : $0 })
        let text = String(decoding: result.stderr, as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.contains("Collected :") }, "no count in \(text.suffix(500))")
        return (try #require(Int(line.split(separator: " ").last ?? "")), result.status)
    }

    /// Instructions at size n and 4n, less what the same verb costs on the smallest
    /// input. Both must end the same way (`status`): a refusal at 4n would be cheap.
    static func growth(_ arguments: [String], _ make: (Int) throws -> [UInt8], n: Int, status: Int32 = 0) throws -> (small: Int, large: Int) {
        let base = try instructions(arguments, input: try make(1))
        let small = try instructions(arguments, input: try make(n))
        let large = try instructions(arguments, input: try make(4 * n))
        #expect(small.status == status && large.status == status, "\(arguments): exit \(small.status) at n, \(large.status) at 4n, not \(status)")
        return (small.count - base.count, large.count - base.count)
    }

    static func expectLinear(_ name: String, _ arguments: [String], n: Int, status: Int32 = 0, _ make: (Int) throws -> [UInt8]) throws {
        let (small, large) = try growth(arguments, make, n: n, status: status)
        print("scaling, \(name): n = \(n): \(small) instructions, 4n: \(large)")
        #expect(small > 1_000_000, "\(name): n = \(n) is too small to measure (\(small) instructions)")
        #expect(Double(large) <= 5 * Double(small), "\(name): n = \(n): \(small) instructions, 4n: \(large) (\(Double(large) / Double(small))×)")
    }

    /// For verbs whose output is indented (typed JSON, print), the work follows the
    /// value's expanded size, which grows faster than the input for deep shapes
    /// (each level adds its depth, as its indentation does) but never past the
    /// budget: 4n may cost at most 1.25 times n scaled by the expanded sizes' ratio.
    static func expectLinearInExpandedSize(_ name: String, _ arguments: [String], n: Int, _ make: (Int) throws -> [UInt8],
                                           expanded: ([UInt8]) throws -> Int) throws {
        let (small, large) = try growth(arguments, make, n: n)
        let ratio = Double(try expanded(try make(4 * n))) / Double(try expanded(try make(n)))
        #expect(small > 1_000_000, "\(name): n = \(n) is too small to measure (\(small) instructions)")
        #expect(Double(large) <= 1.25 * ratio * Double(small),
                "\(name): n = \(n): \(small) instructions, 4n: \(large) (\(Double(large) / Double(small))×; expanded size \(ratio)×)")
    }

    /// Specs/value-model.md, "Expanded size", computed here from the definition:
    /// every node 8 + its depth + its payload.
    static func expandedSize(_ value: UserInfoValue, depth: Int = 0) -> Int {
        var size = 8 + depth
        switch value {
        case .string(let string): size += string.utf8.count
        case .data(let data): size += data.count
        case .uuid: size += 16
        case .url(let url):
            size += url.relative.utf8.count
            if let base = url.base { size += expandedSize(.url(base), depth: depth + 1) }
        case .array(let elements): size += elements.reduce(0) { $0 + expandedSize($1, depth: depth + 1) }
        case .set(let set): size += set.members.reduce(0) { $0 + expandedSize($1, depth: depth + 1) }
        case .dictionary(let dictionary):
            for (key, member) in dictionary { size += 8 + depth + 1 + key.utf8.count + expandedSize(member, depth: depth + 1) }
        default: break
        }
        return size
    }

    // MARK: Shapes

    /// A binary plist: an array of `n` references to one shared dictionary (sharing within the budget).
    static func sharedWide(_ n: Int) throws -> [UInt8] {
        var objects: [[UInt8]] = [[0xAF, 0x12] + bigEndian(UInt64(n), width: 4) + Array(repeating: [0, 0, 0, 1], count: n).flatMap { $0 }]
        objects.append([0xD1, 0, 0, 0, 2, 0, 0, 0, 3])
        objects.append([0x51, 0x6B])
        objects.append([0x55] + Array("value".utf8))
        return bplist(objects, referenceSize: 4)
    }

    /// A binary plist: an array of `n` references cycling over one integer, one
    /// real and one date — scalars the reader decodes again at each reuse
    /// instead of caching (Specs/binary-plist.md, "Sharing, time and memory").
    static func sharedScalars(_ n: Int) throws -> [UInt8] {
        var objects: [[UInt8]] = [[0xAF, 0x12] + bigEndian(UInt64(n), width: 4) + (0..<n).flatMap { [0, 0, 0, UInt8(1 + $0 % 3)] }]
        objects.append([0x13] + bigEndian(UInt64(bitPattern: -123_456_789_012), width: 8))
        objects.append([0x23] + bigEndian(0.1234567890123.bitPattern, width: 8))
        objects.append([0x33] + bigEndian(123_456_789.0.bitPattern, width: 8))
        return bplist(objects, referenceSize: 4)
    }

    /// A binary plist: one UTF-16 string of about `n` units mixing every UTF-8
    /// length (Specs/binary-plist.md, "Strings").
    static func longUTF16(_ n: Int) throws -> [UInt8] {
        let text = String(repeating: "aé日😀", count: max(n / 5, 1))
        return try BinaryPropertyListWriter().writeBytes(.array([.string(text)]))
    }

    /// A binary plist: a dictionary of `n` distinct keys (the writers sort them).
    static func manyKeys(_ n: Int) throws -> [UInt8] {
        var dictionary = PropertyListDictionary()
        for i in 0..<n { dictionary["key\(i * 7919 % max(n, 1))-\(i)"] = .integer(PropertyListInteger(i)) }
        return try BinaryPropertyListWriter().writeBytes(.dictionary(dictionary))
    }

    /// An XML plist: an array of `n` small dictionaries.
    static func xmlWide(_ n: Int) throws -> [UInt8] {
        let value = PropertyListValue.array((0..<n).map { .dictionary(["k": .string("v\($0)"), "n": .integer(PropertyListInteger($0))]) })
        return try XMLPropertyListWriter().writeBytes(value)
    }

    /// An XML plist: one dictionary of `n` distinct keys (its index grows from the kept hashes).
    static func xmlManyKeys(_ n: Int) throws -> [UInt8] {
        var writer = XMLPropertyListWriter()
        writer.keyOrder = .insertion
        return try writer.writeBytes(PropertyListValue.dictionary(PropertyListDictionary(
            uniqueKeysWithValues: (0..<n).map { ("key\($0 * 7919 % max(n, 1))-\($0)", PropertyListValue.integer(PropertyListInteger($0))) })))
    }

    /// An XML plist: an array of `n` members inside an array inside a dictionary
    /// (members on the reader's value stack, below an open outer array).
    static func xmlLongArray(_ n: Int) throws -> [UInt8] {
        let inner = PropertyListValue.array((0..<n).map { .string("member \($0)") })
        return try XMLPropertyListWriter().writeBytes(["outer": .array([.integer(1), inner, .integer(2)])])
    }

    static func archive(_ objects: [PropertyListValue], root: UInt32 = 1) throws -> [UInt8] {
        try BinaryPropertyListWriter().writeBytes(["$archiver": "NSKeyedArchiver", "$version": 100_000,
                                                  "$top": ["root": .uid(root)], "$objects": .array(objects)])
    }

    /// A keyed archive whose one class entry has `n` class hints and an `n`-long chain.
    static func classHints(_ n: Int) throws -> [UInt8] {
        let chain = (0..<n).map { PropertyListValue.string("MyClass\($0)") }
        return try archive(["$null", ["$class": .uid(2)],
                            ["$classname": "MyClass0", "$classes": .array(chain), "$classhints": .array(Array(repeating: "NSString", count: n))]])
    }

    /// A keyed archive of sets and arrays nested `depth` levels, each with 8 integers.
    static func nestedSets(_ depth: Int) throws -> [UInt8] {
        var objects: [PropertyListValue] = ["$null", ["$classname": "NSSet", "$classes": ["NSSet", "NSObject"]],
                                            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]]
        let ints = objects.count
        for i in 0..<8 { objects.append(.integer(PropertyListInteger(i))) }
        var previous: Int?
        for level in 0..<depth {
            var members = (0..<8).map { PropertyListValue.uid(UInt32(ints + $0)) }
            if let previous { members.append(.uid(UInt32(previous))) }
            objects.append(["$class": .uid(level % 2 == 0 ? 1 : 2), "NS.objects": .array(members)])
            previous = objects.count - 1
        }
        return try archive(objects, root: UInt32(previous ?? 3))
    }

    /// Typed JSON of the same shape.
    static func nestedSetsJSON(_ depth: Int) -> [UInt8] {
        var text = ""
        for level in 0..<depth {
            let members = (0..<8).map { #"{"type":"integer","value":"\#($0)"}"# }.joined(separator: ",")
            text = #"{"type":"\#(level % 2 == 0 ? "set" : "array")","value":[\#(members)\#(text.isEmpty ? "" : "," + text)]}"#
        }
        return Array(text.utf8)
    }

    /// A payload (an activity container) whose userInfo, a keyed archive, has `n` keys.
    static func payload(_ n: Int) throws -> [UInt8] {
        var userInfo = UserInfoDictionary()
        for i in 0..<n { userInfo["k\(i)"] = .number(.integer(PropertyListInteger(i))) }
        return activityContainer(userInfo: Array(try KeyedArchiveWriter().write(.dictionary(userInfo))))
    }

    /// A keyed archive: a set of `n` distinct arrays, each holding its number and one shared array of 64 integers.
    static func setsOfSharedArrays(_ n: Int) throws -> [UInt8] {
        var objects: [PropertyListValue] = ["$null", ["$classname": "NSSet", "$classes": ["NSSet", "NSObject"]],
                                            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]]]
        let shared = objects.count
        objects.append(["$class": .uid(2), "NS.objects": .array((0..<64).map { .uid(UInt32(shared + 1 + $0)) })])
        for i in 0..<64 { objects.append(.integer(PropertyListInteger(1000 + i))) }
        var members: [PropertyListValue] = []
        for i in 0..<n {
            objects.append(.integer(PropertyListInteger(i)))
            objects.append(["$class": .uid(2), "NS.objects": [.uid(UInt32(objects.count - 1)), .uid(UInt32(shared))]])
            members.append(.uid(UInt32(objects.count - 1)))
        }
        objects.append(["$class": .uid(1), "NS.objects": .array(members)])
        return try archive(objects, root: UInt32(objects.count - 1))
    }

    // MARK: Tests

    @Test("binary reader and every writer: a shared dictionary referenced n times")
    func sharing() throws {
        for format in ["binary1", "xml1", "json", "typed-json"] {
            try Self.expectLinear("convert --format \(format)", ["convert", "{}", "--format", format], n: 1000, Self.sharedWide)
        }
        try Self.expectLinear("print", ["print", "{}"], n: 1000, Self.sharedWide)
    }

    @Test("binary reader and writers: n reuses of uncached scalars, a UTF-16 string of n units")
    func scalarsAndStrings() throws {
        for format in ["binary1", "xml1"] {
            try Self.expectLinear("shared scalars, convert --format \(format)", ["convert", "{}", "--format", format], n: 2000, Self.sharedScalars)
            try Self.expectLinear("UTF-16 string, convert --format \(format)", ["convert", "{}", "--format", format], n: 40_000, Self.longUTF16)
        }
    }

    @Test("key order: the writers sort n distinct keys in n log n")
    func keys() throws {
        try Self.expectLinear("convert --format xml1", ["convert", "{}", "--format", "xml1"], n: 2000, Self.manyKeys)
        try Self.expectLinear("convert --format binary1", ["convert", "{}", "--format", "binary1"], n: 2000, Self.manyKeys)
    }

    @Test("OpenStep: a quoted string of n characters read, a project of n files written in Xcode's layout and edited, a .strings file of n entries edited")
    func openStep() throws {
        // Each quoted character used to recount the string (2.7 s for 80,000).
        try Self.expectLinear("OpenStep quoted string", ["convert", "{}", "--format", "json"], n: 20_000) { n in
            Array(("'" + String(repeating: "a", count: n) + "'").utf8)
        }
        // Each build file's comment used to scan every object for its phase.
        try Self.expectLinear("convert --format pbxproj", ["convert", "{}", "--format", "pbxproj"], n: 50, Self.xcodeProject)
        // An edit of a project: recorded comments, owner-named configurations, packages, exception sets.
        try Self.expectLinear("replace in a project", ["replace", "archiveVersion", "{}", "--string", "1", "-o", "-"], n: 30) { n in
            let written = try run(CLITests.plistkit, ["convert", "-", "--format", "pbxproj"], stdin: Data(Self.xcodeProject(n))).stdout
            return [UInt8](written)
        }
        // Containers of n members, read in a debug build: each member used to copy
        // its container (a 200,000-element array took 395 s; issue 26, item 9).
        try Self.expectLinear("OpenStep array of n members", ["lint", "{}"], n: 10_000) { n in
            Array(("(" + String(repeating: "a,", count: n) + ")").utf8)
        }
        try Self.expectLinear("OpenStep dictionary of n keys", ["lint", "{}"], n: 4_000) { n in
            Array(("{" + (0..<n).map { "k\($0) = v;" }.joined() + "}").utf8)
        }
        // An edit of a .strings file of n commented entries, written over its text.
        try Self.expectLinear("replace in a .strings file", ["replace", "k0", "{}", "--string", "changed", "-o", "-"], n: 1000) { n in
            Array((0..<n).map { "/* Entry \($0) */\n\"k\($0)\" = \"value \($0)\";\n" }.joined().utf8)
        }
    }

    /// An Xcode project of `n` source files (a file reference and a build file
    /// each, all in one phase) and `n` of each object whose comment has a rule of its own.
    static func xcodeProject(_ n: Int) -> [UInt8] {
        func id(_ kind: Int, _ i: Int) -> String { String(format: "%02d%022d", kind, i) }
        var objects = ""
        var files: [String] = []
        for i in 0..<n {
            objects += "\(id(1, i)) = {isa = PBXFileReference; path = f\(i).swift; sourceTree = SOURCE_ROOT; };\n"
            objects += "\(id(2, i)) = {isa = PBXBuildFile; fileRef = \(id(1, i)); };\n"
            files.append(id(2, i))
        }
        // Format 100's owner-named configurations, packages with products and
        // build files, synchronized groups with exception sets: n of each.
        var configurations: [String] = [], packages: [String] = [], groups: [String] = []
        for i in 0..<n {
            objects += "\(id(6, i)) = {isa = XCBuildConfiguration; name = C\(i); buildSettings = {}; };\n"
            objects += "\(id(7, i)) = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"https://example.com/p\(i).git\"; };\n"
            objects += "\(id(8, i)) = {isa = XCSwiftPackageProductDependency; package = \(id(7, i)); productName = \"plugin:P\(i)\"; };\n"
            objects += "\(id(9, i)) = {isa = PBXBuildFile; productRef = \(id(8, i)); };\n"
            objects += "\(id(10, i)) = {isa = PBXFileSystemSynchronizedRootGroup; path = G\(i); exceptions = (\(id(11, i))); };\n"
            objects += "\(id(11, i)) = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; target = \(id(12, 0)); };\n"
            (configurations, packages, groups) = (configurations + [id(6, i)], packages + [id(7, i)], groups + [id(10, i)])
            files.append(id(9, i))
        }
        objects += "\(id(3, 0)) = {isa = PBXSourcesBuildPhase; files = (\(files.joined(separator: ","))); };\n"
        objects += "\(id(4, 0)) = {isa = PBXProject; mainGroup = \(id(5, 0)); targets = (\(id(12, 0))); packageReferences = (\(packages.joined(separator: ","))); };\n"
        objects += "\(id(5, 0)) = {isa = PBXGroup; children = (\(groups.joined(separator: ","))); sourceTree = \"<group>\"; };\n"
        objects += "\(id(12, 0)) = {isa = PBXNativeTarget; name = App; buildConfigurationList = \(id(13, 0)); };\n"
        objects += "\(id(13, 0)) = {isa = XCConfigurationList; buildConfigurations = (\(configurations.joined(separator: ","))); };\n"
        return Array("// !$*UTF8*$!\n{ archiveVersion = 1; objectVersion = 100; objects = {\n\(objects)}; rootObject = \(id(4, 0)); }\n".utf8)
    }

    @Test("XML reader: n dictionaries (records of one kind), one dictionary of n keys, an array of n members")
    func xml() throws {
        try Self.expectLinear("convert xml → binary1", ["convert", "{}", "--format", "binary1"], n: 1000, Self.xmlWide)
        try Self.expectLinear("lint (xml, n keys)", ["lint", "{}"], n: 2000, Self.xmlManyKeys)
        try Self.expectLinear("lint (xml, n members)", ["lint", "{}"], n: 2000, Self.xmlLongArray)
    }

    @Test("keyed archives: class hints looked up in a set of the chain")
    func hints() throws {
        // Refused (classNotAllowed) after the lookup, at both sizes.
        try Self.expectLinear("unarchive (class hints)", ["unarchive", "{}"], n: 2500, status: 1, Self.classHints)
    }

    @Test("nested sets: each member's identity computed once (keyed archive in, typed JSON in)")
    func sets() throws {
        try Self.expectLinearInExpandedSize("unarchive (nested sets)", ["unarchive", "{}"], n: 100, Self.nestedSets) {
            Self.expandedSize(try KeyedArchiveReader().read(Data($0)))
        }
        try Self.expectLinear("archive (nested sets)", ["archive", "{}"], n: 100, { Self.nestedSetsJSON($0) })
        try Self.expectLinear("unarchive (sets of shared arrays)", ["unarchive", "{}"], n: 60, Self.setsOfSharedArrays)
    }

    /// An app's Info.plist (XML) of two document types: the first lists one
    /// content type `n` times, which the app declares with `n` extensions, none
    /// of them `plan`; the second takes `plan` (legacy `CFBundleTypeExtensions`).
    static func documentTypes(_ n: Int) throws -> [UInt8] {
        let activity: PropertyListValue = "com.example.planner.document"
        let info: PropertyListValue = [
            "CFBundleDocumentTypes": [
                ["LSItemContentTypes": .array(Array(repeating: "com.example.planner.sketch", count: n)),
                 "NSUbiquitousDocumentUserActivityType": activity],
                ["CFBundleTypeExtensions": ["plan"], "NSUbiquitousDocumentUserActivityType": activity],
            ],
            "UTExportedTypeDeclarations": [
                ["UTTypeIdentifier": "com.example.planner.sketch",
                 "UTTypeTagSpecification": ["public.filename-extension": .array((0..<n).map { .string("sketch\($0)") })]],
            ],
        ]
        return try XMLPropertyListWriter().writeBytes(info)
    }

    @Test("payload check --info-plist, lint --handoff: a document's extension matched against the app's document types once (Specs/payload.md, \"Document activities\", cost; issue 42)")
    func documentTypesMatchedOnce() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope = directory.appendingPathComponent("doc.json")
        try Data(#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.document"},"userInfo":{"type":"dict","value":{}}}}"#.utf8)
            .write(to: envelope)
        let payload = directory.appendingPathComponent("doc.payload").path
        let encoded = try launch(CLITests.plistkit, ["payload", "encode", envelope.path, "--layout", "macos:/Users/ada", "--container", "iCloud.com.example.Planner",
                                                     "--document", "file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan",
                                                     "-o", payload])
        #expect(encoded.status == 0, "\(String(decoding: encoded.stderr, as: UTF8.self))")
        let receiver = ["--layout", "ios", "--container", "iCloud.com.example.Planner"]
        try Self.expectLinear("payload check --info-plist (one content type n times, n extensions)",
                              ["payload", "check", payload, "--info-plist", "{}"] + receiver, n: 500, Self.documentTypes)
        try Self.expectLinear("lint --handoff (one content type n times, n extensions)", ["lint", "--handoff", "{}"], n: 500, Self.documentTypes)
    }

    @Test("unarchive --graph: a class chain named once, whatever the objects of the class (issue 43: moved here from HostileCostTests' time)")
    func graphClassChain() throws {
        for arguments in [["unarchive", "--graph", "{}"], ["print", "{}"]] {
            try Self.expectLinear("\(arguments) (n objects of one class with n names)", arguments, n: 200) { n in
                try HostileCostTests.longChainArchive(names: n, objects: n)
            }
        }
    }

    @Test("payload check: the per-key cost report in one pass")
    func costReport() throws {
        // 4n = 600 keys stays inside the payload limits (4,096 objects).
        try Self.expectLinear("payload check (n keys)", ["payload", "check", "{}", "--budget", "1MiB"], n: 150, Self.payload)
    }
}
