import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Specs/xml-plist.md, "Control characters in strings": Apple's writer puts
/// C0 controls raw into strings; CoreFoundation reads them as themselves,
/// libxml2 refuses the document. We read them as CoreFoundation does, there
/// and nowhere else.
@Suite("XML: raw control characters in strings, as Apple writes them")
struct XMLControlCharacterTests {
    @Test("every C0 control XML forbids, raw in a string or a key, reads as itself (as CoreFoundation reads it)")
    func readAsThemselves() throws {
        for code in UInt8(1)..<0x20 where ![0x09, 0x0A, 0x0D].contains(code) {
            let control = String(UnicodeScalar(code))
            let bytes = plist("<dict><key>k\(control)</key><string>a\(control)b\(control)</string><key>n</key><array><string>\(control)</string></array></dict>")
            let value = try XMLPropertyListReader().read(bytes)
            #expect(value == ["k\(control)": .string("a\(control)b\(control)"), "n": [.string(control)]], "U+\(String(code, radix: 16))")
        }
        // What Xcode 4 wrote: U+0001 and U+001B in an archived NSString, among ordinary text.
        let xcode = plist("<dict><key>NS.string</key><string>Build \u{1B}[1mApp\u{1B}[0m\u{01}</string><key>x</key><string>&amp;&#13;</string></dict>")
        #expect(try XMLPropertyListReader().read(xcode) == ["NS.string": "Build \u{1B}[1mApp\u{1B}[0m\u{01}", "x": "&\r"])
    }

    @Test("anywhere else, or when the document could hide a mark, the document's own refusal stands")
    func refusedElsewhere() throws {
        let documents: [String] = [
            plistText("<integer>1\u{01}</integer>"),                  // in another element's text
            plistText("<dict>\u{01}<key>a</key><true/></dict>"),      // between elements
            plistText("<string>a\u{01}</string><!-- \u{02} -->"),     // in a comment after the root
            plistText("<array><string>\u{01}</string><string>\(Self.firstMark)</string></array>"),  // a mark already there
            plistText("<array><string>\u{01}</string><string>&#xFDD1;</string></array>"),  // a reference that makes one
            plistText("<string>\u{01}</string><string>two roots</string>"),                 // the second parse fails too
            plistText("<dict><key>a\u{01}</key><true/><key>a\u{01}</key><true/></dict>"),  // one key twice once restored (duplicateKey in the second parse)
        ]
        for document in documents {
            // libxml2's refusal, or the grammar's when it saw the text first.
            let code = xmlError(Array(document.utf8))?.code
            #expect(code == .malformedXML || code == .unexpectedText, "\(document.debugDescription): \(String(describing: code))")
        }
        // U+0000 stays refused everywhere, and a raw carriage return stays ambiguous.
        #expect(xmlError(plist("<string>a\u{0}b</string>"))?.code == .malformedXML)
        #expect(xmlError(plist("<string>a\u{01}\rb</string>"))?.code == .ambiguousLineEnding)
        // Noncharacters without a control are read as they are (nothing is marked).
        #expect(try XMLPropertyListReader().read(plist("<string>\(Self.firstMark)&#xFDEF;</string>")) == .string(Self.firstMark + Self.lastMark))
    }

    @Test("Control characters in strings, malformedXML: a noncharacter U+FDD0–U+FDEF made by a numeric character reference, anywhere, keeps the refusal (the marks could collide; issue 42)")
    func referencedMarkRefused() throws {
        // Issue 42's document: the string is U+FDD1 (as CoreFoundation reads it), and a
        // comment after the root names <string> before a raw U+0001, which the scan marked.
        let issue = xml("<plist version=\"1.0\">\n<dict><key>k</key><string>&#xFDD1;</string></dict>\n</plist>\n<!-- <string>\u{01} -->\n")
        #expect(xmlError(issue)?.code == .malformedXML, "read as \(String(describing: try? XMLPropertyListReader().read(issue)))")
        // Every spelling of a reference to a mark: hex in either case, decimal, leading zeros, the first and last marks.
        let spellings = ["&#xFDD1;", "&#64977;", "&#xfdd1;", "&#xFdD1;", "&#x0000FDD1;", "&#00064977;", "&#xFDD0;", "&#65007;", "&#xFDEF;"]
        for reference in spellings {
            let documents: [(name: String, bytes: [UInt8])] = [
                ("in a string, control in a comment after the root",
                 xml("<plist version=\"1.0\">\n<dict><key>k</key><string>\(reference)</string></dict>\n</plist>\n<!-- <string>\u{01} -->\n")),
                ("in a key, control in a comment before the root",
                 xml("<!-- <key>\u{01} -->\n<plist version=\"1.0\">\n<dict><key>k\(reference)</key><string>x</string></dict>\n</plist>\n")),
                ("beside a control in a value",
                 xml("<plist version=\"1.0\">\n<array><string>\u{02}</string><string>\(reference)</string></array>\n</plist>\n<!-- <string>\u{01} -->\n")),
                ("in a comment", xml("<plist version=\"1.0\">\n<string>\u{01}</string>\n</plist>\n<!-- \(reference) -->\n")),
            ]
            for (name, document) in documents {
                #expect(xmlError(document)?.code == .malformedXML, "\(reference) \(name): read as \(String(describing: try? XMLPropertyListReader().read(document)))")
            }
        }
        // References next to the marks' range, and any other, leave the reading as it was.
        let beside = plist("<string>\u{01}&#xFDCF;&#xFDF0;&#64975;&#65;</string>")
        #expect(try XMLPropertyListReader().read(beside) == .string("\u{01}\u{FDCF}\u{FDF0}\u{FDCF}A"))
        // A control the scan marked outside a value (no reference): fewer marks reach the value than were placed.
        #expect(xmlError(xml("<plist version=\"1.0\">\n<string>a\u{02}</string>\n</plist>\n<!-- <string>\u{01} -->\n"))?.code == .malformedXML)
        #expect(xmlError(xml("<plist version=\"1.0\">\n<string>a</string>\n</plist>\n<!-- <key>\u{01} -->\n"))?.code == .malformedXML)
    }

    @Test("the line and column of the refusal are the document's own")
    func location() throws {
        let error = try #require(xmlError(plist("<integer>1\u{01}</integer>")))
        #expect(error.location == xmlError(plist("<integer>1\u{01}</integer>"))?.location)
        guard case .lineColumn(let line, _) = error.location else { Issue.record("no line"); return }
        #expect(line == 4)
    }

    @Test("the writer still refuses them (XML has no form for them), so what we write never needs this reading")
    func writerRefuses() throws {
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try XMLPropertyListWriter().writeBytes(["k\u{01}": "a"]) }
        #expect(throws: PropertyListError(.unrepresentableValue, "")) { try XMLPropertyListWriter().writeBytes(["k": "a\u{1B}b"]) }
    }

    /// U+FDD0 and U+FDEF, the first and last noncharacters the reader uses as marks (no literal can spell them).
    static let firstMark = String(Unicode.Scalar(0xFDD0)!), lastMark = String(Unicode.Scalar(0xFDEF)!)

    func plistText(_ body: String) -> String { String(decoding: plist(body), as: UTF8.self) }
}
