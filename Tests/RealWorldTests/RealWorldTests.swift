import DocumentFormats
import Foundation
import KeyedArchive
import PropertyList
import PropertyListOpenStep
import PropertyListXML
import TestSupport
import Testing

/// Files that Xcode, Interface Builder, plutil and iOS/macOS builds wrote in
/// public projects (`../shared/realworld`, beside the clone, with their
/// provenance in `sources.json`): read where they are, never copied here
/// (Specs/golden-files.md, "Real files"). A missing corpus fails, as the
/// conformance corpus does in CI.
///
/// What is checked against what: every value against Linux Foundation's
/// reading (CoreFoundation's parsers, an independent implementation); every
/// layout against the bytes Apple's tools wrote. Where a file is not what
/// Apple's current tools write, or where we refuse it, the reason is named
/// below and checked to hold, so an exception cannot hide a regression.
@Suite("Real files written by Apple's tools (../shared/realworld)")
struct RealWorldTests {
    struct Entry: Sendable {
        /// Where it is in the corpus.
        let url: URL
        /// `pbxproj`, `strings`, `openstep`, `xml`, `binary`, `archive`.
        let kind: String
        /// Its path in the project it came from.
        let originalPath: String
        /// Its corpus name (`files/owner+repo/…`).
        let name: String
    }

    static let corpus: URL = {
        if let path = ProcessInfo.processInfo.environment["REALWORLD"] { return URL(fileURLWithPath: path) }
        return Paths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realworld")
    }()

    struct MissingCorpus: Error, CustomStringConvertible {
        var description: String { "the real-world corpus is not at \(RealWorldTests.corpus.path) (set REALWORLD=DIR): a skipped check is a failed check" }
    }

    static func entries() throws -> [Entry] {
        let index = corpus.appendingPathComponent("sources.json")
        guard FileManager.default.fileExists(atPath: index.path) else { throw MissingCorpus() }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: Any]
        let files = try #require(json?["files"] as? [[String: Any]])
        return try files.map { file in
            let name = try #require(file["file"] as? String)
            return Entry(url: corpus.appendingPathComponent(name), kind: try #require(file["kind"] as? String),
                         originalPath: try #require(file["path"] as? String), name: name)
        }
    }

    static func entries(_ kind: String) throws -> [Entry] { try entries().filter { $0.kind == kind } }

    static func bytes(_ entry: Entry) throws -> [UInt8] { [UInt8](try Data(contentsOf: entry.url)) }

    // MARK: Refusals

    /// Every file we refuse, with the rule, and why that is right (each also in
    /// Specs/known-deviations.md with the file): matched by a unique part of the name.
    static let refusals: [(file: String, code: ErrorCode, appleReadsIt: Bool)] = [
        // A translator's duplicate key: CoreFoundation keeps the last silently; we refuse.
        ("hist-9431c8d41f__2.2.0__en.lproj__Localizable.strings", .duplicateKey, true),
        // A byte-order mark and nothing else, and a file of zero bytes: CoreFoundation refuses both too.
        ("Frameworks__AIUtilities__Resources__en.lproj__SecErrorMessages.strings", .truncated, false),
        ("iina__sr-CS.lproj__InfoPlist.strings", .truncated, false),
        // Interface Builder 3 wrote a raw carriage return into a string: CoreFoundation
        // reads a carriage return, XML parsers a line feed; we refuse the ambiguity.
        ("hist-369d541662__Resources__pl.lproj__ListLayoutSheet.nib__keyedobjects.nib", .ambiguousLineEnding, true),
    ]

    static func expectedRefusal(_ entry: Entry) -> (code: ErrorCode, appleReadsIt: Bool)? {
        refusals.first { entry.name.hasSuffix($0.file) }.map { ($0.code, $0.appleReadsIt) }
    }

    @Test("the corpus is there: 304 files of six kinds")
    func corpusIsThere() throws {
        let entries = try Self.entries()
        #expect(entries.count == 304)
        #expect(Set(entries.map(\.kind)) == ["pbxproj", "strings", "openstep", "xml", "binary", "archive"])
        for entry in entries { #expect(FileManager.default.fileExists(atPath: entry.url.path), "\(entry.name)") }
        for refusal in Self.refusals { #expect(entries.contains { $0.name.hasSuffix(refusal.file) }, "\(refusal.file)") }
    }

    @Test("every file reads through the format layer to the value Foundation reads; the refusals are the named ones", arguments: ["pbxproj", "strings", "openstep", "xml", "binary", "archive"])
    func valuesAgreeWithFoundation(kind: String) throws {
        let entries = try Self.entries(kind)
        let readings = try Peers.foundation(entries.map(\.url))
        var agreed = 0
        for (entry, reading) in zip(entries, readings) {
            let bytes = try Self.bytes(entry)
            let ours: Result<Document.Reading, PropertyListError>
            do { ours = .success(try Document.read(document: bytes)) } catch { ours = .failure(error) }
            switch (ours, reading, Self.expectedRefusal(entry)) {
            case (.success(let read), .success(let peer), nil):
                #expect(peerEqual(read.value, peer), "\(entry.name): Foundation reads another value")
                agreed += 1
            case (.failure(let error), let peer, let expected?):
                #expect(error.code == expected.code, "\(entry.name): \(error)")
                // Apple reads it (a documented difference) or refuses it too.
                #expect((try? peer.get()) != nil || !expected.appleReadsIt, "\(entry.name): Foundation refuses it too")
                #expect((try? peer.get()) == nil || expected.appleReadsIt, "\(entry.name): Foundation reads it")
            case (.failure(let error), _, nil):
                Issue.record("\(entry.name): refused: \(error)")
            case (.success, _, .some):
                Issue.record("\(entry.name): read, but listed as refused")
            case (.success, .failure(let peer), nil):
                Issue.record("\(entry.name): Foundation refuses it: \(peer)")
            }
        }
        #expect(agreed == entries.count - entries.filter { Self.expectedRefusal($0) != nil }.count)
    }

    @Test("each kind is detected as what it is, wherever a byte-order mark puts the first character")
    func formatsDetected() throws {
        let expected: [String: Set<DocumentFormat>] = [
            "pbxproj": [.xcodeProject], "strings": [.strings], "openstep": [.openStep],
            "xml": [.xml], "binary": [.binary], "archive": [.binary, .xml],
        ]
        for entry in try Self.entries() where Self.expectedRefusal(entry) == nil {
            let reading = try Document.read(document: try Self.bytes(entry))
            #expect(expected[entry.kind]!.contains(reading.format), "\(entry.name): read as \(reading.format)")
        }
    }
}
