import Foundation
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

func openStep(_ text: String, limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
    try OpenStepReader(limits: limits).read(Data(text.utf8))
}

func openStepError(_ text: String, limits: PropertyListLimits = .default) -> PropertyListError? {
    do {
        _ = try openStep(text, limits: limits)
        return nil
    } catch {
        return error
    }
}

/// Specs/openstep.md, rule by rule.
@Suite("OpenStep reader: Specs/openstep.md")
struct OpenStepReaderTests {
    @Test("a project-file-like document: comments, unquoted strings, nested dictionaries and arrays, trailing commas")
    func projectFile() throws {
        let text = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 56;
        \tobjects = {
        /* Begin PBXBuildFile section */
        \t\t1A2B3C4D /* main.swift in Sources */ = {isa = PBXBuildFile; fileRef = 5E6F7A8B /* main.swift */; };
        /* End PBXBuildFile section */
        \t\tFILES = (
        \t\t\t"a b.swift",
        \t\t\tc/d.swift,
        \t\t);
        \t};
        \trootObject = 9C0D1E2F /* Project object */;
        }
        """
        let value = try openStep(text)
        let expected: PropertyListValue = .dictionary([
            "archiveVersion": .string("1"),
            "classes": .dictionary([:]),
            "objectVersion": .string("56"),
            "objects": .dictionary([
                "1A2B3C4D": .dictionary(["isa": .string("PBXBuildFile"), "fileRef": .string("5E6F7A8B")]),
                "FILES": .array([.string("a b.swift"), .string("c/d.swift")]),
            ]),
            "rootObject": .string("9C0D1E2F"),
        ])
        #expect(value == expected)
    }

    @Test("strings, escapes, data, GNUstep typed values")
    func scalars() throws {
        #expect(try openStep(#""tab\there\n\"q\" \'s\' back\\slash""#) == .string("tab\there\n\"q\" 's' back\\slash"))
        #expect(try openStep(#"'single "quoted"'"#) == .string("single \"quoted\""))
        #expect(try openStep(#""\101\60\7""#) == .string("A0\u{07}"))
        #expect(try openStep(#""caf\U00e9 \UD83D\UDE00""#) == .string("café 😀"))
        #expect(try openStep("\"a\\\nb\"") == .string("a\nb"))
        #expect(try openStep("<0fA1 2b\n ff>") == .data(Data([0x0F, 0xA1, 0x2B, 0xFF])))
        #expect(try openStep("<>") == .data(Data()))
        #expect(try openStep("(<*I-12>, <*I18446744073709551615>, <*R1.5>, <*BY>, <*BN>, <*D2001-01-01 00:00:10 +0000>, <*D2001-01-01 01:00:00 +0100>)") == .array([
            .integer(-12), .integer(PropertyListInteger(UInt64.max)), .real(1.5), .bool(true), .bool(false),
            .date(Date(timeIntervalSinceReferenceDate: 10)), .date(Date(timeIntervalSinceReferenceDate: 0)),
        ]))
        #expect(try openStep("unquoted_$/:.-09") == .string("unquoted_$/:.-09"))
        #expect(try openStep("  /* only */ \"one\" // string\n") == .string("one"))
        #expect(try openStep("(a,b,)") == .array(["a", "b"]))
        #expect(try openStep("( )") == .array([]))
    }

    @Test(".strings files: entries without braces, the 'key;' shortcut, comments")
    func stringsFiles() throws {
        let text = """
        /* Greeting */
        "hello" = "Bonjour";
        "bye" = "Au revoir"; // informal
        "OK";
        menu.title = Fichier;
        """
        #expect(try openStep(text) == .dictionary(["hello": "Bonjour", "bye": "Au revoir", "OK": "OK", "menu.title": "Fichier"]))
        #expect(try openStep("\"a\" = \"b\";") == .dictionary(["a": "b"]))
        #expect(openStepError("\"a\" = \"b\"")?.code == .truncated)
    }

    @Test("UTF-8 with a byte-order mark, UTF-16 with either byte-order mark")
    func encodings() throws {
        let text = "{ k = \"é😀\"; }"
        let expected: PropertyListValue = .dictionary(["k": .string("é😀")])
        #expect(try OpenStepReader().read(Data([0xEF, 0xBB, 0xBF] + Array(text.utf8))) == expected)
        let units = Array(text.utf16)
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try OpenStepReader().read(Data(big)) == expected)
        #expect(try OpenStepReader().read(Data(little)) == expected)
        #expect(throws: PropertyListError(.invalidUTF8, "")) { try OpenStepReader().read(Data([0x22, 0xFF, 0x22])) }
        #expect(throws: PropertyListError(.invalidUTF8, "")) { try OpenStepReader().read(Data([0xFE, 0xFF, 0xD8, 0x00])) }
    }

    @Test("every rule has its code, line and column, and key path")
    func rules() {
        let cases: [(String, ErrorCode, Int, Int)] = [
            ("{ a = b }", .unexpectedCharacter, 1, 9),
            ("{ a b; }", .unexpectedCharacter, 1, 5),
            ("(a b)", .unexpectedCharacter, 1, 4),
            ("{ a = ; }", .unexpectedCharacter, 1, 7),
            ("{ a = \"open; }", .unterminatedString, 1, 7),
            ("(a, /* open", .unterminatedComment, 1, 5),
            ("\"\\q\"", .invalidEscape, 1, 2),
            ("\"\\U12\"", .invalidEscape, 1, 2),
            ("\"\\200\"", .invalidEscape, 1, 2),
            ("\"\\UDC00\"", .invalidEscape, 1, 2),
            ("\"\\UD800x\"", .invalidEscape, 1, 2),
            ("<0g>", .invalidHexData, 1, 3),
            ("<012>", .invalidHexData, 1, 1),
            ("<01", .invalidHexData, 1, 1),
            ("<*X1>", .invalidTypedValue, 1, 1),
            ("<*Iabc>", .invalidTypedValue, 1, 1),
            ("<*D2001-02-30 00:00:00 +0000>", .invalidTypedValue, 1, 1),
            ("<*D0000-01-01 00:00:11 +0006>", .invalidTypedValue, 1, 1),
            ("{ a = b;", .truncated, 1, 9),
            ("(", .truncated, 1, 2),
            ("", .truncated, 1, 1),
            ("(a) x", .trailingBytes, 1, 5),
            ("{ a = 1;\n  a = 2; }", .duplicateKey, 2, 8),
        ]
        for (text, code, line, column) in cases {
            let error = openStepError(text)
            #expect(error?.code == code, "\(text): \(String(describing: error))")
            #expect(error?.location == .lineColumn(line: line, column: column), "\(text): \(String(describing: error))")
        }
        let nested = openStepError("{ a = { b = ( x, \"\\q\" ); }; }")
        #expect(nested?.code == .invalidEscape)
        #expect(nested?.keyPath == PropertyListKeyPath([.key("a"), .key("b"), .index(1)]))
    }

    @Test("limits: input, depth (512 pass, 513 refused), members, strings, data, objects, expansion")
    func limits() throws {
        #expect(openStepError("(a)", limits: PropertyListLimits(maxInputBytes: 2))?.code == .inputTooLarge)
        let deep = String(repeating: "(", count: 512) + String(repeating: ")", count: 512)
        #expect(openStepError(deep) == nil)
        #expect(openStepError("(" + deep + ")")?.code == .depthLimitExceeded)
        #expect(openStepError("(a,b,c)", limits: PropertyListLimits(maxCollectionCount: 2))?.code == .collectionLimitExceeded)
        #expect(openStepError("{a=1;b=2;c=3;}", limits: PropertyListLimits(maxCollectionCount: 2))?.code == .collectionLimitExceeded)
        #expect(openStepError("\"abcdef\"", limits: PropertyListLimits(maxStringBytes: 3))?.code == .stringLimitExceeded)
        #expect(openStepError("<00112233>", limits: PropertyListLimits(maxDataBytes: 3))?.code == .dataLimitExceeded)
        #expect(openStepError("(a,b,c)", limits: PropertyListLimits(maxObjects: 3))?.code == .objectLimitExceeded)
        #expect(openStepError("(a,b,c)", limits: PropertyListLimits(maxExpandedBytes: 20, expansionFactor: 0))?.code == .expansionLimitExceeded)
        #expect(openStepError("(a)", limits: PropertyListLimits(maxDepth: 600))?.code == .invalidLimits)
    }

    @Test("512 nested containers read on a thread with a 512 KiB stack (one stack policy)")
    func smallStack() {
        let deep = Data((String(repeating: "{ k = (", count: 256) + "x" + String(repeating: "); }", count: 256)).utf8)
        let ok = onNewThread(stackSize: 512 << 10) { (try? OpenStepReader().read(deep)) != nil }
        #expect(ok)
    }

    @Test("truncation at every character of a document is refused, never read as something else")
    func dripFeed() {
        let text = "{ a = (\"x\\n\", <0102>, <*I5>); b = { c = d; }; \"e f\" = g; }"
        let scalars = Array(text.unicodeScalars)
        for cut in 0..<scalars.count {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: scalars[..<cut])
            let error = openStepError(String(prefix))
            #expect(error != nil, "cut at \(cut) read")
        }
    }
}

/// A project file in Xcode's layout written by mod-pbxproj (a peer;
/// Corpus/golden/openstep/make_pbxproj.py), read to the value mod-pbxproj's own
/// parser reads.
@Suite("OpenStep reader on a peer-written Xcode project")
struct OpenStepGoldenTests {
    @Test("project.pbxproj reads to the peer's value (object comments, sections, one-line entries)")
    func pbxproj() throws {
        let directory = Paths.golden.appendingPathComponent("openstep")
        let value = try OpenStepReader().read(Data(contentsOf: directory.appendingPathComponent("project.pbxproj")))
        let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("project.json")))
        func convert(_ object: Any) -> PropertyListValue {
            if let string = object as? String { return .string(string) }
            if let array = object as? [Any] { return .array(array.map(convert)) }
            if let dictionary = object as? [String: Any] {
                var result = PropertyListDictionary()
                for (key, member) in dictionary { result[key] = convert(member) }
                return .dictionary(result)
            }
            return .null
        }
        #expect(value == convert(expected))
        #expect(value["objects"]?["BBBBBBBBBBBBBBBBBBBBBBBB"]?["sourceTree"] == "<group>")
        // And through our writer and reader again.
        #expect(try OpenStepReader().read(OpenStepWriter().write(value)) == value)
    }
}

@Suite("OpenStep writer in Xcode's project layout")
struct XcodeLayoutTests {
    @Test("a project mod-pbxproj wrote is written back byte for byte")
    func byteForByte() throws {
        let file = Paths.golden.appendingPathComponent("openstep/project.pbxproj")
        let original = try Data(contentsOf: file)
        let value = try OpenStepReader().read(original)
        let written = try OpenStepWriter(style: .xcodeProject).write(value)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: original, as: UTF8.self))
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try OpenStepWriter(style: .xcodeProject).write(.dictionary(["a": "b"])) }
    }
}
