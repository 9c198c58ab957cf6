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
}
