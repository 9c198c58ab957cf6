import Foundation
import Testing

/// Specs/architecture.md, "Memory": raw memory is handled in one kit
/// (`Sources/PropertyList/Memory/`) and, where C hands Swift a pointer or
/// takes one, in one adapter folder per C library (`Sources/<Module>/<Name>Adapter/`).
/// These tests read every Swift file under `Sources/` and hold that line.
@Suite("Memory: unsafe code only in the byte kit and the C adapters")
struct MemorySafetyLayoutTests {
    /// Where raw memory may be handled.
    static func isAllowed(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        // Sources/<Module>/<Folder>/file.swift
        guard parts.count >= 4, parts[0] == "Sources" else { return false }
        if parts[1] == "PropertyList" && parts[2] == "Memory" { return true }
        return parts[2].hasSuffix("Adapter")
    }

    /// Names with "unsafe" in them that are not unsafe code: error codes.
    static let innocentNames: Set = ["unsafeFileName"]

    /// The unsafe names a line of code uses (comments and string literals left out).
    static func unsafeNames(in line: Substring) -> [String] {
        var code = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if !inString && character == "/" && previous == "/" { code.removeLast(); break }
            if character == "\"" && previous != "\\" { inString.toggle(); previous = character; continue }
            if !inString { code.append(character) }
            previous = character
        }
        let pattern = try! NSRegularExpression(pattern: #"\b(\w*[Uu]nsafe\w*)\b"#)
        return pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)).map { String(code[Range($0.range(at: 1), in: code)!]) }
            .filter { !innocentNames.contains($0) }
    }

    static let sources = ErrorCatalogTests.files(under: "Sources", suffix: ".swift")

    @Test("the scan sees the kit's own unsafe code (so that it could see any)")
    func scanWorks() throws {
        #expect(Self.sources.count > 80)
        let kit = try ErrorCatalogTests.text("Sources/PropertyList/Memory/GrowableBuffer.swift")
        #expect(kit.split(separator: "\n").contains { !Self.unsafeNames(in: $0).isEmpty })
        #expect(Self.unsafeNames(in: #"let s = "UnsafePointer" // withUnsafeBytes"#).isEmpty)
        #expect(Self.unsafeNames(in: "x.withUnsafeBytes { $0 }") == ["withUnsafeBytes"])
        #expect(Self.unsafeNames(in: "let v = unsafe p.pointee") == ["unsafe"])
    }

    @Test("no file outside the kit and the adapters names unsafe API")
    func unsafeOnlyInTheKit() throws {
        var offenders: [String] = []
        for path in Self.sources where !Self.isAllowed(path) {
            for (number, line) in try ErrorCatalogTests.text(path).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let names = Self.unsafeNames(in: line)
                if !names.isEmpty { offenders.append("\(path):\(number + 1): \(names.joined(separator: ", "))") }
            }
        }
        #expect(offenders.isEmpty, "unsafe code outside Sources/PropertyList/Memory and the *Adapter folders:\n\(offenders.joined(separator: "\n"))")
    }

    @Test("the C libraries are imported only by their adapters")
    func cOnlyInAdapters() throws {
        for path in Self.sources {
            let text = try ErrorCatalogTests.text(path)
            for library in ["CLibXML2Bridge", "CBZip2"] where text.contains("import \(library)\n") {
                #expect(Self.isAllowed(path) && path.contains("Adapter/"), "\(path) imports \(library) outside an adapter folder")
            }
        }
    }
}
