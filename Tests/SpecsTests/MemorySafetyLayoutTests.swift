import Foundation
import Testing

/// Specs/architecture.md, "Memory": raw memory is handled in one kit
/// (`Sources/PropertyList/Memory/`) and, where C hands Swift a pointer or
/// takes one, in one adapter folder per C library or system interface. These
/// tests read every Swift file under `Sources/` and hold that line.
@Suite("Memory: unsafe code only in the byte kit and the C adapters")
struct MemorySafetyLayoutTests {
    /// The folders where raw memory may be handled, each named (a new
    /// folder is added here and in Specs/architecture.md, "Memory", together).
    static let allowedFolders = [
        "Sources/PropertyList/Memory/",
        "Sources/PropertyListXML/LibXML2Adapter/",
        "Sources/ActivityContainer/BZip2Adapter/",
        "Sources/plistkit/SystemAdapter/",
        "Sources/FuzzChecks/LibFuzzerAdapter/",
    ]

    /// Where raw memory may be handled.
    static func isAllowed(_ path: String) -> Bool {
        allowedFolders.contains { path.hasPrefix($0) }
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
        // Anything named unsafe (`unsafe`, `UnsafePointer`, `unsafeBitCast`,
        // `withUnsafeBytes`, …) and `Unmanaged`, which hands out raw pointers
        // to objects and retains and releases by hand.
        let pattern = try! NSRegularExpression(pattern: #"\b(\w*[Uu]nsafe\w*|Unmanaged)\b"#)
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
        #expect(Self.unsafeNames(in: "let n = unsafeBitCast(x, to: Int.self)") == ["unsafeBitCast"])
        #expect(Self.unsafeNames(in: "let o = Unmanaged.passRetained(self).toOpaque()") == ["Unmanaged"])
        #expect(Self.unsafeNames(in: "let u = Unmanaged<Object>.fromOpaque(p)") == ["Unmanaged"])
    }

    @Test("every allowed folder exists and holds Swift code (a renamed folder fails here, not silently)")
    func allowedFoldersExist() {
        for folder in Self.allowedFolders {
            #expect(Self.sources.contains { $0.hasPrefix(folder) }, "\(folder) holds no Swift file")
        }
        // Nothing else with an adapter's name is allowed by its name alone.
        #expect(!Self.isAllowed("Sources/PropertyListXML/OtherAdapter/File.swift"))
        #expect(!Self.isAllowed("Sources/plistkit/Parallel.swift"))
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
        #expect(offenders.isEmpty, "unsafe code outside \(Self.allowedFolders.joined(separator: ", ")):\n\(offenders.joined(separator: "\n"))")
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
