import Foundation
import Testing

/// Specs/errors.md, "The catalogue": the page, the code and the tests name
/// every rule alike. These tests read the repository's own files; they fail
/// when a code is added, renamed or dropped in one place and not the others.
@Suite("Error catalogue: Specs/errors.md, the errors files and the tests agree")
struct ErrorCatalogTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: root.appending(path: relative), encoding: .utf8)
    }

    static func files(under folder: String, suffix: String) -> [String] {
        let base = root.appending(path: folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(suffix) }
            .map { String($0.dropFirst(root.path.count + 1)) }.sorted()
    }

    /// One row of the catalogue.
    struct Row: Hashable {
        var code: String
        /// The errors file its section names (`Sources/<module>/<file>`).
        var file: String
        var pages: [String]
    }

    /// The catalogue's rows: `## \`Module\` — \`File.swift\`` sections holding
    /// `| \`code\` | meaning | pages |` tables.
    static func catalogue() throws -> [Row] {
        var rows: [Row] = []
        var file: String?
        for line in try text("Specs/errors.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                let names = line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                file = names.count == 2 ? "Sources/\(names[0])/\(names[1])" : nil
                continue
            }
            guard let file, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let code = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let pages = cells[cells.count - 2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(Row(code: code, file: file, pages: pages))
        }
        return rows
    }

    /// Every `static let name = Self("name")` in the errors files, with its file.
    static func declarations() throws -> [(code: String, spelled: String, file: String)] {
        let pattern = try NSRegularExpression(pattern: #"static let (\w+) = Self\("(\w*)"\)"#)
        var found: [(String, String, String)] = []
        for file in files(under: "Sources", suffix: "Errors.swift") {
            let source = try text(file)
            for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let name = String(source[Range(match.range(at: 1), in: source)!])
                let spelled = String(source[Range(match.range(at: 2), in: source)!])
                found.append((name, spelled, file))
            }
        }
        return found
    }

    @Test("every code is declared exactly once, spelled as its name, in the file its section names; every declared code is listed")
    func catalogueMatchesDeclarations() throws {
        let rows = try Self.catalogue()
        let declared = try Self.declarations()
        #expect(rows.count > 90, "the catalogue was not parsed (\(rows.count) rows)")
        for (code, spelled, file) in declared {
            #expect(code == spelled, "\(file): ErrorCode.\(code) is spelled \"\(spelled)\"")
        }
        let byCode = Dictionary(grouping: declared, by: \.code)
        for (code, places) in byCode where places.count > 1 {
            Issue.record("\(code) is declared \(places.count) times: \(places.map(\.file))")
        }
        let rowsByCode = Dictionary(grouping: rows, by: \.code)
        for (code, listed) in rowsByCode where listed.count > 1 {
            Issue.record("\(code) is listed \(listed.count) times in Specs/errors.md")
        }
        for row in rows {
            #expect(byCode[row.code]?.first?.file == row.file, "Specs/errors.md lists \(row.code) under \(row.file); declared in \(byCode[row.code]?.map(\.file) ?? [])")
        }
        for code in byCode.keys where rowsByCode[code] == nil {
            Issue.record("\(code) is declared in \(byCode[code]![0].file) but not listed in Specs/errors.md")
        }
    }

    @Test("every code is expected by some test")
    func everyCodeIsTested() throws {
        // A test names a code as an argument or comparison
        // (`PropertyListError(.badMagic, …)`, `error.code == .badMagic`,
        // `[.badMagic, …]`) or, for the CLI, in the printed line
        // (`plistkit: FILE: badMagic: …`) or as a string.
        let tests = try Self.files(under: "Tests", suffix: ".swift").filter { !$0.hasPrefix("Tests/SpecsTests/") }.map(Self.text).joined(separator: "\n")
        for row in try Self.catalogue() {
            let expected = try NSRegularExpression(pattern: #"(\(|== |\[|, |: )\."# + row.code + #"\b|: "# + row.code + #":|""# + row.code + #"""#)
            let named = expected.firstMatch(in: tests, range: NSRange(tests.startIndex..., in: tests)) != nil
            #expect(named, "no test expects \(row.code)")
        }
    }

    @Test("every page a row names mentions its code")
    func pagesMentionTheirCodes() throws {
        for row in try Self.catalogue() {
            #expect(!row.pages.isEmpty, "\(row.code) names no page")
            for page in row.pages {
                let text = (try? Self.text("Specs/\(page)")) ?? ""
                #expect(text.contains("`\(row.code)`"), "Specs/\(page) does not mention `\(row.code)`")
            }
        }
    }

    @Test("every Specs/page.md, \"Section\" reference in the sources names an existing heading")
    func sectionReferencesExist() throws {
        let reference = try NSRegularExpression(pattern: #"Specs/([\w-]+\.md)`?,? \(?"([^"]+)""#)
        for file in Self.files(under: "Sources", suffix: ".swift") + Self.files(under: "Tests", suffix: ".swift") {
            let source = try Self.text(file)
            for match in reference.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let page = String(source[Range(match.range(at: 1), in: source)!])
                // A reference wrapped over two comment lines reads as one.
                let section = String(source[Range(match.range(at: 2), in: source)!])
                    .replacingOccurrences(of: #"\s*\n\s*(///|//)\s*"#, with: " ", options: .regularExpression)
                let headings = ((try? Self.text("Specs/\(page)")) ?? "").split(separator: "\n")
                    .filter { $0.hasPrefix("#") }.map { $0.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces) }
                #expect(headings.contains { $0 == section || $0.hasPrefix(section + " ") || $0.hasPrefix("`\(section)`") },
                        "\(file) refers to Specs/\(page), \"\(section)\", which has no such heading")
            }
        }
    }
}
