import DocumentFormats
import Foundation
import PropertyList
import PropertyListOpenStep
import Testing
import UserInfo

/// The format layer's detection (Specs/plistkit.md, "Input formats";
/// Specs/architecture.md, "Format layer"): the first character after a
/// byte-order mark and whitespace decides, in every encoding.
@Suite("Format detection past a byte-order mark")
struct DetectionTests {
    static func utf16(_ text: String, littleEndian: Bool) -> [UInt8] {
        (littleEndian ? TextEncoding.utf16LittleEndian : .utf16BigEndian).encode(text)
    }

    @Test("each first character names its format, in UTF-8 with and without a mark and in UTF-16 of both byte orders")
    func firstCharacter() throws {
        // The format among the property lists, and the one tried when OpenStep refuses.
        let cases: [(String, DocumentFormat, DocumentFormat?)] = [
            ("<?xml version=\"1.0\"?><plist/>", .xml, nil), ("\n  <plist version=\"1.0\"><true/></plist>", .xml, nil), ("<!DOCTYPE plist>", .xml, nil),
            ("<0fa1 2b>", .openStep, nil), ("<>", .openStep, nil), ("<*I12>", .openStep, nil), ("< 0f>", .openStep, nil),
            ("[1, 2]", .json, nil), ("{\"a\": 1}", .openStep, .json), ("\"a\" = \"b\";", .openStep, .json),
            ("/* c */ \"a\" = \"b\";", .openStep, nil), ("word", .openStep, nil), ("", .openStep, nil), ("  \n", .openStep, nil),
            ("(a, b)", .openStep, nil), ("MPKey = 1;", .openStep, nil),
        ]
        for (text, format, next) in cases {
            for encoding in TextEncoding.allCases {
                let bytes = encoding.encode(text)
                #expect(DocumentFormat.detect(bytes, among: .propertyLists) == format, "\(text.debugDescription) in \(encoding)")
                #expect(DocumentFormat.detect(bytes, among: .propertyLists, after: format) == next, "\(text.debugDescription) in \(encoding)")
            }
        }
        #expect(DocumentFormat.detect(Array("bplist00".utf8), among: .propertyLists) == .binary)
        #expect(DocumentFormat.detect(Array("bplist00".utf8), among: .propertyLists, after: .binary) == nil)
        // Binary data that is no bplist (an iOS NIBArchive): in no format we read.
        #expect(DocumentFormat.detect(Array("NIBArchive\u{1}\u{0}\u{0}\u{0}".utf8), among: .propertyLists) == nil)
        #expect(throws: PropertyListError(.unknownFormat, "")) { try Document.read(document: Array("NIBArchive\u{1}\u{0}".utf8)) }
        // A NUL anywhere, not only in the first 4 KiB: removing a long entry must not bring it into view
        // (Corpus/regressions/openstep-read-edit-moves-nul-into-view).
        let late = Array(("\"k\" = \"" + String(repeating: "x", count: 5000) + "\u{0}\";").utf8)
        #expect(DocumentFormat.detect(late, among: .propertyLists) == nil)
        #expect(throws: PropertyListError(.unknownFormat, "")) { try Document.read(document: late) }
        #expect(DocumentFormat.detect(TextEncoding.utf16LittleEndian.encode("a = b;"), among: .propertyLists) == .openStep)
        // UTF-16 without a mark: only XML declares it (and the XML reader refuses it by name).
        #expect(DocumentFormat.detect([0x3C, 0x00, 0x3F, 0x00], among: .propertyLists) == .xml)
        #expect(DocumentFormat.detect([0x3C, 0x00, 0x3F, 0x00]) == .xml)
        #expect(DocumentFormat.detect(Self.utf16("<plist/>", littleEndian: true)) == .xml)
        #expect(DocumentFormat.detect(Self.utf16("/* x */ \"a\" = \"b\";", littleEndian: false)) == nil)
        #expect(DocumentFormat.detect(Self.utf16(" \n\t<plist/>", littleEndian: false)) == .xml)
        // Among the signatures `<` is XML whatever follows; among the property lists `<0` is OpenStep data.
        #expect(DocumentFormat.detect(Array("<dict/>".utf8)) == .xml)
        #expect(DocumentFormat.detect(Array("<dict/>".utf8), among: .propertyLists) == .openStep)
        #expect(DocumentFormat.detect(Array("<plist/>".utf8), among: .signatures, after: .xml) == nil)
    }

