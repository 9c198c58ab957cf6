import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit archive FILE [--format binary1|xml1] [-o OUT]`: typed JSON to a keyed archive.
struct Archive: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "archive", 
        abstract: "Build an NSKeyedArchiver archive from a typed-JSON userInfo value.",
        discussion: "The archive opens in Apple's NSKeyedUnarchiver with secure coding and the ten userInfo classes."
    )

    @Argument(help: "The typed-JSON file ('-' for standard input).")
    var file: String

    @Option(name: .long, help: "Output format: \(ArchiveFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ArchiveFormat = .binary1

    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            let value = try Document.userInfo(typedJSON: bytes)
            try output.write(try Document.archiveBytes(value, as: format.output))
        }
    }
}
