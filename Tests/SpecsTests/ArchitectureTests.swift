import Foundation
import Testing

/// Specs/architecture.md draws the module graph "exactly as Package.swift
/// declares it": this test reads both and compares them target by target.
@Suite("Architecture: Specs/architecture.md's module table is Package.swift's graph")
struct ArchitectureTests {
    /// Each target of Package.swift and the targets (not products) it depends on.
    static func packageGraph() throws -> [String: Set<String>] {
        let source = try ErrorCatalogTests.text("Package.swift")
        let targetsStart = try #require(source.range(of: "targets: ["))
        var graph: [String: Set<String>] = [:]
        // Each target declaration: `.target(`, `.executableTarget(`, `.systemLibrary(`, not test targets.
        let declaration = try NSRegularExpression(pattern: #"\.(target|executableTarget|systemLibrary)\(\s*name: "([\w-]+)""#)
        let text = String(source[targetsStart.lowerBound...])
        let matches = declaration.matches(in: text, range: NSRange(text.startIndex..., in: text))
        for (position, match) in matches.enumerated() {
            let name = String(text[Range(match.range(at: 2), in: text)!])
            let end = position + 1 < matches.count ? Range(matches[position + 1].range, in: text)!.lowerBound : text.endIndex
            var body = String(text[Range(match.range, in: text)!.upperBound..<end])
            if let tests = body.range(of: ".testTarget(") { body = String(body[..<tests.lowerBound]) }
            var dependencies: Set<String> = []
            if let list = body.range(of: "dependencies: [") {
                var depth = 1
                var index = list.upperBound
                while depth > 0, index < body.endIndex {
                    if body[index] == "[" { depth += 1 } else if body[index] == "]" { depth -= 1 }
                    index = body.index(after: index)
                }
                let inside = body[list.upperBound..<index]
                // Plain string literals are targets; `.product(name:…)` entries are packages.
                for line in inside.split(separator: "\n") {
                    for item in line.split(separator: ",") where !line.contains(".product(") {
                        let trimmed = item.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "[]")))
                        if trimmed.hasPrefix("\""), trimmed.hasSuffix("\""), trimmed.count > 2 {
                            dependencies.insert(String(trimmed.dropFirst().dropLast()))
                        }
                    }
                }
            }
            graph[name] = dependencies
        }
        return graph
    }

    /// The "Modules" table of Specs/architecture.md: module → depends on.
    static func specGraph() throws -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        var inTable = false
        for line in try ErrorCatalogTests.text("Specs/architecture.md").split(separator: "\n") {
            if line.hasPrefix("## ") { inTable = line == "## Modules"; continue }
            guard inTable, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let dependencies = cells[cells.count - 2] == "—" ? [] : cells[cells.count - 2].split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "`"))) }
            graph[module] = Set(dependencies)
        }
        return graph
    }

    @Test("every target, and each one's dependencies, as the spec's table says")
    func graphsAgree() throws {
        let package = try Self.packageGraph()
        let spec = try Self.specGraph()
        #expect(package.count >= 12, "Package.swift was not parsed: \(package.keys.sorted())")
        #expect(Set(package.keys) == Set(spec.keys), "targets: Package.swift \(package.keys.sorted()), spec \(spec.keys.sorted())")
        for (target, dependencies) in package {
            #expect(spec[target] == dependencies, "\(target): Package.swift \(dependencies.sorted()), spec \(spec[target]?.sorted() ?? [])")
        }
    }

    @Test("the layers hold: no codec imports another codec, nothing below the format layer imports it")
    func layering() throws {
        let package = try Self.packageGraph()
        let codecs: Set = ["PropertyListXML", "PropertyListOpenStep", "TypedJSON", "KeyedArchive", "MPUserInfo", "ActivityContainer"]
        for codec in codecs {
            #expect(package[codec, default: []].isDisjoint(with: codecs), "\(codec) depends on another codec")
        }
        for lower in ["PropertyList", "PropertyListXML", "PropertyListOpenStep", "UserInfo", "TypedJSON", "KeyedArchive", "MPUserInfo", "ActivityContainer"] {
            #expect(!package[lower, default: []].contains("DocumentFormats"))
        }
        #expect(!package["KeyedArchive", default: []].contains("PropertyListXML"), "KeyedArchive must not need libxml2")
        // The format layer is the command-line tool's only way to the formats.
        #expect(package["plistkit", default: []].isDisjoint(with: codecs), "plistkit depends on a codec: \(package["plistkit", default: []].intersection(codecs).sorted())")
        for path in ErrorCatalogTests.files(under: "Sources/plistkit", suffix: ".swift") {
            let text = try ErrorCatalogTests.text(path)
            for codec in codecs {
                #expect(!text.contains("import \(codec)\n"), "\(path) imports \(codec)")
            }
        }
    }

    /// The drawing at the top of Specs/architecture.md: its first code block.
    static func drawing() throws -> String {
        let page = try ErrorCatalogTests.text("Specs/architecture.md")
        let start = try #require(page.range(of: "```\n"))
        let end = try #require(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound])
    }

    @Test("the drawing names every target of Package.swift")
    func drawingNamesEveryModule() throws {
        let package = try Self.packageGraph()
        let drawing = try Self.drawing()
        let named = Set(try NSRegularExpression(pattern: #"[\w-]+"#).matches(in: drawing, range: NSRange(drawing.startIndex..., in: drawing))
            .map { String(drawing[Range($0.range, in: drawing)!]) })
        #expect(named.contains("DocumentFormats") && !named.contains("NoSuchModule"), "the scan read the drawing")
        for target in package.keys.sorted() {
            #expect(named.contains(target), "Specs/architecture.md's drawing does not name \(target)")
        }
    }

    @Test("the payload layer reaches every codec through the format layer: ActivityContainer for its types only, no codec's reader or writer")
    func payloadThroughFormatLayer() throws {
        let package = try Self.packageGraph()
        let codecs: Set = ["PropertyListXML", "PropertyListOpenStep", "TypedJSON", "KeyedArchive", "MPUserInfo", "ActivityContainer"]
        #expect(package["Handoff", default: []].intersection(codecs) == ["ActivityContainer"])
        #expect(package["Handoff", default: []].contains("DocumentFormats"))
        let files = ErrorCatalogTests.files(under: "Sources/Handoff", suffix: ".swift")
        #expect(files.count > 10, "the scan found the payload layer")
        for path in files {
            let text = try ErrorCatalogTests.text(path)
            for codec in codecs.subtracting(["ActivityContainer"]) {
                #expect(!text.contains("import \(codec)\n"), "\(path) imports \(codec)")
            }
            // Readers and writers of the codecs (the binary codec's are in PropertyList), outside comments.
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for name in ["ActivityContainerReader", "ActivityContainerWriter", "BinaryPropertyListReader", "BinaryPropertyListWriter"] {
                #expect(!code.contains(name), "\(path) calls \(name) (the format layer has it)")
            }
        }
    }

    @Test("one detector: each codec's signature test is called by DocumentFormat.detect only")
    func oneDetector() throws {
        let tests = ["BinaryPropertyListReader.hasMagic", "MPUserInfoReader.hasMagic", "ActivityContainerReader.hasHeader", "XMLPropertyListReader.looksLikeXML"]
        let detector = "Sources/DocumentFormats/DocumentFormat.swift"
        let text = try ErrorCatalogTests.text(detector)
        for test in tests { #expect(text.contains(test + "("), "the detector calls \(test)") }
        for path in ErrorCatalogTests.files(under: "Sources", suffix: ".swift") where path != detector {
            let code = try ErrorCatalogTests.text(path).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for test in tests {
                #expect(!code.contains(test + "("), "\(path) calls \(test): formats are told apart by DocumentFormat.detect")
            }
        }
    }
}
