import DocumentFormats
import Foundation
import PropertyList
import TestSupport
import Testing

/// The built `plistkit` on the real files (Specs/plistkit.md, "Input formats"):
/// every verb reads every format, and an edit keeps what the file was.
@Suite("plistkit on real files")
struct RealFileCLITests {
    static let plistkit = Paths.product("plistkit").path

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("lint reads all 304 files: OK for each but the named refusals, as plutil -lint reads .strings and .pbxproj files")
    func lintEverything() throws {
        let entries = try RealWorldTests.entries()
        let result = try run(Self.plistkit, ["lint"] + entries.map(\.url.path))
        #expect(result.status == 1)  // the named refusals
        let lines = Self.text(result.stdout).split(separator: "\n")
        #expect(lines.count == entries.count)
        for (entry, line) in zip(entries, lines) {
            if let refusal = RealWorldTests.expectedRefusal(entry) {
                #expect(line.hasPrefix("\(entry.url.path): \(refusal.code): "), "\(line)")
            } else {
                #expect(line == "\(entry.url.path): OK", "\(line)")
            }
        }
    }

    /// A copy of a real file, in a directory of its own under its original name.
    static func copy(_ entry: RealWorldTests.Entry, into directory: URL) throws -> URL {
        let components = entry.originalPath.split(separator: "/")
        let folder = components.count >= 2 ? directory.appendingPathComponent(String(components[components.count - 2])) : directory
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(String(components.last!))
        try Data(contentsOf: entry.url).write(to: copy)
        return copy
    }

    @Test("an edit of a real Xcode project, in place under NAME.xcodeproj/, changes exactly the edited line")
    func editProject() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let entry = try #require(try RealWorldTests.entries("pbxproj").first { $0.name.hasSuffix("Alamofire+Alamofire/Alamofire.xcodeproj__project.pbxproj") })
        let file = try Self.copy(entry, into: directory)
        let original = Self.text(try Data(contentsOf: file))
        #expect(Self.text(try run(Self.plistkit, ["type", "objectVersion", file.path]).stdout) == "string\n")
        #expect(try run(Self.plistkit, ["replace", "objectVersion", file.path, "--string", "70"]).status == 0)
        let before = original.split(separator: "\n", omittingEmptySubsequences: false)
        let after = Self.text(try Data(contentsOf: file)).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).filter { $0 != $1 }
        #expect(changed.count == 1 && changed.first?.1 == "\tobjectVersion = 70;", "\(changed)")
        // From standard input the name comes from the file's own comment.
        let piped = try run(Self.plistkit, ["convert", "-", "--format", "pbxproj"], stdin: Data(original.utf8))
        #expect(Self.text(piped.stdout) == original)
    }

    @Test("an edit of a real UTF-16 .strings file keeps every byte it does not change (UTF-16, its mark, comments, order)")
    func editStrings() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var edited = 0
        for entry in try RealWorldTests.entries("strings") where RealWorldTests.expectedRefusal(entry) == nil {
            let original = [UInt8](try Data(contentsOf: entry.url))
            guard original.starts(with: [0xFF, 0xFE]) || original.starts(with: [0xFE, 0xFF]) else { continue }
            let file = try Self.copy(entry, into: directory.appendingPathComponent("\(edited)"))
            let inserted = try run(Self.plistkit, ["insert", "plistkitAdded", file.path, "--string", "ajouté"])
            #expect(inserted.status == 0, "\(Self.text(inserted.stderr))")
            let written = [UInt8](try Data(contentsOf: file))
            #expect(Array(written.prefix(2)) == Array(original.prefix(2)), "\(entry.name)")
            #expect(Self.text(try run(Self.plistkit, ["extract", "plistkitAdded", "raw", file.path]).stdout) == "ajouté\n")
            // The file is as it was, byte for byte, with the new entry after it.
            #expect(written.starts(with: original), "\(entry.name)")
            let added = try TextEncoding.decode(Array(original.prefix(2)) + Array(written[min(original.count, written.count)...]))
            #expect(added == "\"plistkitAdded\" = \"ajouté\";\n" || added == "\n\"plistkitAdded\" = \"ajouté\";\n", "\(entry.name): \(added.debugDescription)")
            // Everything else is as it was, in its order, the new key last.
            let before = try #require(try Document.read(document: original).value.dictionaryValue)
            let after = try #require(try Document.read(document: written).value.dictionaryValue)
            #expect(Array(after.keys) == Array(before.keys) + ["plistkitAdded"], "\(entry.name)")
            #expect(before.allSatisfy { after[$0.key] == $0.value })
            edited += 1
            if edited == 6 { break }
        }
        #expect(edited == 6)
    }
}
