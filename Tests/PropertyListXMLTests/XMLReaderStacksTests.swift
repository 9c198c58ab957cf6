import Foundation
@_spi(ByteKit) import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Specs/xml-plist.md, "Reader stacks": the XML reader collects each open
/// container's contents in stacks shared by the whole parse, moves them into
/// arrays of exactly their count as the container closes, and shares the
/// key array and index of the sibling closed before it at the same depth when
/// the keys are exactly the sibling's. Errors take their key paths from the stacks.
@Suite("XML reader stacks")
struct XMLReaderStacksTests {
    /// The most room an array reserved for exactly `count` elements may have:
    /// what a fresh reservation gets, and two more, as the allocator may hand
    /// over a block a few bytes larger than asked (Swift counts the room from
    /// the block's usable size). A dictionary reserving eight entries, or grown
    /// by doubling, as the reader did before, is past it.
    static func exactRoom<Element>(_ count: Int, of _: Element.Type) -> Int {
        var probe: [Element] = []
        probe.reserveCapacity(count)
        return probe.capacity + 2
    }

    /// Every dictionary and array the bounded walk meets.
    struct Containers: ValueVisitor {
        typealias Value = PropertyListValue
        typealias Failure = PropertyListError
        var dictionaries: [PropertyListDictionary] = []
        var arrays: [[PropertyListValue]] = []

        mutating func visit(scalar value: PropertyListValue, at place: WalkPlace, depth: Int) {}
        mutating func enter(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool {
            switch value {
            case .dictionary(let dictionary): dictionaries.append(dictionary)
            case .array(let array): arrays.append(array)
            default: break
            }
            return true
        }
        mutating func leave(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) {}
    }

    static func containers(in value: PropertyListValue) throws -> Containers {
        var visitor = Containers()
        var meter = ExpansionMeter(limit: .max)
        try ValueWalk.walk(value, meter: &meter, visitor: &visitor)
        return visitor
    }

