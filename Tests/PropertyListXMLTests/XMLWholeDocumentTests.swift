import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Specs/xml-plist.md, "libxml2", whole documents: a document of up to 1 MiB
/// is handed to libxml2 in one buffer, and libxml2 2.9's input checks
/// (GROW, SHRINK) are skipped; a larger one is read a window at a time. Both
/// ways must read every document alike: the same value, or the same error
/// (code, message, line and column, key path).
@Suite("XML whole documents")
struct XMLWholeDocumentTests {
    typealias Outcome = XMLSpareContextTests.Outcome

    static func outcome(_ bytes: [UInt8], streamed: Bool) -> Outcome {
        var reader = XMLPropertyListReader()
        reader.streamsEveryDocument = streamed
        do { return .value(try reader.read(bytes)) } catch { return .refused(error.description) }
    }

    /// `bytes` both ways, checked to read the same; returns that outcome.
    @discardableResult
    static func sameBothWays(_ bytes: [UInt8], _ comment: Comment? = nil) -> Outcome {
        let whole = outcome(bytes, streamed: false)
        let streamed = outcome(bytes, streamed: true)
        #expect(whole == streamed, comment ?? "\(String(decoding: bytes.prefix(160), as: UTF8.self))")
        return whole
    }

    @Test("this image's libxml2 (2.9) takes documents up to 1 MiB whole")
    func limit() {
        #expect(XMLPropertyListReader.wholeDocumentLimit == 1 << 20)
    }

    @Test("every shared-corpus XML document, mutants of it and cuts of it read the same whole and a window at a time")
    func corpusBothWays() throws {
        var random = TestRandom(seed: 46_8)
        var files = 0, valid = 0, refused = 0
        for url in try Paths.sharedCorpusFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard bytes.count <= XMLPropertyListReader.wholeDocumentLimit,
                  XMLPropertyListReader.looksLikeXML(bytes.prefix(64)) else { continue }
            files += 1
            var candidates = [bytes]
            candidates += (0..<2).map { _ in mutated(bytes, by: (0..<2).map { _ in Int.random(in: 0..<(1 << 28), using: &random) }) }
            // Cut short: what libxml2 reads at the end of its input.
            candidates.append(Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &random))))
            for candidate in candidates {
                if case .value = Self.sameBothWays(candidate, "\(url.lastPathComponent)") { valid += 1 } else { refused += 1 }
            }
        }
        #expect(files > 150 && valid > 150 && refused > 150, "\(files) files, \(valid) read, \(refused) refused")
    }

    @Test("a document of many windows, and cuts and flaws at every window's edge, read the same both ways")
    func acrossWindows() {
        // About 60 KB: libxml2's reader hands over 4,000 bytes at a time, and
        // looks ahead within the last 250 bytes of what it holds.
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
        for i in 0..<1_200 {
            text += "\t<key>k\(i)</key>\n\t<string>value \(i) é</string>\n"
        }
        text += "</dict>\n</plist>\n"
        let document = Array(text.utf8)
        let value = Self.sameBothWays(document)
        guard case .value(.dictionary(let dictionary)) = value else {
            Issue.record("the document reads to a dictionary: \(value)")
            return
        }
        #expect(dictionary.count == 1_200)
        var cuts = 0
        for edge in stride(from: 4_000, to: document.count, by: 4_000) {
            for offset in [-251, -250, -249, -2, -1, 0, 1, 2, 249, 250] where edge + offset > 0 && edge + offset < document.count {
                let at = edge + offset
                // Cut there; a stray "<" there; a byte removed there.
                Self.sameBothWays(Array(document[..<at]), "cut at \(at)")
                Self.sameBothWays(Array(document[..<at]) + [UInt8(ascii: "<")] + Array(document[at...]), "\"<\" at \(at)")
                Self.sameBothWays(Array(document[..<at]) + Array(document[(at + 1)...]), "byte \(at) removed")
                cuts += 1
            }
        }
        #expect(cuts > 100)
    }

    @Test("a document over the limit is read a window at a time either way")
    func overTheLimit() {
        let limit = XMLPropertyListReader.wholeDocumentLimit
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
        var count = 0
        while text.utf8.count <= limit + 10_000 {
            text += "\t<integer>\(count)</integer>\n"
            count += 1
        }
        text += "</array>\n</plist>\n"
        #expect(Self.sameBothWays(Array(text.utf8)) == .value(.array((0..<count).map { .integer(PropertyListInteger($0)) })))
    }
}
