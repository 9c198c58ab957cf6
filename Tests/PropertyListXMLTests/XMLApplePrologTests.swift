import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// Specs/xml-plist.md, "libxml2", Apple's prolog: a document that opens with
/// exactly Apple's prolog, the root `<plist` right after it, is handed to
/// libxml2 from the root on. It must read exactly as when libxml2 parses the
/// prolog too: the same value, or the same error (code, message, line and
/// column, key path). The other way is taken by spelling the declaration's
/// `UTF-8` as `utf-8` (as valid, the same length, on the same line), which is
/// not Apple's prolog byte for byte.
@Suite("XML Apple's prolog")
struct XMLApplePrologTests {
    /// What reading one document gave: its value, or its error as printed.
    typealias Outcome = XMLSpareContextTests.Outcome

    static let prologs = [
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"# + "\n",
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"# + "\n",
    ].map { Array($0.utf8) }

    /// The same prolog parsed whole by libxml2: `UTF-8` spelled `utf-8`.
    static func parsedWhole(_ prolog: [UInt8]) -> [UInt8] {
        Array(String(decoding: prolog, as: UTF8.self).replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="utf-8""#).utf8)
    }

    /// `body` after `prolog` both ways, checked to read the same; returns that outcome.
    @discardableResult
    static func sameBothWays(_ prolog: [UInt8], _ body: [UInt8], _ comment: Comment? = nil) -> Outcome {
        let skipped = Outcome(prolog + body)
        let whole = Outcome(parsedWhole(prolog) + body)
        #expect(skipped == whole, comment ?? "\(String(decoding: body.prefix(160), as: UTF8.self))")
        return skipped
    }

    @Test("every shared-corpus document with Apple's prolog, and mutants of its body, read the same whether libxml2 parses the prolog or not")
    func corpusBothWays() throws {
        var random = TestRandom(seed: 46_7)
        var files = 0, valid = 0, refused = 0
        for url in try Paths.sharedCorpusFiles() {
            let bytes = try [UInt8](Data(contentsOf: url))
            guard let prolog = Self.prologs.first(where: { bytes.starts(with: $0) }),
                  bytes[prolog.count...].starts(with: Array("<plist".utf8)) else { continue }
            files += 1
            let body = Array(bytes[prolog.count...])
            for candidate in [body] + (0..<3).map({ _ in mutated(body, by: (0..<2).map { _ in Int.random(in: 0..<(1 << 28), using: &random) }) }) {
                // A mutant that no longer starts with the root takes libxml2's whole parse both ways.
                if case .value = Self.sameBothWays(prolog, candidate, "\(url.lastPathComponent)") { valid += 1 } else { refused += 1 }
            }
        }
        // Both shared corpora hold many documents as Apple's tools write them, and the mutants are mostly refused.
        #expect(files > 100 && valid > 100 && refused > 100, "\(files) files, \(valid) read, \(refused) refused")
    }

    @Test("what libxml2 keeps from the prolog: an undeclared entity is a reference the grammar refuses, not a fatal error; lines and columns count from the top")
    func whatThePrologLeaves() {
        for prolog in Self.prologs {
            // hasExternalSubset: libxml2 reports an undeclared entity as a reference.
            let entity = Array(#"<plist version="1.0"><string>&name;</string></plist>"#.utf8)
            Self.sameBothWays(prolog, entity)
            #expect(throws: PropertyListError.self) { try XMLPropertyListReader().read(prolog + entity) }
            do { _ = try XMLPropertyListReader().read(prolog + entity) } catch { #expect(error.code == .forbiddenNode, "\(error)") }
            // Lines and columns of errors past the prolog, from libxml2 and from the grammar.
            Self.sameBothWays(prolog, Array("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>b</strin>\n</dict>\n</plist>\n".utf8))
            Self.sameBothWays(prolog, Array("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<unknown/>\n</dict>\n</plist>\n".utf8))
            Self.sameBothWays(prolog, Array("<plist version=\"2.0\">\n<true/>\n</plist>\n".utf8))
            Self.sameBothWays(prolog, Array("<plist version=\"1.0\">\n<array>\n\t<integer>x</integer>\n</array>\n</plist>\n".utf8))
            // Not the root right after the prolog: libxml2 parses all of it (a
            // second declaration or document type is refused, a comment read).
            Self.sameBothWays(prolog, Array(#"<?xml version="1.0"?><plist version="1.0"><true/></plist>"#.utf8))
            Self.sameBothWays(prolog, Array(#"<!DOCTYPE plist SYSTEM "x"><plist version="1.0"><true/></plist>"#.utf8))
            Self.sameBothWays(prolog, Array("<!-- c -->\n<plist version=\"1.0\"><true/></plist>".utf8))
            // A valid document reads to its value.
            #expect(Self.sameBothWays(prolog, Array("<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n\t<string>b</string>\n</dict>\n</plist>\n".utf8))
                    == .value(.dictionary(["a": .string("b")])))
        }
    }
}
