import Foundation
import Testing

/// The docs name what a reader will look for: a test suite (`XcodeLayoutTests`),
/// a file or folder (`Sources/PropertyList/Memory/ByteReader.swift`), a
/// declaration (``DocumentFormat``). These tests fail when one is renamed,
/// moved or dropped and a page or a comment still names it.
@Suite("Documentation names what exists: tests, paths and declarations")
struct DocumentationReferenceTests {
    typealias Files = ErrorCatalogTests

    /// The pages and the sources whose text names things.
    static func documents() -> [String] {
        ["README.md", "CHANGELOG.md", "Fuzz/README.md", "Benchmarks/README.md"]
            + Files.files(under: "Specs", suffix: ".md")
            + Files.files(under: "Sources", suffix: ".swift") + Files.files(under: "Sources", suffix: ".md")
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
    }

    @Test("every test suite a page or a comment names is declared in Tests/")
    func testNamesExist() throws {
        var declared: Set<String> = []
        for file in Files.files(under: "Tests", suffix: ".swift") {
            declared.formUnion(try Self.matches(#"\b(?:struct|enum|class)\s+(\w+Tests)\b"#, in: try Files.text(file)))
        }
        #expect(declared.count > 50, "the scan found the suites")
        // The history names what was (CHANGELOG); everything else names what is.
        for document in Self.documents() where document != "CHANGELOG.md" {
            for name in Set(try Self.matches(#"\b([A-Z]\w*Tests)\b"#, in: try Files.text(document)))
            where !declared.contains(name) && !FileManager.default.fileExists(atPath: Files.root.appending(path: "Tests/\(name)").path) {
                Issue.record("\(document) names \(name), which no test declares")
            }
        }
    }

    @Test("every repository path a page or a comment names in backquotes exists (Fuzz/README.md's from Fuzz/)")
    func pathsExist() throws {
        // Paths inside a project or an example, not in this repository.
        let examples: Set<String> = ["Sources/App/main.swift"]
        // What the scripts make and .gitignore keeps out (`/Benchmarks/work/`, `/Fuzz/.work/`).
        let generated = try Files.text(".gitignore").split(separator: "\n")
            .filter { $0.hasPrefix("/") && $0.hasSuffix("/") }
            .map { String($0.dropFirst().dropLast().prefix { $0 != "*" }) }
        #expect(generated.contains("Benchmarks/work"), "the scan read .gitignore")
        var checked = 0
        for document in Self.documents() where document != "CHANGELOG.md" {
            for path in Set(try Self.matches(#"`((?:Sources|Tests|Fuzz|Benchmarks|Corpus|Specs)/[\w./+-]+?)\.?`"#, in: try Files.text(document)))
            where !path.contains("*") && !examples.contains(path) && !generated.contains(where: { path.hasPrefix($0) }) {
                checked += 1
                let here = document.hasPrefix("Fuzz/") ? ["", "Fuzz/"] : [""]
                #expect(here.contains { FileManager.default.fileExists(atPath: Files.root.appending(path: $0 + path).path) },
                        "\(document) names `\(path)`, which does not exist")
            }
        }
        #expect(checked > 30, "the scan found the paths")
    }

    @Test("every declaration a doc comment links (``Name``, ``Name/member``) is declared in Sources/")
    func symbolLinksExist() throws {
        var declared: Set<String> = []
        for file in Files.files(under: "Sources", suffix: ".swift") {
            let text = try Files.text(file)
            declared.formUnion(try Self.matches(#"\b(?:struct|enum|class|protocol|typealias|actor|func|var|let|case|init|subscript)\s+`?(\w+)"#, in: text))
            declared.formUnion(try Self.matches(#"\bcase\s+(?:\w+\s*,\s*)*(\w+)"#, in: text))
        }
        declared.formUnion(["init", "subscript"])
        // A module's page links the module itself.
        let modules = try FileManager.default.contentsOfDirectory(atPath: Files.root.appending(path: "Sources").path)
        declared.formUnion(modules)
        // Standard-library and Foundation names the comments link to.
        let external: Set<String> = ["Data", "Date", "URL", "UUID", "String", "Int", "Double", "Array", "Set", "Dictionary",
                                     "Codable", "Encodable", "Decodable", "Encoder", "Decoder", "RawSpan", "Span", "Error",
                                     "DecodingError", "EncodingError", "Hasher", "Sendable", "Hashable", "Equatable", "Character"]
        var checked = 0
        for file in Files.files(under: "Sources", suffix: ".swift") + Files.files(under: "Sources", suffix: ".md") {
            for link in Set(try Self.matches(#"``([\w/()_:]+)``"#, in: try Files.text(file))) {
                // Each component up to any argument list: DocumentFormat/detect(_:) → DocumentFormat, detect.
                let parts = link.split(separator: "/").map { String($0.prefix { $0 != "(" }) }.filter { !$0.isEmpty }
                checked += 1
                for part in parts where !declared.contains(part) && !external.contains(part) {
                    Issue.record("\(file) links ``\(link)``: nothing in Sources declares \(part)")
                }
            }
        }
        #expect(checked > 100, "the scan found the links")
    }
}
