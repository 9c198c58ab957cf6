import Foundation
import Testing

/// Specs/architecture.md, "One bounded walk" (rule `boundedWalk`): every
/// consumer of a decoded value visits it through `ValueWalk`; no function
/// outside the listed exceptions calls itself on a value of a tree type. This
/// test reads every Swift file under `Sources/` and finds each function that
/// takes such a value and calls itself (with the same argument labels, so an
/// overload is no recursion), or passes itself on (`map(convert)`).
@Suite("Architecture: one bounded walk for every consumer of values (boundedWalk)")
struct BoundedWalkRuleTests {
    /// The types of value trees a consumer could walk.
    static let treeTypes = ["PropertyListValue", "UserInfoValue", "ComparedValue", "UserInfoDictionary",
                            "PropertyListDictionary", "UserInfoSet", "StringKeyedDictionary"]

    /// Modules whose recursion is theirs by design: the fuzz oracles recompute
    /// from the definitions, independently of the walk they check; the
    /// benchmark's value floor is a bare walk to measure against.
    static let exemptModules = ["Sources/FuzzChecks/", "Sources/plistkit-bench/"]

    /// The functions that recurse over a value tree without naming an
    /// `ExpansionMeter`, each with why it may (`path function`).
    static let allowed: [String: String] = [
        "Sources/TypedJSON/TypedJSONWriter.swift emit": "a codec writer: enter(payload:container:) charges its ExpansionMeter per node",
        "Sources/UserInfo/FoundationIdentity.swift equal": "the value model's own primitive: Foundation's identity of set members, compared once per insertion",
        "Sources/PropertyList/PropertyListEditing.swift edit": "follows one key path, not a tree: one call per path component",
        "Sources/UserInfo/UserInfoSet.swift contains": "delegates to its storage (an ordered set), one level",
        "Sources/UserInfo/UserInfoSet.swift makeIterator": "delegates to its storage (an ordered set), one level",
    ]

    /// The walk's own interface (Sources/PropertyList/ValueWalk.swift,
    /// ReadableText.swift): one node at a time, a wrapper delegating to the
    /// value it wraps, never its members' members.
    static let walkInterface: Set = ["walkShape", "walkMembers", "appendReadableScalar"]

    /// `path function` for every recursive function over a value tree in `source`
    /// that names no meter.
    static func recursion(in source: String, path: String) -> [String] {
        let code = stripped(source)
        var found: [String] = []
        for function in functions(in: code) where !walkInterface.contains(function.name) {
            // A function of a tree type (its value is `self`) or taking one.
            let onTree = treeTypes.contains(function.enclosingType)
            guard onTree || treeTypes.contains(where: { mentions(function.parameters, $0) }) else { continue }
            guard callsItself(function, onMembers: onTree) else { continue }
            let metered = function.parameters.contains("ExpansionMeter") || function.body.contains("meter")
            if !metered { found.append("\(path) \(function.name)") }
        }
        return found
    }

    @Test("the scan sees recursion over a value tree, and not an overload or a walk (so that it could see any)")
    func scanWorks() {
        let recursive = """
        func render(_ value: PropertyListValue, to out: inout String) {
            if case .array(let elements) = value { for element in elements { render(element, to: &out) } }
        }
        func convert(_ value: UserInfoValue) -> UserInfoValue {
            // a comment that says convert(x)
            if case .array(let elements) = value { return .array(elements.map(convert)) }
            return value
        }
        extension PropertyListValue {
            func append(to out: inout String, indent: String) {
                if case .array(let elements) = self { for element in elements { element.append(to: &out, indent: indent + "  ") } }
            }
        }
        """
        #expect(Self.recursion(in: recursive, path: "x") == ["x render", "x convert", "x append"])
        let fine = """
        func read(_ value: PropertyListValue) -> Int { read(value, depth: 0) }
        func read(_ value: PropertyListValue, depth: Int) -> Int { "read(value)".count }
        func write(_ value: PropertyListValue, depth: Int, meter: inout ExpansionMeter) { write(value, depth: depth + 1, meter: &meter) }
        func count(_ text: String) -> Int { count(text) }
        """
        #expect(Self.recursion(in: fine, path: "x").isEmpty)
    }

    @Test("boundedWalk: no consumer walks a value tree another way (Specs/architecture.md, \"One bounded walk\")")
    func noOtherWalk() throws {
        var found: Set<String> = []
        for path in ErrorCatalogTests.files(under: "Sources", suffix: ".swift") where !Self.exemptModules.contains(where: path.hasPrefix) {
            found.formUnion(Self.recursion(in: try ErrorCatalogTests.text(path), path: path))
        }
        let unexpected = found.subtracting(Self.allowed.keys).sorted()
        #expect(unexpected.isEmpty, "recursion over a value tree outside the one bounded walk (use ValueWalk, or charge an ExpansionMeter):\n\(unexpected.joined(separator: "\n"))")
        let stale = Set(Self.allowed.keys).subtracting(found).sorted()
        #expect(stale.isEmpty, "allowed but no longer recursive (drop them from the list): \(stale)")
    }

    // MARK: A small Swift scanner

    struct Function {
        let name: String
        let parameters: String
        let body: String
        /// The type or extension the function is declared in, at the top level.
        let enclosingType: String
    }

