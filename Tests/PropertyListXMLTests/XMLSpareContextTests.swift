import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Specs/xml-plist.md, "libxml2", spare context: each thread keeps one libxml2
/// parser context between documents. A document read with a kept context must
/// come out exactly as one read with a new context: the same value, or the
/// same error at the same line and column.
@Suite("XML spare parser context")
struct XMLSpareContextTests {
    /// What reading one document gave: its value, or its error as printed
    /// (code, message, line and column, key path).
    enum Outcome: Equatable {
        case value(PropertyListValue)
        case refused(String)

        init(_ bytes: [UInt8]) {
            do { self = .value(try XMLPropertyListReader().read(bytes)) } catch { self = .refused(error.description) }
        }
    }

    /// Every XML document of both shared corpora, each followed by refused
    /// documents that leave names and state behind in a context: a mutant of
    /// it, and a few that libxml2 or the grammar stops early.
    static func documents() throws -> [[UInt8]] {
        let hostile: [String] = [
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><unknownElement/></plist>",
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key><?target data?></dict></plist>",
            "<?xml version=\"1.0\"?><!DOCTYPE other><plist version=\"1.0\"><true/></plist>",
            "<?xml version=\"1.0\"?><plist version=\"1.0\" other=\"x\"><true/></plist>",
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><string>&name;</string></plist>",
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><array><string>a</array></plist>",
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>k</key></dict></plist>",
        ]
        var random = TestRandom(seed: 46_3)
        var documents: [[UInt8]] = []
        for url in try Paths.sharedCorpusFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) else { continue }
            documents.append(bytes)
            documents.append(mutated(bytes, by: (0..<3).map { _ in Int.random(in: 0..<(1 << 28), using: &random) }))
            documents.append(Array(hostile[documents.count % hostile.count].utf8))
        }
        return documents
    }

    @Test("every document reads the same after any other on one thread as on a thread of its own")
    func keptContextChangesNothing() throws {
        let documents = try Self.documents()
        #expect(documents.count > 300)
        // All in a row on one thread, each document after the one before it.
        let inRow = onNewThread { documents.map(Outcome.init) }
        var valid = 0, refused = 0
        for (document, outcome) in zip(documents, inRow) {
            let alone = onNewThread { Outcome(document) }
            #expect(outcome == alone, "\(String(decoding: document.prefix(120), as: UTF8.self))")
            if case .value = alone { valid += 1 } else { refused += 1 }
        }
        // Both paths are exercised: contexts kept after valid documents, and not after refused ones.
        #expect(valid > 100 && refused > 200, "valid \(valid), refused \(refused)")
        // A document read twice in a row on one thread reads the same both times.
        let twice = onNewThread { documents.map { [Outcome($0), Outcome($0)] } }
        for pair in twice { #expect(pair[0] == pair[1]) }
    }
}
