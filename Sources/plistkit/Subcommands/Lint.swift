import ArgumentParser
import DocumentFormats
import PropertyList

/// `plistkit lint FILE...`: one line per file, `FILE: OK` or the reason.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that files are valid property lists (binary, XML, JSON, OpenStep, .strings, Xcode projects).",
        discussion: "Prints 'FILE: OK' or 'FILE: CODE: <reason> (at offset N, key path P)' per file; exits 1 if any fails."
    )

    @Argument(help: "Files to check ('-' for standard input).")
    var files: [String]

    @Flag(name: [.short, .customLong("silent")], help: "Print only the files that fail (plutil -s).")
    var silent = false

    func run() throws {
        var failed = false
        for file in files {
            let verdict: String
            do {
                _ = try readDocument(file)
                verdict = "OK"
            } catch {
                failed = true
                verdict = Console.describe(error)
            }
            if silent && verdict == "OK" { continue }
            try reporting("-") { try Console.line("\(Console.escaped(file)): \(verdict)") }
        }
        if failed { throw ExitCode(1) }
    }
}
