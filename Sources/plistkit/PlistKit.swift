import ArgumentParser

/// `plistkit`: inspect and convert property lists and Handoff payloads,
/// shaped after Apple's `plutil`. See `Specs/plistkit.md`.
@main
struct PlistKit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plistkit",
        abstract: "Check, print and convert property lists strictly.",
        discussion: "Input format is detected from the bytes. '-' means standard input or output.",
        version: "0.1.0",
        subcommands: [Lint.self, Print.self, Convert.self, Unarchive.self, Archive.self, Payload.self]
    )
}
