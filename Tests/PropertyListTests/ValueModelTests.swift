import Foundation
import PropertyList
import TestSupport
import Testing

@Suite("Value model")
struct ValueModelTests {
    @Test("integers keep the exact range Int64 ∪ UInt64")
    func integerRange() {
        #expect(PropertyListInteger(UInt64.max).uint64Value == UInt64.max)
        #expect(PropertyListInteger(UInt64.max).int64Value == nil)
        #expect(PropertyListInteger(Int64.min).uint64Value == nil)
        #expect(PropertyListInteger(UInt64(5)) == PropertyListInteger(Int64(5)))
        #expect(PropertyListInteger(exactly: Int128(1) << 64) == nil)
        #expect(PropertyListInteger(exactly: -(Int128(1) << 63) - 1) == nil)
        #expect(PropertyListInteger(decimal: "18446744073709551615")?.uint64Value == UInt64.max)
        #expect(PropertyListInteger(decimal: "18446744073709551616") == nil)
        #expect(PropertyListInteger(decimal: "-9223372036854775809") == nil)
        #expect(PropertyListInteger(decimal: "-9223372036854775808")?.int64Value == Int64.min)
        #expect(PropertyListInteger(Int64(-1)) < PropertyListInteger(UInt64.max))
        #expect(PropertyListInteger(UInt64.max).description == "18446744073709551615")
    }

    @Test("strings compare by Unicode scalars, not canonical equivalence")
    func exactStrings() {
        let composed: PropertyListValue = "\u{E9}"
        let decomposed: PropertyListValue = "e\u{301}"
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
    }

    @Test("reals and dates compare by bit pattern")
    func exactReals() {
        #expect(PropertyListValue.real(0.0) != .real(-0.0))
        #expect(PropertyListValue.real(.nan) == .real(.nan))
        #expect(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: 0)) != .date(Date(timeIntervalSinceReferenceDate: -0.0)))
        #expect(PropertyListValue.integer(1) != .real(1) && PropertyListValue.bool(true) != .integer(1))
    }

    @Test("dictionaries: insertion order kept, equality and hash ignore it")
    func dictionaryOrder() {
        var a = PropertyListDictionary()
        a["z"] = 1
        a["a"] = 2
        let b: PropertyListDictionary = ["a": 2, "z": 1]
        #expect(a.keys == ["z", "a"])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a.sortedKeys == ["a", "z"])
        let inserted = a.insertNew(3, forKey: "z")
        #expect(!inserted)
        #expect(a["z"] == 1)
    }

    @Test("sorted keys follow UTF-16 code units, as CoreFoundation sorts")
    func utf16Order() {
        let keys = ["ｚ", "😀", "é", "z", "B", "a", ""]
        let dictionary = PropertyListDictionary(uniqueKeysWithValues: keys.map { ($0, PropertyListValue.bool(true)) })
        // Linux Foundation's XML writer printed this order for the same keys.
        #expect(dictionary.sortedKeys == ["", "B", "a", "z", "é", "😀", "ｚ"])
    }

    @Test("key paths print readably and unambiguously")
    func keyPaths() {
        let path = PropertyListKeyPath([.key("items"), .index(3), .key("name")])
        #expect(path.description == "items[3].name")
        #expect(PropertyListKeyPath([.key("com.example.version")]).description == "[\"com.example.version\"]")
        #expect(PropertyListKeyPath([.index(0), .key("")]).description == "[0][\"\"]")
        #expect(PropertyListKeyPath.root.description == "(root)")
    }

    @Test("errors are equal by code and describe where")
    func errors() {
        let a = PropertyListError(.duplicateKey, "one", at: .byteOffset(3))
        let b = PropertyListError(.duplicateKey, "two", at: .lineColumn(line: 1, column: 2), keyPath: PropertyListKeyPath([.key("k")]))
        #expect(a == b)
        #expect(a != PropertyListError(.truncated, "one"))
        #expect(b.description == "two (at line 1, column 2, key path k)")
    }

    @Test("literals and typed accessors")
    func literals() {
        let value: PropertyListValue = ["name": "Ada", "age": 36, "ratio": 0.5, "ok": true, "list": [1, 2]]
        #expect(value["name"]?.stringValue == "Ada")
        #expect(value["age"]?.intValue == 36)
        #expect(value["ratio"]?.realValue == 0.5)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["list"]?[1]?.int64Value == 2)
        #expect(value["missing"] == nil)
        #expect(value.typeName == "dict")
    }

    @Test("CivilTime converts both ways, including before 1970 and leap days")
    func civilTime() {
        for (seconds, text) in [(0.0, "2001-01-01T00:00:00Z"), (-978_307_200, "1970-01-01T00:00:00Z"),
                                (604_670_400, "2020-02-29T12:00:00Z"), (-0.5, "2000-12-31T23:59:59.5Z")] {
            let civil = CivilTime(secondsSinceReference: seconds)
            #expect(CivilTime.iso8601(secondsSinceReference: seconds) == text)
            #expect(civil.isValid)
            #expect(Double(civil.secondsSinceReference) == seconds.rounded(.down))
        }
        #expect(!CivilTime(year: 2021, month: 2, day: 29, hour: 0, minute: 0, second: 0).isValid)
        #expect(!CivilTime(year: 2020, month: 1, day: 1, hour: 24, minute: 0, second: 0).isValid)
    }

    /// The XML date's year is read exactly when C's `%04d` (Foundation's
    /// `String(format:)`, the oracle) spells it so; four digits take a path of
    /// their own, so every spelling of up to five characters over digits,
    /// signs and other bytes is checked against the oracle.
    @Test("a date's year reads exactly as %04d spells it")
    func appleYearSpelling() {
        func oracle(_ text: String) -> Int? {
            guard let year = Int(text), String(format: "%04d", year) == text else { return nil }
            return year
        }
        func read(_ text: String) -> Int? {
            var copy = text
            return copy.withUTF8 { CivilTime.appleYear(text: $0.span) }
        }
        for year in stride(from: -99_999, through: 999_999, by: 7) {
            #expect(read(String(format: "%04d", year)) == year)
        }
        let alphabet = ["0", "1", "9", "-", "+", " ", "a"]
        var texts = [""]
        for length in 1...5 {
            texts = texts.flatMap { prefix in alphabet.map { prefix + $0 } }
            let wrong = texts.filter { read($0) != oracle($0) }
            #expect(wrong.isEmpty, "length \(length): \(wrong.prefix(5))")
        }
    }
}
