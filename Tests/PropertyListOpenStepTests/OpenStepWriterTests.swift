import Foundation
import PropertyBased
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

/// Specs/openstep.md, "Writer".
@Suite("OpenStep writer")
struct OpenStepWriterTests {
    static func text(_ value: PropertyListValue, style: OpenStepWriter.Style = .propertyList) throws -> String {
        String(decoding: try OpenStepWriter(style: style).write(value), as: UTF8.self)
    }

    @Test("Xcode's layout: tabs, key = value;, one element per line with a trailing comma, quotes only where needed")
    func layout() throws {
        let value: PropertyListValue = .dictionary([
            "name": "a b", "path": "Sources/main.swift", "empty": "", "list": .array(["x", "y\n\"z\""]),
            "nested": .dictionary(["k": .data(Data([0x0F, 0xA1, 0x2B, 0xFF, 0x00]))]), "none": .array([]), "comment": "a//b",
        ])
        let expected = """
        {
        \tcomment = "a//b";
        \tempty = "";
        \tlist = (
        \t\tx,
        \t\t"y\\n\\"z\\"",
        \t);
        \tname = "a b";
        \tnested = {
        \t\tk = <0fa12bff 00>;
        \t};
        \tnone = (
        \t);
        \tpath = Sources/main.swift;
        }

        """
        #expect(try Self.text(value) == expected)
        #expect(try Self.text(.string("plain")) == "plain\n")
        #expect(try Self.text(.dictionary(["b": "2", "a": "1"]), style: .strings) == "\"a\" = \"1\";\n\"b\" = \"2\";\n")
    }

    @Test("GNUstep typed forms for integers, reals, booleans and whole-second dates; what OpenStep cannot hold is refused")
    func typedForms() throws {
        #expect(try Self.text(.array([.integer(-12), .real(1.5), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 10))]))
                == "(\n\t<*I-12>,\n\t<*R1.5>,\n\t<*BY>,\n\t<*D2001-01-01 00:00:10 +0000>,\n)\n")
        #expect(throws: PropertyListError(.invalidDate, "")) { try OpenStepWriter().write(.date(Date(timeIntervalSinceReferenceDate: 0.5))) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter().write(.array([.uid(1)])) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter().write(.real(.nan)) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter(style: .strings).write(.dictionary(["a": .integer(1)])) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter(style: .strings).write(.array([])) }
    }

    /// A generated value with what OpenStep cannot carry replaced: dates to whole seconds, no NaN.
    static func representable(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
            return abs(seconds) < 3e10 ? .date(Date(timeIntervalSinceReferenceDate: seconds)) : .string("date")
        case .real(let real): return real.isFinite ? value : .real(0.5)
        case .uid, .null: return .string("x")
        case .array(let elements): return .array(elements.map(representable))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(representable))
        default: return value
        }
    }

    @Test("property: value → OpenStep → value is exact, and writing is deterministic (both key orders)")
    func roundTrip() async {
        await propertyCheck(count: 300, input: ValueGenerator(allowNull: false).generator) { generated in
            let value = Self.representable(generated)
            for order in KeyOrder.allCases {
                var writer = OpenStepWriter()
                writer.keyOrder = order
                let text = try writer.write(value)
                let back = try OpenStepReader().read(text)
                #expect(back == value, "\(String(decoding: text, as: UTF8.self))")
                #expect(try writer.write(back) == text)
            }
        }
    }
}

/// Python's `openstep_parser` (the parser of mod-pbxproj) as a reading peer for
/// our OpenStep output: strings, arrays and dictionaries (it reads data as text
/// and has no typed forms). `.ci/setup` installs it.
@Suite("OpenStep writer against Python's openstep_parser")
struct OpenStepPeerTests {
    /// A generated value with only what the peer reads: strings, arrays,
    /// dictionaries; no controls but line feed and tab, no DEL, U+2028 or
    /// U+2029 (we write those as `\r` or `\Uxxxx`, which the peer does not read).
    static func stringsOnly(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .string(let string):
            var kept = String.UnicodeScalarView()
            for scalar in string.unicodeScalars where !(scalar.value < 0x20 && !["\n", "\t"].contains(scalar)) && scalar.value != 0x7F && scalar != "\u{2028}" && scalar != "\u{2029}" {
                kept.append(scalar)
            }
            return .string(String(kept))
        case .array(let elements): return .array(elements.map(stringsOnly))
        case .dictionary(let dictionary):
            // The peer leaves escapes in keys as written: keys that need none.
            var result = PropertyListDictionary()
            for (key, member) in dictionary {
                var plain = String.UnicodeScalarView()
                for scalar in key.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\\" && scalar != "\"" && scalar != "\u{2028}" && scalar != "\u{2029}" {
                    plain.append(scalar)
                }
                result[String(plain)] = stringsOnly(member)
            }
            return .dictionary(result)
        case .integer(let integer): return .string(integer.description)
        default: return .string("x")
        }
    }

    @Test("openstep_parser reads our output of generated values to the same strings, arrays and dictionaries")
    func peerReadsOurs() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (18, 19, 20, 21))
        var count = 0
        for index in 0..<120 {
            let value = Self.stringsOnly(ValueGenerator(allowNull: false).value(depth: 0, using: &rng))
            guard case .dictionary = value else { continue }
            try OpenStepWriter().write(value).write(to: directory.appendingPathComponent("\(index).txt"))
            try PlainJSONText.write(value).write(to: directory.appendingPathComponent("\(index).json"))
            count += 1
        }
        #expect(count >= 10)
        let script = """
        import json, os, sys
        from openstep_parser import OpenStepDecoder
        bad = []
        for name in sorted(os.listdir(sys.argv[1])):
            if not name.endswith(".txt"): continue
            stem = os.path.join(sys.argv[1], name[:-4])
            with open(stem + ".txt", encoding="utf-8") as f: text = f.read()
            try:
                ours = OpenStepDecoder.ParseFromString(text)
            except Exception as error:
                print("peer refused", name, repr(text[:200]), error, file=sys.stderr); bad.append(name); continue
            with open(stem + ".json", encoding="utf-8") as f: expected = json.load(f)
            if ours != expected:
                bad.append(name)
                print("differs", name, repr(ours)[:300], repr(expected)[:300])
        print("mismatches:", bad)
        """
        let result = try run("/usr/bin/env", ["python3", "-c", script, directory.path])
        try #require(result.status == 0, "openstep_parser peer failed: \(String(decoding: result.stderr, as: UTF8.self))")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "mismatches: []\n")
    }
}

/// Plain JSON of a strings-only value, for the peer to compare with.
enum PlainJSONText {
    static func write(_ value: PropertyListValue) -> Data {
        func text(_ value: PropertyListValue) -> String {
            switch value {
            case .string(let string):
                var out = "\""
                for scalar in string.unicodeScalars {
                    switch scalar {
                    case "\"": out += "\\\""
                    case "\\": out += "\\\\"
                    case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                    default: out.unicodeScalars.append(scalar)
                    }
                }
                return out + "\""
            case .array(let elements): return "[" + elements.map(text).joined(separator: ",") + "]"
            case .dictionary(let dictionary): return "{" + dictionary.map { text(.string($0.key)) + ":" + text($0.value) }.joined(separator: ",") + "}"
            default: return "null"
            }
        }
        return Data(text(value).utf8)
    }
}
