import Foundation
import KeyedArchive
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// Specs/keyed-archive.md, "Graph": any archive as a graph, against archives
/// Linux Foundation's NSKeyedArchiver wrote (Corpus/golden/keyed/graph,
/// graph_write.swift) and against the ten-type reader.
@Suite("Keyed archives of any class, as a graph")
struct KeyedArchiveGraphTests {
    static let directory = Paths.golden.appendingPathComponent("keyed")

    static func graph(_ name: String) throws -> KeyedArchiveGraph {
        try KeyedArchiveGraph(reading: Data(contentsOf: directory.appendingPathComponent("\(name).bplist")))
    }

    /// The object a field references.
    static func target(_ graph: KeyedArchiveGraph, _ fields: PropertyListDictionary, _ name: String) -> Int? {
        fields[name]?.uidValue.map(Int.init)
    }

    static func fields(_ graph: KeyedArchiveGraph, _ index: Int) -> (classes: [String], fields: PropertyListDictionary)? {
        guard case .object(_, let classes, let fields) = graph.objects[index] else { return nil }
        return (classes, fields)
    }

    static func string(_ graph: KeyedArchiveGraph, _ index: Int?) -> String? {
        guard let index else { return nil }
        switch graph.objects[index] {
        case .value(.string(let string)), .string(let string): return string
        default: return nil
        }
    }

