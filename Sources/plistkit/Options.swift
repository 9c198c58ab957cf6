import ArgumentParser
import PropertyList

/// `-o FILE` (`-` for standard output), shared by the verbs that write.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Output file ('-' for standard output). Replaced atomically.")
    var output: String = "-"

    func write(_ bytes: [UInt8]) throws { try Files.write(bytes, to: output) }
}

/// Runs a verb's work on one input; any error becomes one line on standard
/// error (`plistkit: FILE: …`) and exit status 1, never a stack trace.
func reporting(_ file: String, _ work: () throws -> Void) throws {
    do {
        try work()
    } catch {
        Files.complain("plistkit: \(file): \(error)")
        throw ExitCode(1)
    }
}
