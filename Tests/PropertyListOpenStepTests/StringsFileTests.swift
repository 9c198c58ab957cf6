import Foundation
import PropertyBased
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

/// `.strings` files as Apple's tools write them (Specs/openstep.md, "Text",
/// "`.strings` files", "Writer"): four encodings, comment-only files, and
/// what an edit needs to write one back as it was.
@Suite(".strings files: encodings and empty files")
struct StringsFileTests {
    static let text = "/* Title */\n\"title\" = \"Fenêtre\";\n\"emoji\" = \"😀\";\n"

    @Test("UTF-8 with and without a mark, UTF-16 in both byte orders: read alike, the encoding reported", arguments: TextEncoding.allCases)
    func encodings(encoding: TextEncoding) throws {
        let bytes = encoding.encode(Self.text)
        #expect(Array(bytes.prefix(encoding.byteOrderMark.count)) == encoding.byteOrderMark)
        #expect(TextEncoding.detect(bytes).encoding == encoding)
        let reading = try OpenStepReader().readText(bytes)
        #expect(reading.value == ["title": "Fenêtre", "emoji": "😀"])
        #expect(reading.encoding == encoding && reading.isStringsFile)
        // Written back in the same encoding, in its own order: the same text but the comment.
        var writer = OpenStepWriter(style: .strings)
        (writer.encoding, writer.keyOrder) = (encoding, .insertion)
        #expect(try writer.writeBytes(reading.value) == encoding.encode("\"title\" = \"Fenêtre\";\n\"emoji\" = \"😀\";\n"))
    }

