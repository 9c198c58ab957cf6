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

    /// What Sources declares: every name (types, members, cases), every
    /// function, initializer and subscript by its whole signature (`name(label:_:)`,
    /// as DocC links spell it), and the members of each type by the type's
    /// own name (`Reading.format`, `Document.read(document:limits:)`, its
    /// extensions included).
    struct Declarations {
        var names: Set<String> = []
        var signatures: Set<String> = []
        /// Every way a call may spell a signature: with any of its defaulted
        /// arguments left out (`read(document:)` for `read(document:limits:)`).
        var callable: Set<String> = []
        var members: Set<String> = []
        var types: Set<String> = []

        /// Reads one source file (comments and string literals already removed).
        mutating func scan(_ code: String) {
            let text = Array(code)
            // The open scopes: the type a `{` opened (nil for any other brace).
            var scopes: [String?] = []
            var pendingType: String?
            var index = 0
            func word(at start: Int) -> (String, Int) {
                var end = start
                while end < text.count, text[end].isLetter || text[end].isNumber || text[end] == "_" { end += 1 }
                return (String(text[start..<end]), end)
            }
            func skipSpaces(_ i: Int) -> Int {
                var i = i
                while i < text.count, text[i].isWhitespace { i += 1 }
                return i
            }
            func record(_ name: String, signature: String? = nil) {
                names.insert(name)
                if let signature { signatures.insert(signature) }
                if let type = scopes.last ?? nil {
                    members.insert("\(type).\(signature ?? name)")
                }
            }
            while index < text.count {
                let character = text[index]
                if character == "{" { scopes.append(pendingType); pendingType = nil; index += 1; continue }
                if character == "}" { _ = scopes.popLast(); index += 1; continue }
                guard character.isLetter || character == "_", index == 0 || !(text[index - 1].isLetter || text[index - 1].isNumber || text[index - 1] == "_" || text[index - 1] == ".") else {
                    index += 1
                    continue
                }
                let (keyword, end) = word(at: index)
                index = end
                switch keyword {
                case "struct", "enum", "class", "protocol", "actor", "extension", "typealias":
                    var (name, after) = word(at: skipSpaces(end))
                    // `extension Document.Reading`: the innermost type.
                    while after < text.count, text[after] == "." {
                        (name, after) = word(at: after + 1)
                    }
                    guard !name.isEmpty, !["func", "var", "let", "subscript", "init"].contains(name) else { continue }
                    if keyword != "extension" { record(name); types.insert(name) }
                    if keyword != "typealias" { pendingType = name }
                    index = after
                case "func", "init", "subscript":
                    var name = keyword
                    var i = skipSpaces(end)
                    if keyword == "func" {
                        let (found, after) = word(at: i)
                        guard !found.isEmpty else { continue }  // an operator
                        (name, i) = (found, after)
                    }
                    if i < text.count, text[i] == "?" || text[i] == "!" { i += 1 }
                    i = skipSpaces(i)
                    // Generic parameters.
                    if i < text.count, text[i] == "<" {
                        var depth = 0
                        repeat {
                            if text[i] == "<" { depth += 1 } else if text[i] == ">" { depth -= 1 }
                            i += 1
                        } while depth > 0 && i < text.count
                    }
                    guard i < text.count, text[i] == "(" else { record(name); continue }
                    // The parameter list, split at its top-level commas.
                    // Brackets nest; `<` opens a generic argument list only when a type
                    // name precedes it (`Array<Int>`, not `1 << 20` or `a < b`), and `>` closes one.
                    var depth = 0, angles = 0, parameters: [String] = [], current = ""
                    while i < text.count {
                        let c = text[i]
                        if c == "(" || c == "[" { depth += 1; if depth == 1 { i += 1; continue } }
                        if c == ")" || c == "]" { depth -= 1; if depth == 0 { break } }
                        if c == "<", i > 0, text[i - 1].isLetter || text[i - 1].isNumber, i + 1 < text.count, text[i + 1] != "<" { angles += 1 }
                        if c == ">", angles > 0, text[i - 1] != "-" { angles -= 1 }
                        if c == "," && depth == 1 && angles == 0 { parameters.append(current); current = "" } else { current.append(c) }
                        i += 1
                    }
                    if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(current) }
                    let labels = parameters.map { parameter -> String in
                        let head = parameter.split(separator: ":", maxSplits: 1).first ?? ""
                        let words = head.split(whereSeparator: { $0.isWhitespace }).filter { !$0.hasPrefix("@") }
                        return String(words.first ?? "_") + ":"
                    }
                    record(name, signature: name + "(" + labels.joined() + ")")
                    // A default value follows the type: `limits: PropertyListLimits = .default`.
                    let defaulted = parameters.indices.filter { parameters[$0].contains(" = ") }
                    for omitted in 0..<(1 << min(defaulted.count, 8)) {
                        let left = Set(defaulted.enumerated().filter { omitted & (1 << $0.offset) != 0 }.map(\.element))
                        callable.insert(name + "(" + labels.indices.filter { !left.contains($0) }.map { labels[$0] }.joined() + ")")
                    }
                    index = i
                case "var", "let", "case":
                    // `case a, b`, `let (x, y)` and the rest: every name up to the end of the declaration's first clause.
                    var i = skipSpaces(end)
                    while i < text.count {
                        let (name, after) = word(at: i)
                        if !name.isEmpty { record(name) }
                        i = skipSpaces(after)
                        guard keyword == "case", i < text.count, text[i] == "," || text[i] == "(" else { break }
                        if text[i] == "(" {
                            var depth = 0
                            repeat {
                                if text[i] == "(" { depth += 1 } else if text[i] == ")" { depth -= 1 }
                                i += 1
                            } while depth > 0 && i < text.count
                            i = skipSpaces(i)
                            guard i < text.count, text[i] == "," else { break }
                        }
                        i = skipSpaces(i + 1)
                    }
                    index = i
                default:
                    continue
                }
            }
        }
    }

    /// Swift source without comments and string literals (their text would read as code).
    static func code(_ source: String) -> String {
        var out = ""
        var characters = Array(source)[...]
        while let c = characters.first {
            if characters.starts(with: "//") {
                while let d = characters.first, d != "\n" { characters.removeFirst(); _ = d }
                continue
            }
            if characters.starts(with: "/*") {
                characters.removeFirst(2)
                while !characters.isEmpty, !characters.starts(with: "*/") { characters.removeFirst() }
                characters = characters.dropFirst(2)
                continue
            }
            if c == "\"" {
                let multiline = characters.starts(with: "\"\"\"")
                let close = multiline ? "\"\"\"" : "\""
                characters.removeFirst(close.count)
                while !characters.isEmpty, !characters.starts(with: close) {
                    if characters.first == "\\" { characters.removeFirst() }
                    if !characters.isEmpty { characters.removeFirst() }
                }
                characters = characters.dropFirst(close.count)
                out += "\"\""
                continue
            }
            out.append(c)
            characters.removeFirst()
        }
        return out
    }

    static func declarations(under folders: [String] = ["Sources"]) throws -> Declarations {
        var declarations = Declarations()
        for file in folders.flatMap({ Files.files(under: $0, suffix: ".swift") }) {
            declarations.scan(code(try Files.text(file)))
        }
        return declarations
    }

    @Test("the declaration scan sees types, members, whole signatures and their scopes (so that it could see a wrong link)")
    func scanWorks() {
        var declarations = Declarations()
        declarations.scan(Self.code("""
        public enum Document {
            /// Reads (``read(document:limits:)``).
            public static func read(document bytes: [UInt8], limits: PropertyListLimits = .default) throws -> Reading { fatalError("}") }
            public struct Reading { public var format: Int; init(_ a: Int, b c: [Int: (Int, Int)] = [1 << 2: (3, 4)], d: Dictionary<Int, Array<Int>>) {} }
            static func pair<T: Hashable>(_ a: T, _ b: @escaping (T) -> T) -> (T, T) { (a, a) }
        }
        extension Document.Reading { subscript(key: String) -> Int { 0 } }
        enum Code { case a, b(Int), c }
        """))
        #expect(declarations.signatures == ["read(document:limits:)", "init(_:b:d:)", "pair(_:_:)", "subscript(key:)"])
        #expect(declarations.callable == ["read(document:limits:)", "read(document:)", "init(_:b:d:)", "init(_:d:)", "pair(_:_:)", "subscript(key:)"])
        #expect(declarations.members.isSuperset(of: ["Document.read(document:limits:)", "Document.Reading", "Reading.format", "Reading.init(_:b:d:)",
                                                     "Reading.subscript(key:)", "Code.a", "Code.b", "Code.c"]))
        #expect(!declarations.members.contains("Document.format") && declarations.types == ["Document", "Reading", "Code"])
    }

    @Test("every declaration a doc comment links (``Name``, ``Name/member``, ``member(label:_:)``) is declared in Sources/, with those argument labels, in that type")
    func symbolLinksExist() throws {
        let declarations = try Self.declarations()
        // A module's page links the module itself.
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: Files.root.appending(path: "Sources").path))
        // Standard-library and Foundation names the comments link to.
        let external: Set<String> = ["Data", "Date", "URL", "UUID", "String", "Int", "Double", "Array", "Set", "Dictionary",
                                     "Codable", "Encodable", "Decodable", "Encoder", "Decoder", "RawSpan", "Span", "Error",
                                     "DecodingError", "EncodingError", "Hasher", "Sendable", "Hashable", "Equatable", "Character"]
        var checked = 0
        for file in Files.files(under: "Sources", suffix: ".swift") + Files.files(under: "Sources", suffix: ".md") {
            for link in Set(try Self.matches(#"``([\w/()_:]+)``"#, in: try Files.text(file))) {
                checked += 1
                let parts = link.split(separator: "/").map(String.init)
                for (position, part) in parts.enumerated() {
                    let name = String(part.prefix { $0 != "(" })
                    if part.contains("(") {
                        // A function, initializer or subscript: its whole signature.
                        guard declarations.signatures.contains(part) else {
                            Issue.record("\(file) links ``\(link)``: nothing in Sources declares \(part) (with these argument labels)")
                            continue
                        }
                    } else if !declarations.names.contains(name) && !external.contains(name) && !(position == 0 && modules.contains(name)) {
                        Issue.record("\(file) links ``\(link)``: nothing in Sources declares \(name)")
                        continue
                    }
                    // A member named after its type is declared in that type or an extension of it.
                    guard position > 0 else { continue }
                    let type = String(parts[position - 1].prefix { $0 != "(" })
                    if declarations.types.contains(type), !declarations.members.contains("\(type).\(part)") {
                        Issue.record("\(file) links ``\(link)``: \(type) declares no \(part)")
                    }
                }
            }
        }
        #expect(checked > 100, "the scan found the links")
    }

    @Test("every signature a page or a comment names in backquotes (`Type.name(label:_:)`) is declared in Sources/ or Tests/ with those argument labels (defaulted ones may be left out)")
    func namedSignaturesExist() throws {
        let declarations = try Self.declarations(under: ["Sources", "Tests"])
        // Foundation's and the peers' own, which the pages name beside ours.
        let external: Set<String> = ["jsonObject(with:)", "propertyList(from:options:format:)", "loads(_:)", "dumps(_:)", "init(from:)",
                                     "encode(to:)", "unarchivedObject(ofClass:from:)", "archivedData(withRootObject:requiringSecureCoding:)"]
        var checked = 0
        for document in Self.documents() where document != "CHANGELOG.md" {
            for signature in Set(try Self.matches(#"`(?:[A-Za-z]\w*\.)*([a-z]\w*\((?:(?:\w+|_):)+\))`"#, in: try Files.text(document))) {
                checked += 1
                #expect(declarations.callable.contains(signature) || external.contains(signature),
                        "\(document) names `\(signature)`: nothing in Sources declares it with these argument labels")
            }
        }
        #expect(checked > 50, "the scan found the signatures (\(checked))")
    }
}
