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
        try Self.check(files, silent: silent, handoff: handoff, jobs: jobs.count)
    }

    /// The verb's work, for `run()` and for the plain invocations that
    /// skip the argument parser (``plainInvocation(_:)``).
    static func check(_ files: [String], silent: Bool, handoff: Bool, jobs: Int) throws {
        var failed = false
        // Each file's failures (none: it passes), found on a worker; printed here, in input order.
        try Parallel.run(count: files.count, jobs: jobs, work: { [files, handoff] index -> [String] in
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

    /// `lint` with nothing but files and the flags `-s`, `--silent` and
    /// `--handoff`, in any order (Specs/plistkit.md, "Start-up"): the verb's
    /// work, run without the argument parser, whose start costs several
    /// times a tiny file's check; nil for anything else (an option, `--`,
    /// `--help`, any other word that starts with `-`), which the parser takes.
    /// A file is `-` or a word that does not start with `-`, as the parser
    /// reads it; at least one, as the parser requires.
    static func plainInvocation(_ arguments: ArraySlice<String>) -> (() throws -> Void)? {
        guard arguments.first == "lint" else { return nil }
        var files: [String] = []
        var silent = false
        var handoff = false
        for argument in arguments.dropFirst() {
            switch argument {
            case "-s", "--silent": silent = true
            case "--handoff": handoff = true
            case "-": files.append(argument)
            default:
                guard !argument.hasPrefix("-") else { return nil }
                files.append(argument)
            }
        }
        guard !files.isEmpty else { return nil }
        return { [files, silent, handoff] in
            try check(files, silent: silent, handoff: handoff, jobs: Parallel.availableCores)
        }
    }
}