    @Test("each format reads to its value and says what it was; an edit needs no more to write it back")
    func readings() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>a</key><string>b</string></dict></plist>\n"
        let cases: [([UInt8], DocumentFormat, TextEncoding?)] = [
            (Array(xml.utf8), .xml, nil),
            (Self.utf16(xml.replacingOccurrences(of: "UTF-8", with: "UTF-16"), littleEndian: true), .xml, nil),
            (Array("{\"a\": \"b\"}".utf8), .json, nil),
            (TextEncoding.utf8WithByteOrderMark.encode("{\"a\": \"b\"}"), .json, nil),
            (Self.utf16("{\"a\": \"b\"}", littleEndian: false), .json, nil),
            (Array("{ a = b; }".utf8), .openStep, .utf8),
            (Self.utf16("\"a\" = \"b\";", littleEndian: true), .strings, .utf16LittleEndian),
            (TextEncoding.utf8WithByteOrderMark.encode("/* x */\na = b;"), .strings, .utf8WithByteOrderMark),
            (Array("// !$*UTF8*$!\n{ objects = { A = { isa = PBXGroup; a = b; }; }; rootObject = A; a = b; }".utf8), .xcodeProject, .utf8),
            // Without Xcode's first line it is OpenStep text, not a project.
            (Array("{ objects = { A = { isa = PBXGroup; a = b; }; }; rootObject = A; a = b; }".utf8), .openStep, .utf8),
        ]
        for (bytes, format, encoding) in cases {
            let reading = try Document.read(document: bytes)
            #expect(reading.format == format && reading.textEncoding == encoding, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(reading.value["a"] == "b")
        }
        // Texts both JSON and OpenStep read alike stay OpenStep (plutil tries CoreFoundation first).
        #expect(try Document.read(document: Array("{}".utf8)).format == .openStep)
        #expect(try Document.read(document: Array("\"x\"".utf8)).value == "x")
        // A comment-only text is an empty .strings file; no characters at all is truncated.
        let empty = try Document.read(document: TextEncoding.utf16LittleEndian.encode("/* InfoPlist.strings */\n"))
        #expect(empty.value == .dictionary([:]) && empty.format == .strings)
        for bytes: [UInt8] in [[], [0xFF, 0xFE]] {
            #expect(throws: PropertyListError(.truncated, "")) { try Document.read(document: bytes) }
        }
        // The property-list reader the payload layer uses still reads binary and XML only.
        #expect(throws: PropertyListError(.unknownFormat, "")) { try Document.read(any: Self.utf16("\"a\" = \"b\";", littleEndian: true)) }
    }

    @Test("when JSON and OpenStep both refuse a text, the error of the one that read further")
    func furtherError() throws {
        #expect(throws: PropertyListError(.invalidJSON, "")) { try Document.read(document: Array(#"{"a": [1, 2"#.utf8)) }
        #expect(throws: PropertyListError(.unexpectedCharacter, "")) { try Document.read(document: Array("{ a = (1, 2); b = c }".utf8)) }
    }

    @Test("one format name for every format: the magic ones detected, each that holds a property list read and written by name, the wire forms refused by name")
    func oneFormatName() throws {
        let mp = [UInt8](try UserInfoWireForm.mp.encode(["a": "b"]))
        #expect(DocumentFormat.detect(Array("bplist00".utf8)) == .binary)
        #expect(DocumentFormat.detect(mp) == .mpUserInfo)
        #expect(DocumentFormat.detect([0x01, 0x00, 0x00, 0x00, 0x00]) == .activityContainer)
        #expect(DocumentFormat.detect([0x0F, 0x00, 0x00, 0x00]) == .activityContainer)
        #expect(DocumentFormat.detect(Array("\u{FEFF} <plist/>".utf8)) == .xml)
        #expect(DocumentFormat.detect(Array("{ a = b; }".utf8)) == nil)
        // `MP` starts an MP userInfo among the signatures, an OpenStep text among the property lists.
        #expect(DocumentFormat.detect(mp, among: .propertyLists) == .openStep)
        #expect(DocumentFormat.detect(Array("MPKey = 1;".utf8)) == .mpUserInfo)
        #expect(try Document.read(document: Array("MPKey = 1;".utf8)).format == .strings)
        #expect(DocumentFormat.allCases.filter { !$0.holdsPropertyList } == [.mpUserInfo, .activityContainer])
        let value: PropertyListValue = ["a": "b"]
        for format in DocumentFormat.allCases where format.holdsPropertyList && format != .xcodeProject {
            let bytes = try Document.writeBytes(value, as: format)
            #expect(try Document.read(bytes, as: format) == value, "\(format)")
        }
        for format in DocumentFormat.allCases where !format.holdsPropertyList {
            #expect(throws: PropertyListError(.unrepresentableValue, "")) { try Document.writeBytes(value, as: format) }
            #expect(throws: PropertyListError(.unknownFormat, "")) { try Document.read(mp, as: format) }
        }
        // A userInfo is encoded as a binary or XML property list only (what decoding reads).
        for format in DocumentFormat.allCases {
            let encoded = Result { try UserInfoCodec().encode(["a": "b"], format: format) }
            if format == .binary || format == .xml {
                #expect(try UserInfoCodec().decode(encoded.get()) == ["a": "b"], "\(format)")
            } else {
                #expect(throws: UserInfoError(.unrepresentableValue, "")) { try encoded.get() }
            }
        }
        // An MP userInfo is no property list for read(any:) either.
        #expect(throws: PropertyListError(.unknownFormat, "")) { try Document.read(any: mp) }
        // Typed JSON read by name keeps its reader's error code.
        #expect(throws: PropertyListError(.invalidJSON, "")) { try Document.read(Array("{\"a\": ".utf8), as: .typedJSON) }
    }
}
