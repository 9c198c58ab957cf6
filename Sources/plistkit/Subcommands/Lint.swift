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

    @OptionGroup var jobs: JobsOption

    func run() throws {
        var failed = false
        // Each file checked on a worker; the lines printed here, in input order.
        // A failure's text, nil for a file that passes.
        try Parallel.run(count: files.count, jobs: jobs.count, work: { [files] index -> String? in
            do {
                _ = try readDocument(files[index])
                return nil
            } catch {
                return Console.describe(error)
            }
        }, deliver: { index, failure in
            if failure != nil { failed = true }
            if silent && failure == nil { return }
            try reporting("-") { try Console.line("\(Console.escaped(files[index])): \(failure ?? "OK")") }
        })
        if failed { throw ExitCode(1) }
    }
}
