import ArgumentParser
import DocumentFormats
import PropertyList

/// `plistkit convert FILE --format F [-o OUT]`.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a property list (binary, XML or plain JSON) to another format.",
        discussion: "Writes to standard output unless -o is given (unlike plutil, never in place). Output files are replaced atomically."
    )

    @Argument(help: "The file to convert ('-' for standard input).")
    var file: String

    @Option(name: .long, help: "Output format: \(ConvertFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ConvertFormat

    @OptionGroup var output: OutputOptions

    @OptionGroup var style: StyleOptions

    @Option(name: [.customShort("e"), .customLong("extension")], help: "Write beside FILE, its extension replaced by this one (plutil -e), instead of -o.")
    var pathExtension: String?

    func validate() throws {
        if let pathExtension {
            guard output.output == "-" else { throw ValidationError("-e and -o cannot go together") }
            guard file != "-" else { throw ValidationError("-e needs a file name, not standard input") }
            guard !pathExtension.isEmpty, !pathExtension.contains("/") else { throw ValidationError("-e \"\(pathExtension)\" is not an extension") }
        }
    }

    /// Where the output goes: -o, or FILE with its extension replaced (-e).
    var destination: String {
        guard let pathExtension else { return output.output }
        let name = file.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? file
        let directory = String(file.dropLast(name.count))
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? name
        return directory + stem + "." + pathExtension
    }

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            // Apple's wire forms hold userInfo values, not a property list: typed JSON only.
            if let wire = WireFormat.detect(bytes) {
                guard format == .typedJSON else {
                    throw PropertyListError(.unrepresentableValue, "\(wire == .mpUserInfo ? "an MP userInfo" : "an activity container") converts to typed-json only (its values are userInfo values, not a property list)")
                }
                try Files.write(try WireDocuments.typedJSON(bytes)!, to: destination)
                return
            }
            // Binary, XML or plain JSON, as plutil reads them.
            let value = try InputDocument.read(bytes).value
            let encoded: [UInt8]
            if let document = format.output {
                encoded = try Document.writeBytes(value, as: document, keyOrder: style.keyOrder, readable: style.readable)
            } else {
                encoded = try LiteralOutput.write(value, as: format == .swift ? .swift : .objc, sourceFile: file, outputFile: destination)
            }
            try Files.write(encoded, to: destination)
        }
    }
}
