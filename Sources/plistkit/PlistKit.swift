import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `plistkit`: inspect and convert property lists and Handoff payloads,
/// shaped after Apple's `plutil`. See `Specs/plistkit.md`.
///
/// Exit status: 0 on success, 1 when an input or an output fails (one line on
/// standard error), 64 for a usage error (one line on standard error). Never a
/// signal: a closed pipe is a write error like any other.
@main
struct PlistKit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plistkit",
        abstract: "Check, print and convert property lists strictly.",
        discussion: "Input format is detected from the bytes. '-' means standard input or output.",
        version: Version.text,
        subcommands: [Lint.self, Print.self, Convert.self, Extract.self, TypeOf.self, Insert.self, Replace.self, Remove.self, Create.self,
                      Unarchive.self, Archive.self, Payload.self, Diff.self, Merge.self]
    )

    static func main() {
        // A closed pipe makes write() fail with EPIPE, reported like any write failure.
        signal(SIGPIPE, SIG_IGN)
        do {
            if let lint = Lint.plainInvocation(CommandLine.arguments.dropFirst()) {
                try lint()
            } else {
                var command = try parseAsRoot()
                try command.run()
            }
        } catch let status as ExitCode {
            // A verb that already reported its failure.
            Glibc.exit(status.rawValue)
        } catch {
            let status = exitCode(for: error)
            switch status {
            case .success:
                // --help, --version, or no verb: the full text on standard output.
                do { try Console.line(fullMessage(for: error)) } catch { Glibc.exit(1) }
            case .failure:
                Console.fail("-", error)
            default:
                // A usage error: one line, the argument parser's message without its usage block.
                Console.usage(message(for: error).split(whereSeparator: \.isNewline).joined(separator: "; "))
            }
            Glibc.exit(status.rawValue)
        }
        Glibc.exit(0)
    }
}
