import Foundation
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing

/// Specs/binary-plist.md, "Sibling keys": a dictionary whose key references are
/// those of the sibling finished before it at the same depth shares that
/// sibling's keys. Random documents of sibling dictionaries are decoded and
/// held to the outcome computed here from Swift's `String` equality.
@Suite("Binary sibling keys")
struct BinarySiblingKeysTests {
    /// The key objects every document holds, first in its object list (after
    /// the top array): twelve short keys, one long key (a heap `String`),
    /// a second object spelling "k1", and "é" as NFC and as NFD.
    static let keyPool: [String] = (0..<12).map { "k\($0)" }
        + ["a key longer than fifteen bytes", "k1", "\u{E9}", "e\u{301}"]

    /// The object encoding of a key of the pool: ASCII, or UTF-16 for "é".
    static func keyObject(_ key: String) -> [UInt8] {
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Array(key.utf8)
            return (bytes.count < 15 ? [0x50 | UInt8(bytes.count)] : [0x5F, 0x10, UInt8(bytes.count)]) + bytes
        }
        let units = Array(key.utf16)
        return [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    /// A dictionary to write: keys as indices into the pool, values.
    indirect enum Member {
        case integer(UInt8)
        case badString
        case dictionary([(key: Int, value: Member)])
    }

    /// One random document: a top array of dictionaries whose key lists follow
    /// their sibling's, changed now and then (swapped, left out, repeated, a
    /// second object or the other spelling of "é"), some holding nested
    /// dictionaries that do the same one level down.
    struct Document {
        var dictionaries: [[(key: Int, value: Member)]] = []

        static func random(using random: inout TestRandom) -> Document {
            var document = Document()
            var top = KeyLists(), nested = KeyLists()
            let count = Int.random(in: 2...40, using: &random)
            for _ in 0..<count {
                var members: [(key: Int, value: Member)] = []
                for key in top.next(using: &random) {
                    let roll = Int.random(in: 0..<100, using: &random)
                    if roll < 12 {
                        members.append((key, .dictionary(nested.next(using: &random).map { nestedKey in
                            (nestedKey, Int.random(in: 0..<3_000, using: &random) == 0 ? .badString : .integer(UInt8.random(in: 0...9, using: &random)))
                        })))
                    } else if roll == 12, Int.random(in: 0..<25, using: &random) == 0 {
                        members.append((key, .badString))
                    } else {
                        members.append((key, .integer(UInt8.random(in: 0...9, using: &random))))
                    }
                }
                document.dictionaries.append(members)
            }
            return document
        }

        /// The key lists of one level's siblings: mostly the sibling's list
        /// again; else a list of distinct keys (new, swapped, one left out),
        /// or now and then a hostile one (a key object repeated, "k1" as a
        /// second object, "é" as NFC and NFD, the long key), which the
        /// next sibling may take again.
        struct KeyLists {
            var base: [Int] = []
            var last: [Int] = []

            mutating func next(using random: inout TestRandom) -> [Int] {
                let roll = Int.random(in: 0..<100, using: &random)
                if base.isEmpty || roll < 8 {
                    base = Array((0..<12).shuffled(using: &random).prefix(Int.random(in: 1...12, using: &random)))
                    last = base
                    return last
                }
                if roll < 70 { return last }
                var keys = base
                switch roll {
                case 70..<80 where keys.count > 1: keys.swapAt(0, keys.count - 1); base = keys
                case 80..<90 where keys.count > 1: keys.remove(at: Int.random(in: 0..<keys.count, using: &random)); base = keys
                case 90: keys[keys.count - 1] = keys[0]  // a repeated key object (a duplicate when there are two keys or more)
                case 91, 92: keys[Int.random(in: 0..<keys.count, using: &random)] = 13  // "k1" as a second object
                case 93: keys[keys.count - 1] = 14; keys[0] = 15  // "é" as NFC and as NFD
                case 94, 95: keys[Int.random(in: 0..<keys.count, using: &random)] = 12  // the long key
                default: keys = base
                }
                last = keys
                return keys
            }
        }

        /// The file: object 0 the top array, 1… the key pool, 17… the
        /// integers 0…9, then the dictionaries (each nested one after its
        /// parent) and the bad strings, references two bytes wide.
        var bytes: [UInt8] {
            let keyBase = 1, integerBase = 1 + BinarySiblingKeysTests.keyPool.count
            var objects: [[UInt8]] = [[]]
            objects += BinarySiblingKeysTests.keyPool.map(BinarySiblingKeysTests.keyObject)
            objects += (0...9).map { [0x10, UInt8($0)] }
            func ref(_ index: Int) -> [UInt8] { bigEndian(UInt64(index), width: 2) }
            func count(_ marker: UInt8, _ count: Int) -> [UInt8] {
                count < 15 ? [marker | UInt8(count)] : [marker | 0x0F, 0x11] + bigEndian(UInt64(count), width: 2)
            }
            func write(_ members: [(key: Int, value: Member)]) -> Int {
                let at = objects.count
                objects.append([])
                var values: [Int] = []
                for member in members {
                    switch member.value {
                    case .integer(let n): values.append(integerBase + Int(n))
                    case .badString: values.append(objects.count); objects.append([0x51, 0xFF])
                    case .dictionary(let nested): values.append(write(nested))
                    }
                }
                objects[at] = count(0xD0, members.count) + members.flatMap { ref(keyBase + $0.key) } + values.flatMap(ref)
                return at
            }
            let tops = dictionaries.map(write)
            objects[0] = count(0xA0, tops.count) + tops.flatMap(ref)
            return bplist(objects, referenceSize: 2)
        }

        /// What the reader must answer, worked out from Swift's `String`
        /// equality in the reader's order: a member's value before its key
        /// goes in; an error in a value names its key, a repeated key names
        /// its dictionary.
        func expected() -> Result<PropertyListValue, Refusal> {
            var array: [PropertyListValue] = []
            for (position, members) in dictionaries.enumerated() {
                switch Self.expected(members, path: PropertyListKeyPath([.index(position)])) {
                case .success(let value): array.append(value)
                case .failure(let refusal): return .failure(refusal)
                }
            }
            return .success(.array(array))
        }

        static func expected(_ members: [(key: Int, value: Member)], path: PropertyListKeyPath) -> Result<PropertyListValue, Refusal> {
            var dictionary = PropertyListDictionary()
            for member in members {
                let key = BinarySiblingKeysTests.keyPool[member.key]
                let value: PropertyListValue
                switch member.value {
                case .integer(let n): value = .integer(PropertyListInteger(Int64(n)))
                case .badString: return .failure(Refusal(code: .invalidASCII, keyPath: path.appending(.key(key))))
                case .dictionary(let nested):
                    switch expected(nested, path: path.appending(.key(key))) {
                    case .success(let nestedValue): value = nestedValue
                    case .failure(let refusal): return .failure(refusal)
                    }
                }
                guard dictionary.insertNew(value, forKey: key) else {
                    return .failure(Refusal(code: .duplicateKey, keyPath: path))
                }
            }
            return .success(.dictionary(dictionary))
        }
    }

    struct Refusal: Error, Equatable {
        var code: PropertyListError.Code
        var keyPath: PropertyListKeyPath
    }

    /// Every key of `value`'s dictionaries, spelled scalar by scalar.
    static func spellings(_ value: PropertyListValue) -> [[Unicode.Scalar]] {
        switch value {
        case .array(let members): return members.flatMap(spellings)
        case .dictionary(let dictionary):
            return dictionary.keys.map { Array($0.unicodeScalars) } + dictionary.values.flatMap(spellings)
        default: return []
        }
    }

    @Test("2,000 documents of sibling dictionaries: the outcome and key path Swift's String equality gives")
    func siblingDocuments() throws {
        var random = TestRandom(seed: 46_2)
        var shared = 0, valid = 0, refusals: [PropertyListError.Code: Int] = [:]
        for _ in 0..<2_000 {
            let document = Document.random(using: &random)
            let bytes = document.bytes
            let outcome: Result<PropertyListValue, Refusal>
            do {
                outcome = .success(try BinaryPropertyListReader().read(bytes))
            } catch {
                outcome = .failure(Refusal(code: error.code, keyPath: error.keyPath))
            }
            let expected = document.expected()
            #expect(outcome == expected, "\(random)")
            guard case .success(let value) = outcome, case .success(let wanted) = expected else {
                if case .failure(let refusal) = expected { refusals[refusal.code, default: 0] += 1 }
                continue
            }
            valid += 1
            #expect(Self.spellings(value) == Self.spellings(wanted), "\(random)")
            // Siblings with the same key references share one key array, and
            // every key is found through the shared index.
            let tops = try #require(value.arrayValue).compactMap(\.dictionaryValue)
            for (position, dictionary) in tops.enumerated() {
                for (key, member) in zip(dictionary.keys, dictionary.values) { #expect(dictionary[key] == member) }
                guard position > 0, document.dictionaries[position].map(\.key) == document.dictionaries[position - 1].map(\.key)
                else { continue }
                #expect(StorageIdentity(dictionary.keys) == StorageIdentity(tops[position - 1].keys), "\(random)")
                shared += 1
            }
        }
        // The draw reaches every path: shared keys, valid documents, both refusals.
        let duplicates = refusals[.duplicateKey, default: 0], badValues = refusals[.invalidASCII, default: 0]
        #expect(shared > 5_000 && valid > 800 && duplicates > 200 && badValues > 40,
                "shared \(shared), valid \(valid), duplicateKey \(duplicates), invalidASCII \(badValues)")
    }

    @Test("a dictionary sharing its sibling's keys changes alone")
    func sharedKeysCopyOnWrite() throws {
        // Three dictionaries over the same ten key objects (indexed) and two over the same three (scanned).
        let ten = Array(0..<10), three = [0, 1, 2]
        var document = Document()
        document.dictionaries = [ten, ten, ten, three, three].map { $0.map { ($0, .integer(UInt8($0 % 10))) } }
        let value = try BinaryPropertyListReader().read(document.bytes)
        var dictionaries = try #require(value.arrayValue).compactMap(\.dictionaryValue)
        #expect(StorageIdentity(dictionaries[0].keys) == StorageIdentity(dictionaries[2].keys))
        #expect(StorageIdentity(dictionaries[3].keys) == StorageIdentity(dictionaries[4].keys))
        dictionaries[1]["new"] = .bool(true)
        dictionaries[1]["k0"] = nil
        dictionaries[4]["k2"] = .bool(false)
        dictionaries[4]["new"] = .bool(true)
        for untouched in [dictionaries[0], dictionaries[2]] {
            #expect(untouched.count == 10 && untouched["new"] == nil && untouched["k0"] == .integer(0))
            for key in ten.map({ "k\($0)" }) { #expect(untouched[key] != nil) }
        }
        #expect(dictionaries[1].count == 10 && dictionaries[1]["new"] == .bool(true) && dictionaries[1]["k0"] == nil)
        #expect(dictionaries[1]["k9"] == .integer(9))
        #expect(dictionaries[3].count == 3 && dictionaries[3]["new"] == nil && dictionaries[3]["k2"] == .integer(2))
        #expect(dictionaries[4].count == 4 && dictionaries[4]["k2"] == .bool(false))
    }
}