    @Test("whitespace and comments alone are an empty dictionary (CF, Xcode's template); no characters at all is truncated")
    func emptyTexts() throws {
        for text in ["\n", "  \t\n", "/* InfoPlist.strings */\n", "// one line", "/* a */ // b\n/* c */"] {
            for encoding in TextEncoding.allCases {
                let reading = try OpenStepReader().readText(encoding.encode(text))
                #expect(reading.value == .dictionary([:]) && reading.isStringsFile, "\(text.debugDescription) \(encoding)")
            }
        }
        for bytes: [UInt8] in [[], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]] {
            #expect(throws: PropertyListError(.truncated, "")) { try OpenStepReader().readText(bytes) }
        }
        // A braced dictionary is not a .strings file; nor is one string.
        #expect(try !OpenStepReader().readText(Array("{ a = b; }".utf8)).isStringsFile)
        #expect(try !OpenStepReader().readText(Array("\"a\"".utf8)).isStringsFile)
        // The writer never writes an empty text: an empty .strings file is a line break.
        #expect(try OpenStepWriter(style: .strings).write(.dictionary([:])) == Data("\n".utf8))
        #expect(try OpenStepReader().readText(Array(try OpenStepWriter(style: .strings).write(.dictionary([:])))).value == .dictionary([:]))
    }

    @Test("UTF-16 that is not Unicode is invalidUTF8 with its byte offset")
    func badUTF16() throws {
        #expect(throws: PropertyListError(.invalidUTF8, "")) { try OpenStepReader().readText([0xFF, 0xFE, 0x41]) }
        let lone: [UInt8] = [0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00]
        do {
            _ = try OpenStepReader().readText(lone)
            Issue.record("a lone surrogate was read")
        } catch {
            #expect(error.code == .invalidUTF8 && error.location == .byteOffset(4), "\(error)")
        }
    }

    @Test("property: any dictionary of strings, in any encoding, writes and reads back the same, in its order")
    func roundTrip() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (5, 6, 7, 8))
        let generator = ValueGenerator(allowNull: false)
        for round in 0..<200 {
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int(rng.next() % 6) { _ = dictionary.insertNew(.string(generator.string(using: &rng)), forKey: generator.string(using: &rng)) }
            let encoding = TextEncoding.allCases[round % 4]
            var writer = OpenStepWriter(style: .strings)
            (writer.encoding, writer.keyOrder) = (encoding, .insertion)
            let bytes = try writer.writeBytes(.dictionary(dictionary))
            let reading = try OpenStepReader().readText(bytes)
            #expect(reading.value == .dictionary(dictionary) && reading.encoding == encoding && reading.isStringsFile)
            #expect(reading.value.dictionaryValue.map { Array($0.keys) } == Array(dictionary.keys))
        }
    }

    // MARK: Editing (Specs/openstep.md, "Editing a `.strings` file")

    /// An ibtool export: comments naming each entry's object, a shortcut entry, odd spacing.
    static let ibtool = """
        /* Class = "NSMenuItem"; title = "About"; ObjectID = "58"; */
        "58.title" = "À propos";

        /* Class = "NSMenuItem"; title = "Quit"; ObjectID = "136"; */
        "136.title"   =   "Quitter" ; // trailing
        OK;
        \t"tabbed" = "x";

        """

    static func edit(_ text: String, encoding: TextEncoding = .utf8, _ change: (inout PropertyListDictionary) -> Void) throws -> String? {
        let reading = try OpenStepReader().readText(encoding.encode(text))
        var dictionary = try #require(reading.value.dictionaryValue)
        change(&dictionary)
        var writer = OpenStepWriter(style: .strings)
        writer.encoding = encoding
        let layout = try #require(reading.stringsLayout)
        guard let bytes = try writer.writeStrings(dictionary, over: layout) else { return nil }
        #expect(try OpenStepReader().readText(bytes).value == .dictionary(dictionary))
        #expect(TextEncoding.detect(bytes).encoding == encoding)
        return try TextEncoding.decode(bytes)
    }

    @Test("an edit changes only the entries it changes: comments, spacing and the other entries stay byte for byte")
    func editKeepsTheRest() throws {
        #expect(try Self.edit(Self.ibtool) { _ in } == Self.ibtool)
        #expect(try Self.edit(Self.ibtool) { $0["136.title"] = "Fermer" } == Self.ibtool.replacingOccurrences(of: "\"136.title\"   =   \"Quitter\" ;", with: "\"136.title\" = \"Fermer\";"))
        // A removed entry takes its line when it had it alone; the comment above stays.
        #expect(try Self.edit(Self.ibtool) { $0["58.title"] = nil } == Self.ibtool.replacingOccurrences(of: "\"58.title\" = \"À propos\";\n", with: ""))
        #expect(try Self.edit(Self.ibtool) { $0["tabbed"] = nil } == Self.ibtool.replacingOccurrences(of: "\t\"tabbed\" = \"x\";\n", with: ""))
        // An entry sharing its line with a comment leaves the comment.
        #expect(try Self.edit(Self.ibtool) { $0["136.title"] = nil } == Self.ibtool.replacingOccurrences(of: "\"136.title\"   =   \"Quitter\" ;", with: ""))
        // The shortcut entry: unchanged, it stays a shortcut; changed, it is written out.
        #expect(try Self.edit(Self.ibtool) { $0["OK"] = "D'accord" } == Self.ibtool.replacingOccurrences(of: "OK;", with: "\"OK\" = \"D'accord\";"))
        // New keys at the end, in order.
        #expect(try Self.edit(Self.ibtool) { $0["new"] = "1"; $0["newer"] = "2" } == Self.ibtool + "\"new\" = \"1\";\n\"newer\" = \"2\";\n")
        #expect(try Self.edit("a = b;") { $0["c"] = "d" } == "a = b;\n\"c\" = \"d\";\n")
        // Windows line ends: a removed entry's line goes with its \r\n.
        #expect(try Self.edit("a = b;\r\nc = d;\r\n") { $0["a"] = nil } == "c = d;\r\n")
        // Nothing left: one line break, which reads as an empty .strings file.
        #expect(try Self.edit("a = b;") { $0["a"] = nil } == "\n")
        #expect(try Self.edit("/* only */ a = b;") { $0["a"] = nil } == "/* only */ ")
    }

    @Test("in every encoding; keys out of the file's order (a sorted rewrite) are no edit; a non-string is refused", arguments: TextEncoding.allCases)
    func editEncodings(encoding: TextEncoding) throws {
        #expect(try Self.edit(Self.ibtool, encoding: encoding) { $0["58.title"] = "Infos" }
                == Self.ibtool.replacingOccurrences(of: "\"À propos\"", with: "\"Infos\""))
        #expect(try Self.edit("a = 1; b = 2;", encoding: encoding) { dictionary in
            dictionary = ["b": "2", "a": "1"]
        } == nil)
        #expect(throws: PropertyListError(.unrepresentableValue, "")) {
            try Self.edit("a = 1;", encoding: encoding) { $0["n"] = .integer(1) }
        }
        // A braced dictionary, or a single string, has no .strings layout.
        #expect(try OpenStepReader().readText(encoding.encode("{ a = b; }")).stringsLayout == nil)
    }

    @Test("property: any edit of a generated .strings file reads back as the edited dictionary, keeping every untouched entry's text")
    func editProperty() throws {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (9, 10, 11, 12))
        let generator = ValueGenerator(allowNull: false)
        for round in 0..<150 {
            var lines: [String] = []
            var keys: [String] = []
            for index in 0..<Int(rng.next() % 6) {
                let key = "k\(index)", value = generator.string(using: &rng)
                keys.append(key)
                // The entry as the writer quotes it (its own line, newline dropped).
                let entry = String(decoding: try OpenStepWriter(style: .strings).write([key: .string(value)]).dropLast(), as: UTF8.self)
                lines.append("/* note \(index) */\n" + entry)
            }
            let text = lines.joined(separator: "\n") + "\n"
            let encoding = TextEncoding.allCases[round % 4]
            let edited = try Self.edit(text, encoding: encoding) { dictionary in
                for key in keys where rng.next() % 3 == 0 { dictionary[key] = nil }
                if let key = keys.first, dictionary[key] != nil, rng.next() % 2 == 0 { dictionary[key] = .string(generator.string(using: &rng)) }
                if rng.next() % 2 == 0 { dictionary["added"] = "yes" }
            }
            let result = try #require(edited)
            // Every comment survives.
            for index in keys.indices { #expect(result.contains("/* note \(index) */")) }
        }
    }
}