    @Test("a tree whose children point back at their parent: custom classes, a cycle, a shared object (Foundation's archive)")
    func treeWithCycle() throws {
        let graph = try Self.graph("graph/tree-with-cycle")
        let rootIndex = try #require(graph.root)
        let root = try #require(Self.fields(graph, rootIndex))
        #expect(root.classes == ["graph_write.Node", "NSObject"])
        #expect(Self.string(graph, Self.target(graph, root.fields, "name")) == "root")
        #expect(root.fields["weight"] == .integer(1))
        #expect(Self.target(graph, root.fields, "parent") == 0)
        guard case .array(let children) = graph.objects[try #require(Self.target(graph, root.fields, "children"))] else {
            Issue.record("children is not an array")
            return
        }
        #expect(children.count == 2)
        var tags: Set<Int> = []
        for (child, name) in zip(children, ["left", "right"]) {
            let node = try #require(Self.fields(graph, child))
            #expect(Self.string(graph, Self.target(graph, node.fields, "name")) == name)
            // The cycle: each child's parent is the root, by number.
            #expect(Self.target(graph, node.fields, "parent") == graph.root)
            tags.insert(try #require(Self.target(graph, node.fields, "tag")))
        }
        // The shared tag is one object, referenced twice.
        #expect(tags.count == 1)
        #expect(Self.string(graph, tags.first) == "shared tag")
        #expect(graph.objects.filter { if case .value(.string("shared tag")) = $0 { return true }; return false }.count == 1)
    }

    @Test("an object containing itself, and one custom object under two keys")
    func selfAndShared() throws {
        let selfish = try Self.graph("graph/self-reference")
        let selfRoot = try #require(selfish.root)
        let node = try #require(Self.fields(selfish, selfRoot))
        guard case .array(let children) = selfish.objects[try #require(Self.target(selfish, node.fields, "children"))] else {
            Issue.record("children is not an array")
            return
        }
        #expect(children == [selfish.root])
        let shared = try Self.graph("graph/shared-custom")
        let sharedRoot = try #require(shared.root)
        guard case .dictionary(let keys, let values) = shared.objects[sharedRoot] else {
            Issue.record("root is not a dictionary")
            return
        }
        let entries = Dictionary(uniqueKeysWithValues: zip(keys.map { Self.string(shared, $0) ?? "?" }, values))
        #expect(entries["a"] == entries["b"])
        #expect(Self.fields(shared, try #require(entries["a"]))?.classes == ["graph_write.Node", "NSObject"])
        guard case .date(let date) = shared.objects[try #require(entries["when"])] else { Issue.record("no date"); return }
        #expect(date.timeIntervalSinceReferenceDate == 5)
        // Rendering is a property list with references as {"$ref": N}.
        let rendered = try shared.rendered(plainJSON: true)
        #expect(rendered["top"] == .dictionary(["root": .dictionary(["$ref": .integer(PropertyListInteger(sharedRoot))])]))
    }

    @Test("bpylist2's archive of a custom class holding the same object twice (bpylist2_graph.py)")
    func bpylist2Custom() throws {
        let graph = try Self.graph("graph/bpylist2-custom")
        let rootIndex = try #require(graph.root)
        let root = try #require(Self.fields(graph, rootIndex))
        #expect(root.classes == ["Thing"])
        #expect(Self.string(graph, Self.target(graph, root.fields, "name")) == "root")
        #expect(root.fields["size"] == .integer(1))
        guard case .array(let parts) = graph.objects[try #require(Self.target(graph, root.fields, "parts"))] else {
            Issue.record("parts is not an array")
            return
        }
        #expect(parts.count == 3)
        #expect(parts[0] == parts[1])
        #expect(Self.fields(graph, parts[0])?.classes == ["Thing"])
        #expect(Self.string(graph, parts[2]) == "text")
    }

    @Test("the graph agrees with the ten-type reader on every golden archive (Foundation, bpylist2)")
    func agreesOnGolden() throws {
        for writer in ["foundation", "bpylist2"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.appendingPathComponent(writer).path).filter { $0.hasSuffix(".bplist") }
            #expect(names.count >= 4)
            for name in names {
                let data = try Data(contentsOf: Self.directory.appendingPathComponent("\(writer)/\(name)"))
                let graph = try KeyedArchiveGraph(reading: data)
                #expect(try graph.userInfoValue() == (try KeyedArchiveReader().read(data)), "\(writer)/\(name)")
            }
        }
    }

    @Test("property: the graph agrees with the ten-type reader on our archives of generated values")
    func agreesOnGenerated() async {
        await propertyCheck(count: 150, input: UserInfoGenerator(maxDepth: 3).generator) { value in
            let data = try KeyedArchiveWriter().write(value)
            let graph = try KeyedArchiveGraph(reading: data)
            #expect(try graph.userInfoValue() == value)
        }
    }

    @Test("structural errors: references past the objects, missing and malformed classes, keys and objects apart")
    func errors() throws {
        func archive(_ objects: [PropertyListValue], root: UInt32 = 1) throws -> Data {
            try BinaryPropertyListWriter().write(["$archiver": "NSKeyedArchiver", "$version": 100_000,
                                                  "$top": ["root": .uid(root)], "$objects": .array(objects)])
        }
        let custom: PropertyListValue = ["$classname": "Thing", "$classes": ["Thing", "NSObject"]]
        let cases: [([PropertyListValue], UInt32, ErrorCode)] = [
            (["$null", ["$class": .uid(2), "x": .uid(9)], custom], 1, .badReference),
            (["$null", ["x": 1]], 1, .missingClass),
            (["$null", ["$class": .uid(2)], ["$classname": "A", "$classes": ["B"]]], 1, .inconsistentClass),
            (["$null", ["$class": .uid(2), "NS.keys": [.uid(0)], "NS.objects": []], ["$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]]], 1, .keysObjectsMismatch),
            (["$null", "x"], 5, .badReference),
            (["$null", "x"], 0, .nilRoot),
            // A second "$null" string object is nil too, as for the ten-type reader.
            (["$null", "$null"], 1, .nilRoot),
        ]
        for (objects, root, code) in cases {
            #expect(throws: UserInfoError(code, "")) { try KeyedArchiveGraph(reading: archive(objects, root: root)) }
        }
        // What the ten-type reader refuses for its classes, the graph reads.
        let thing = try archive(["$null", ["$class": .uid(2), "n": 1], custom])
        #expect(throws: UserInfoError(.classNotAllowed, "")) { try KeyedArchiveReader().read(thing) }
        #expect(try KeyedArchiveGraph(reading: thing).objects.count == 3)
        #expect(try KeyedArchiveGraph(reading: thing).userInfoValue() == nil)
        // A cycle resolves to nothing rather than forever.
        #expect(try Self.graph("graph/self-reference").userInfoValue() == nil)
    }

    @Test("any $top keys, as Xcode's .xcuserstate ({State}) and compiled nibs ({IB.objectdata, IB.systemFontUpdateVersion}) have them")
    func anyTop() throws {
        let custom: PropertyListValue = ["$classname": "IBObjectContainer", "$classes": ["IBObjectContainer", "NSObject"]]
        let objects: PropertyListValue = ["$null", ["$class": .uid(2), "n": 1], custom, "text"]
        func graph(_ top: PropertyListValue) throws -> KeyedArchiveGraph {
            try KeyedArchiveGraph(archive: ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": top, "$objects": objects])
        }
        let nib = try graph(["IB.objectdata": .uid(1), "IB.systemFontUpdateVersion": 1])
        #expect(nib.top == ["IB.objectdata": .uid(1), "IB.systemFontUpdateVersion": 1])
        #expect(nib.root == nil)
        #expect(try nib.userInfoValue() == nil)
        // Rendered with every key, in $top's own order, references as {"$ref": N}.
        let rendered = try nib.rendered()
        #expect(rendered["top"] == ["IB.objectdata": ["$ref": 1], "IB.systemFontUpdateVersion": 1])
        #expect(rendered["top"]?.dictionaryValue.map { Array($0.keys) } == ["IB.objectdata", "IB.systemFontUpdateVersion"])
        #expect(rendered["objects"]?["1"]?["$class"] == ["$ref": 2])
        #expect(rendered["objects"]?["2"] == ["$classname": "IBObjectContainer", "$classes": ["IBObjectContainer", "NSObject"]])
        // UIDs nested in $top are references too; an empty $top is a graph without a root.
        #expect(try graph(["State": ["a": .uid(3), "b": [.uid(1)]]]).top["State"]?["a"] == .uid(3))
        #expect(try graph([:]).root == nil)
        // A root key still names the root, as for the ten-type reader.
        let rooted = try graph(["root": .uid(3), "other": "x"])
        #expect(rooted.root == 3)
        #expect(try rooted.userInfoValue() == "text")
        // Every UID names an object; a root is never nil; $top is a dictionary.
        #expect(throws: UserInfoError(.badReference, "")) { try graph(["State": .uid(9)]) }
        #expect(throws: UserInfoError(.badReference, "")) { try graph(["State": ["deep": [.uid(4)]]]) }
        #expect(throws: UserInfoError(.nilRoot, "")) { try graph(["root": .uid(0), "State": .uid(1)]) }
        #expect(throws: UserInfoError(.badTop, "")) { try graph(["root"]) }
        // The ten-type reader still wants exactly one root key holding a UID.
        let archiveWithState: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["State": .uid(3)], "$objects": ["$null", "x", "y", "z"]]
        #expect(throws: UserInfoError(.badTop, "")) { try KeyedArchiveReader().unarchive(archiveWithState) }
        #expect(try KeyedArchiveGraph(archive: archiveWithState).top["State"] == .uid(3))
    }
}
