import ArgumentParser
import DocumentFormats
import Handoff
import PropertyList

/// `plistkit lint FILE...`: one line per file, `FILE: OK` or the reason.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lint", 
        abstract: "Check that files are valid property lists (binary, XML, JSON, OpenStep, .strings, Xcode projects).",
        discussion: "Prints 'FILE: OK' or 'FILE: CODE: <reason> (at offset N, key path P)' per file; exits 1 if any fails."
    )

    @Argument(help: "Files to check ('-' for standard input).")
    var files: [String]

    @Flag(name: [.short, .customLong("silent")], help: "Print only the files that fail (plutil -s).")
    var silent = false

    @Flag(help: "Check each file as an app's Info.plist: its Handoff declarations (activity types present, well formed, none twice).")
    var handoff = false

    @OptionGroup var jobs: JobsOption

    func run() throws {
        var failed = false
        // Each file checked on a worker; the lines printed here, in input order.
        // Each file's failures (none: it passes), found on a worker; printed here, in input order.
        try Parallel.run(count: files.count, jobs: jobs.count, work: { [files, handoff] index -> [String] in
            do {
                let value = try readDocument(files[index]).value
                guard handoff else { return [] }
                return try AppDeclarations(infoPlist: value).problems().map(Console.describe)
            } catch {
                return [Console.describe(error)]
            }
        }, deliver: { index, failures in
            if !failures.isEmpty { failed = true }
            if silent && failures.isEmpty { return }
            let name = Console.escaped(files[index])
            let lines = failures.isEmpty ? ["\(name): OK"] : failures.map { "\(name): \($0)" }
            try reporting("-") { try Console.write(Array(lines.map { $0 + "\n" }.joined().utf8)) }
        })
        if failed { throw ExitCode(1) }
    }
}
