import Foundation
import PropertyBased
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// The XML reader's fast paths (Specs/xml-plist.md, "Reader speed") read exactly
/// what the general paths read: reals through Clinger's fast path, keys reused
/// from a sibling dictionary (with their hashes), array members moved off the
/// value stack, and NUL bytes refused before libxml2's pull parser sees them.
@Suite("XML reader fast paths")
struct XMLFastPathTests {
    /// A decimal text: sign, digits, fraction, exponent, in the shapes that
    /// straddle the fast path's bounds (15 to 25 significant digits, leading and
    /// trailing zeros, exponents around ±22 and far beyond).
    static func decimalText(_ rng: inout Xoshiro) -> String {
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) }) }
        var text = ["", "-", "+"][Int.random(in: 0...2, using: &rng)]
        switch Int.random(in: 0...4, using: &rng) {
        case 0: text += digits(Int.random(in: 1...20, using: &rng))
        case 1: text += digits(Int.random(in: 0...3, using: &rng)) + "." + digits(Int.random(in: 1...22, using: &rng))
        case 2: text += "0.000" + digits(Int.random(in: 1...19, using: &rng))
        case 3: text += digits(Int.random(in: 1...8, using: &rng)) + "00000000000." + digits(Int.random(in: 0...12, using: &rng)) + "000"
        default: text += digits(Int.random(in: 1...17, using: &rng)) + "." + digits(Int.random(in: 0...4, using: &rng))
        }
        if Int.random(in: 0...2, using: &rng) == 0 {
            let exponent = [Int.random(in: -25...25, using: &rng), Int.random(in: -330...310, using: &rng)][Int.random(in: 0...1, using: &rng)]
            text += (Bool.random(using: &rng) ? "e" : "E") + String(exponent)
        }
        return text
    }

    @Test("reals: the fast path reads every decimal text to the same bits as the C library's strtod")
    func realsMatchStrtod() throws {
        var rng = Xoshiro(seed: (19, 23, 29, 31))
        var checked = 0
        var fast = 0
        for _ in 0..<20_000 {
            let text = Self.decimalText(&rng)
            // Swift's Double(String) is strtod in the C locale; infinite results are refused by the rule.
            guard let expected = Double(text), expected.isFinite else {
                #expect(xmlError(plist("<real>\(text)</real>"))?.code == .invalidReal, "\(text)")
                continue
            }
            let read = try XMLPropertyListReader().read(plist("<real>\(text)</real>")).realValue
            #expect(read?.bitPattern == expected.bitPattern, "\(text): \(String(describing: read)) vs \(expected)")
            checked += 1
            if text.filter(\.isNumber).count <= 15 { fast += 1 }
        }
        // Both paths were exercised.
        #expect(checked > 15_000 && fast > 3_000)
    }

    @Test("reals: the fast path's edges — 2^53, 10^22, negative zero, 19 and 20 digits")
    func realEdges() throws {
        for text in ["9007199254740992", "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "-0", "-0.0e5",
                     "1234567890123456789", "12345678901234567890", "0.1", "0.3", "123456789012345.6", "4.9e-324", "1.7976931348623157e308",
                     // 64 bytes and more: past the bridge's buffer, through a String to the same strtod
                     "0." + String(repeating: "1234567", count: 10), String(repeating: "9", count: 80) + "e-70"] {
            let expected = try #require(Double(text))
            #expect(try XMLPropertyListReader().read(plist("<real>\(text)</real>")).realValue?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    /// Dictionaries of one kind in an array: each leaves out some keys of a
    /// shared list, so a sibling's keys line up, shift by one, or do not match.
    static func records(_ rng: inout Xoshiro, count: Int, keys: [String]) -> PropertyListValue {
        var array: [PropertyListValue] = []
        for index in 0..<count {
            var entries: [(String, PropertyListValue)] = []
            for key in keys where Int.random(in: 0...5, using: &rng) != 0 {
                entries.append((key, .integer(PropertyListInteger(index))))
            }
            if Int.random(in: 0...4, using: &rng) == 0 { entries.shuffle(using: &rng) }
            array.append(.dictionary(PropertyListDictionary(uniqueKeysWithValues: entries)))
        }
        return .array(array)
    }

    @Test("records of one kind: keys reused from the sibling before read to equal dictionaries whose lookups work, small and indexed")
    func siblingKeys() throws {
        var rng = Xoshiro(seed: (3, 1, 4, 1))
        let keys = (0..<30).map { "field \($0) " + String(repeating: "x", count: $0 % 20) }
        for size in [3, 8, 9, 12, 30] {
            let value = Self.records(&rng, count: 200, keys: Array(keys.prefix(size)))
            var writer = XMLPropertyListWriter()
            writer.keyOrder = .insertion
            let bytes = try writer.writeBytes(value)
            let read = try XMLPropertyListReader().read(bytes)
            #expect(read == value)
            // Every key is found through the dictionary's own lookup (the index, past eight keys).
            for (original, decoded) in zip(value.arrayValue!, read.arrayValue!) {
                for (key, member) in original.dictionaryValue! {
                    #expect(decoded.dictionaryValue?[key] == member, "\(key)")
                }
                #expect(decoded.dictionaryValue?["absent"] == nil)
            }
        }
    }

    @Test("records of one kind: a key repeated where the sibling's key lines up is still duplicateKey")
    func siblingDuplicate() throws {
        for count in [3, 12] {
            let first = (0..<count).map { "<key>k\($0)</key><true/>" }.joined()
            var second = (0..<count).map { "<key>k\($0)</key><true/>" }
            second[count - 1] = "<key>k\(count - 2)</key><true/>"
            let error = xmlError(plist("<array><dict>\(first)</dict><dict>\(second.joined())</dict></array>"))
            #expect(error?.code == .duplicateKey, "\(count)")
            #expect(error?.keyPath.description == "[1]", "\(count)")
        }
    }

    /// A dictionary whose keys are all its sibling's, each found past the one
    /// before, skips comparing them (they are distinct keys of a checked
    /// dictionary); one key that is not the sibling's, or is found out of
    /// order, brings the comparisons back. Keys spelled differently but equal
    /// as strings (NFC and NFD "é", "K" and the Kelvin sign) and exact repeats
    /// must still be duplicateKey, wherever they fall, small or indexed.
    @Test("records of one kind: keys equal to an earlier key, spelled alike or not, are duplicateKey whatever the sibling holds")
    func siblingEquivalentDuplicates() throws {
        var rng = Xoshiro(seed: (7, 5, 3, 2))
        let pool = ["a", "b", "c", "\u{E9}", "e\u{301}", "K", "\u{212A}", "d", "f", "g", "h", "i", "j", "l", "m"]
        var refused = 0
        for _ in 0..<4_000 {
            // The sibling: keys distinct as strings, in a random order.
            var sibling: [String] = []
            for key in pool.shuffled(using: &rng) where Int.random(in: 0...3, using: &rng) != 0 && !sibling.contains(key) {
                sibling.append(key)
            }
            // The dictionary after it: mostly the sibling's keys in its order, some
            // left out, some taken from the pool (equal spellings and repeats among them).
            var keys: [String] = []
            for key in sibling {
                switch Int.random(in: 0...9, using: &rng) {
                case 0: continue
                case 1: keys.append(pool.randomElement(using: &rng)!)
                default: keys.append(key)
                }
            }
            if Int.random(in: 0...2, using: &rng) == 0 { keys.insert(pool.randomElement(using: &rng)!, at: Int.random(in: 0...keys.count, using: &rng)) }
            func dict(_ keys: [String]) -> String { "<dict>" + keys.map { "<key>\($0)</key><true/>" }.joined() + "</dict>" }
            let bytes = plist("<array>\(dict(sibling))\(dict(keys))</array>")
            let repeated = Set(keys).count < keys.count  // Swift's String equality: canonical equivalence
            let error = xmlError(bytes)
            if repeated {
                refused += 1
                #expect(error?.code == .duplicateKey, "\(sibling) then \(keys)")
                #expect(error?.keyPath.description == "[1]", "\(sibling) then \(keys)")
            } else {
                #expect(error == nil, "\(sibling) then \(keys): \(String(describing: error))")
            }
        }
        // Both outcomes, small and indexed dictionaries, were met.
        #expect(refused > 500 && refused < 3_500)
    }

    @Test("arrays: members of nested arrays and dictionaries keep their order and their array's key path")
    func nestedArrays() throws {
        let value = PropertyListValue.array([
            .array([.integer(1), .array([.string("a"), .array([])]), .integer(2)]),
            .dictionary(["x": .array([.bool(true), .array([.real(1.5)])])]),
            .array([]),
        ])
        #expect(try XMLPropertyListReader().read(try XMLPropertyListWriter().writeBytes(value)) == value)
        let error = xmlError(plist("<array><array><true/><dict><key>k</key><array><false/><integer>x</integer></array></dict></array></array>"))
        #expect(error?.code == .invalidInteger)
        #expect(error?.keyPath.description == "[0][1].k[1]")
    }

    @Test("a NUL byte anywhere is malformedXML with its line and column, after the root too (libxml2's pull parser would stop there)")
    func nulBytes() throws {
        for (bytes, line, column) in [(Array("<plist><true/></plist>".utf8) + [0], 1, 23),
                                      (Array("<plist>\n<true/>\n</plist>\n".utf8) + [0] + Array("<junk/>".utf8), 4, 1),
                                      (Array("<plist><string>a".utf8) + [0] + Array("</string></plist>".utf8), 1, 17)] {
            let error = xmlError(bytes)
            #expect(error?.code == .malformedXML)
            #expect(error?.location == .lineColumn(line: line, column: column))
        }
    }
}