    static func mentions(_ text: String, _ word: String) -> Bool {
        text.range(of: #"\b\#(word)\b"#, options: .regularExpression) != nil
    }

    /// The source without comments and with every string literal emptied.
    static func stripped(_ source: String) -> String {
        let characters = Array(source)
        var out: [Character] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "/" && next == "/" {
                while index < characters.count && characters[index] != "\n" { index += 1 }
            } else if character == "/" && next == "*" {
                index += 2
                while index + 1 < characters.count && !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 2
            } else if character == "\"" {
                let multiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
                index += multiline ? 3 : 1
                while index < characters.count {
                    if characters[index] == "\\" { index += 2; continue }
                    if multiline {
                        if index + 2 < characters.count && characters[index] == "\"" && characters[index + 1] == "\"" && characters[index + 2] == "\"" { index += 3; break }
                    } else if characters[index] == "\"" || characters[index] == "\n" {
                        index += 1
                        break
                    }
                    index += 1
                }
                out.append(contentsOf: "\"\"")
            } else {
                out.append(character)
                index += 1
            }
        }
        return String(out)
    }

    /// The index just past the bracket that closes the one at `open`.
    static func closing(_ characters: [Character], from open: Int, _ opening: Character, _ closing: Character) -> Int {
        var depth = 0
        var index = open
        while index < characters.count {
            if characters[index] == opening { depth += 1 } else if characters[index] == closing {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return characters.count
    }

    /// Every `func NAME(…) … { … }` with a body.
    static func functions(in code: String) -> [Function] {
        let characters = Array(code)
        let declaration = try! NSRegularExpression(pattern: #"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)\s*(<[^>{]*>)?\s*\("#)
        // Top-level types and extensions, and where their bodies lie.
        let typeDeclaration = try! NSRegularExpression(pattern: #"(?m)^(?:[a-z@_() ]*\s)?(?:extension|struct|enum|class|actor)\s+([A-Za-z_][A-Za-z0-9_.]*)"#)
        var types: [(name: String, body: Range<Int>)] = []
        for match in typeDeclaration.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
            let name = String(code[Range(match.range(at: 1), in: code)!])
            let start = code.distance(from: code.startIndex, to: Range(match.range, in: code)!.upperBound)
            guard let brace = characters[start...].firstIndex(of: "{") else { continue }
            types.append((name, brace..<closing(characters, from: brace, "{", "}")))
        }
        var result: [Function] = []
        for match in declaration.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
            let name = String(code[Range(match.range(at: 1), in: code)!])
            // Offsets in characters (the stripped code is searched as UTF-16 by the expression).
            let openParen = code.distance(from: code.startIndex, to: Range(match.range, in: code)!.upperBound) - 1
            let afterParameters = closing(characters, from: openParen, "(", ")")
            let parameters = String(characters[(openParen + 1)..<max(openParen + 1, afterParameters - 1)])
            guard let brace = characters[afterParameters...].firstIndex(where: { $0 == "{" || $0 == "}" || $0 == ";" }),
                  characters[brace] == "{", !characters[afterParameters..<brace].contains("\n\n") else { continue }
            let end = closing(characters, from: brace, "{", "}")
            let enclosing = types.last { $0.body.contains(openParen) }?.name ?? ""
            result.append(Function(name: name, parameters: parameters, body: String(characters[(brace + 1)..<max(brace + 1, end - 1)]),
                                   enclosingType: enclosing))
        }
        return result
    }

    /// The external argument labels of a parameter list or of a call's arguments ("_" for none).
    static func labels(_ list: String, declaration: Bool) -> [String] {
        var items: [String] = []
        var depth = 0
        var current = ""
        for character in list {
            if "([{<".contains(character) { depth += 1 } else if ")]}>".contains(character) { depth -= 1 }
            if character == "," && depth == 0 { items.append(current); current = "" } else { current.append(character) }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { items.append(current) }
        return items.map { item in
            let trimmed = item.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let colon = trimmed.firstIndex(of: ":"), !trimmed[colon...].hasPrefix("::") else { return "_" }
            let head = trimmed[..<colon].split(separator: " ")
            guard let first = head.first, head.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }) else { return "_" }
            return declaration || head.count == 1 ? String(first) : "_"
        }
    }

    /// Whether the body calls the function with its own labels, or passes it
    /// on; `onMembers`: also as a method of another value (`element.append(…)`).
    static func callsItself(_ function: Function, onMembers: Bool) -> Bool {
        let own = labels(function.parameters, declaration: true)
        let characters = Array(function.body)
        let call = try! NSRegularExpression(pattern: onMembers ? #"(?<![A-Za-z0-9_])\#(function.name)\s*\("#
                                                               : #"(?<![A-Za-z0-9_.])(?:self\.|Self\.)?\#(function.name)\s*\("#)
        let body = function.body
        for match in call.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
            let open = body.distance(from: body.startIndex, to: Range(match.range, in: body)!.upperBound) - 1
            let end = closing(characters, from: open, "(", ")")
            let arguments = String(characters[(open + 1)..<max(open + 1, end - 1)])
            if labels(arguments, declaration: false) == own { return true }
        }
        // Passed on as a function value: `.map(convert)`, `map(Self.convert)`.
        let passed = try! NSRegularExpression(pattern: #"[(,]\s*(?:Self\.)?\#(function.name)\s*\)"#)
        return passed.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)) != nil
    }
}