    @Test("every dictionary and array of every XML file of both shared corpora is reserved for exactly its count")
    func exactContainers() throws {
        var files = 0, dictionaries = 0, shared = 0, arrays = 0
        for url in try Paths.sharedCorpusFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)),
                  let value = try? XMLPropertyListReader().read(bytes) else { continue }
            files += 1
            let containers = try Self.containers(in: value)
            for array in containers.arrays where !array.isEmpty {
                arrays += 1
                #expect(array.capacity <= Self.exactRoom(array.count, of: PropertyListValue.self), "\(url.lastPathComponent)")
            }
            var seen: Set<StorageIdentity> = []
            for dictionary in containers.dictionaries where !dictionary.isEmpty {
                dictionaries += 1
                // A key array met before is shared with a sibling.
                if !seen.insert(StorageIdentity(dictionary.keys)).inserted { shared += 1 }
                #expect(dictionary.keys.capacity <= Self.exactRoom(dictionary.count, of: String.self), "\(url.lastPathComponent)")
                #expect(dictionary.values.capacity <= Self.exactRoom(dictionary.count, of: PropertyListValue.self), "\(url.lastPathComponent)")
            }
        }
        // The corpora reach both kinds: dictionaries with keys of their own, and records sharing their sibling's.
        #expect(files >= 140 && dictionaries > 8_000 && shared > 4_000 && arrays > 1_000,
                "files \(files), dictionaries \(dictionaries), shared \(shared), arrays \(arrays)")
    }

    /// `<array>` of dictionaries, each `(key, integer)` pairs in order.
    static func records(_ dictionaries: [[String]]) -> [UInt8] {
        let body = dictionaries.map { keys in
            "<dict>" + keys.enumerated().map { "<key>\($1)</key><integer>\($0)</integer>" }.joined() + "</dict>"
        }.joined()
        return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array>\(body)</array></plist>".utf8)
    }

    @Test("records with exactly their sibling's keys share its key array and index; others do not; changing one changes it alone")
    func siblingsShareKeys() throws {
        let ten = (0..<10).map { "key \($0)" }, three = ["x", "y", "label"]
        // 0-2 ten keys (indexed), 3 one left out, 4 ten again (its sibling is 3), 5 ten again,
        // 6-7 three keys (scanned), 8 the three in another order, 9 "é" spelled NFD after NFC.
        let lists = [ten, ten, ten, Array(ten.dropLast()), ten, ten, three, three, three.reversed(), ["\u{E9}"], ["e\u{301}"]]
        let value = try XMLPropertyListReader().read(Self.records(lists))
        var dictionaries = try #require(value.arrayValue).compactMap(\.dictionaryValue)
        let identities = dictionaries.map { StorageIdentity($0.keys) }
        #expect(identities[1] == identities[0] && identities[2] == identities[0])
        #expect(identities[3] != identities[0] && identities[4] != identities[3] && identities[4] != identities[0])
        #expect(identities[5] == identities[4])
        #expect(identities[7] == identities[6] && identities[8] != identities[6])
        #expect(identities[10] != identities[9], "equal as strings, different bytes: not the sibling's keys")
        // Every key is found through each dictionary's own lookup, the shared index included.
        for (dictionary, keys) in zip(dictionaries, lists) {
            #expect(dictionary.keys == keys)
            for (position, key) in keys.enumerated() { #expect(dictionary[key] == .integer(PropertyListInteger(position))) }
            #expect(dictionary["absent"] == nil)
        }
        #expect(dictionaries[10]["\u{E9}"] == .integer(0), "canonically equivalent spellings find each other")
        // Copy-on-write: changing one dictionary leaves those sharing its keys as they were.
        dictionaries[1]["new"] = .bool(true)
        dictionaries[1]["key 0"] = nil
        dictionaries[7]["y"] = .bool(false)
        #expect(dictionaries[1].count == 10 && dictionaries[1]["new"] == .bool(true) && dictionaries[1]["key 0"] == nil)
        #expect(dictionaries[7]["y"] == .bool(false))
        for untouched in [dictionaries[0], dictionaries[2]] {
            #expect(untouched.keys == ten && untouched["new"] == nil && untouched["key 0"] == .integer(0))
        }
        #expect(dictionaries[6]["y"] == .integer(1) && dictionaries[8]["y"] == .integer(1))
    }

    /// A random tree of dictionaries and arrays with integers at its leaves,
    /// written as XML, and the key path of each integer in document order.
    struct Tree {
        var xml = ""
        var paths: [[PropertyListKeyPath.Component]] = []

        mutating func add(depth: Int, path: [PropertyListKeyPath.Component], _ random: inout TestRandom) {
            switch depth < 4 ? Int.random(in: 0...3, using: &random) : 0 {
            case 0, 1:
                paths.append(path)
                xml += "<integer>\(paths.count)</integer>"
            case 2:
                xml += "<array>"
                for index in 0..<Int.random(in: 0...5, using: &random) { add(depth: depth + 1, path: path + [.index(index)], &random) }
                xml += "</array>"
            default:
                xml += "<dict>"
                // Keys from a small pool, so that siblings often have the same ones.
                var keys = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"].filter { _ in Bool.random(using: &random) }
                if Int.random(in: 0...4, using: &random) == 0 { keys.shuffle(using: &random) }
                for key in keys {
                    xml += "<key>\(key)</key>"
                    add(depth: depth + 1, path: path + [.key(key)], &random)
                }
                xml += "</dict>"
            }
        }
    }

    @Test("an error anywhere in a tree of dictionaries and arrays carries the key path of where it stands")
    func errorKeyPaths() throws {
        var random = TestRandom(seed: 46_5)
        var checked = 0
        for _ in 0..<1_500 {
            var tree = Tree()
            tree.xml = "<dict><key>root</key>"
            tree.add(depth: 0, path: [.key("root")], &random)
            tree.xml += "</dict>"
            guard !tree.paths.isEmpty else { continue }
            // One integer made invalid: `<integer>N</integer>` is unique in the document.
            let wrong = Int.random(in: 1...tree.paths.count, using: &random)
            let xml = tree.xml.replacingOccurrences(of: "<integer>\(wrong)</integer>", with: "<integer>x\(wrong)</integer>")
            let bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\">\(xml)</plist>".utf8)
            let error = try #require(throws: PropertyListError.self) { try XMLPropertyListReader().read(bytes) }
            #expect(error.code == .invalidInteger, "\(random)")
            #expect(error.keyPath == PropertyListKeyPath(tree.paths[wrong - 1]), "\(random): \(xml)")
            checked += 1
        }
        #expect(checked > 1_000, "\(random)")
    }
}
