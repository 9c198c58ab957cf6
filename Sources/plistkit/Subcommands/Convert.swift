import ArgumentParser
import DocumentFormats
import Handoff
import PropertyList
import FoundationEssentials

/// `plistkit convert FILE --format F [-o OUT]`.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a property list (binary, XML, plain JSON, OpenStep, .strings, Xcode project) to another format.",
        discussion: "Writes to standard output unless -o is given (unlike plutil, never in place). Output files are replaced atomically."
    )

    @Argument(help: "The file to convert ('-' for standard input).")
    var file: String

    @Option(name: .long, help: "Output format: \(ConvertFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ConvertFormat

    @OptionGroup var output: OutputOptions

    @OptionGroup var style: StyleOptions

    @Option(name: .customLong("from"), help: "Read the input as typed-json (Specs/typed-json.md) instead of detecting binary, XML, plain JSON or OpenStep.")
    var inputFormat: InputFormat?

    enum InputFormat: String, ExpressibleByArgument { case typedJSON = "typed-json" }

    @Option(name: [.customShort("e"), .customLong("extension")], help: "Write beside FILE, its extension replaced by this one (plutil -e), instead of -o.")
    var pathExtension: String?

    @Flag(help: "With --format objc, also write the header FILE.h beside the output (plutil -header); -o must name a file.")
    var header = false

    @Option(name: .customLong("project-name"), help: "With --format pbxproj: the .xcodeproj's name, which Xcode writes in a comment (default: from FILE's path NAME.xcodeproj/project.pbxproj, else as the input's own comment records it).")
    var projectName: String?

    func validate() throws {
        if projectName != nil, format != .pbxproj { throw ValidationError("--project-name goes with --format pbxproj") }
        if header {
            guard format == .objc else { throw ValidationError("--header goes with --format objc") }
            guard destination != "-" else { throw ValidationError("--header needs an output file (-o or -e) to put the header beside") }
        }
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
            if let wire = DocumentFormat.detect(bytes), !wire.holdsPropertyList {
                guard format == .typedJSON else {
                    throw PropertyListError(.unrepresentableValue, "\(wire == .mpUserInfo ? "an MP userInfo" : "an activity container") converts to typed-json only (its values are userInfo values, not a property list)")
                }
                try Files.write(try WireDocuments.typedJSON(bytes)!, to: destination)
                return
            }
            // Binary, XML, plain JSON or OpenStep text, as plutil reads them; typed
            // JSON when asked (it is JSON too, so it is never guessed).
            let input = inputFormat == .typedJSON
                ? Document.Reading(value: try Document.propertyList(typedJSON: bytes), format: .typedJSON)
                : try Document.read(document: bytes)
            let value = input.value
            let encoded: [UInt8]
            if let document = format.output {
                let name = document == .xcodeProject ? Document.xcodeProjectName(given: projectName, path: file == "-" ? nil : file, input: bytes) : ""
                // OpenStep text to OpenStep text keeps its encoding (a UTF-16 .strings file stays UTF-16).
                let encoding = document == .openStep || document == .strings ? input.textEncoding ?? .utf8 : .utf8
                // Written over the input: a .strings file keeps its comments, a project what its comments recorded.
                encoded = try Document.writeBytes(value, as: document, keyOrder: style.keyOrder(for: document), readable: style.readable,
                                                  compact: style.compact, projectName: name, textEncoding: encoding, over: input)
            } else {
                encoded = try LiteralSource.write(value, as: format == .swift ? .swift : .objc, sourceFile: file, outputFile: destination)
                if header {
                    // OUT.h beside OUT (its extension replaced): both files land, or neither.
                    let name = destination.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? destination
                    let stem = name.lastIndex(of: ".").map { String(name[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? name
                    let headerBytes = try LiteralSource.objcHeader(value, sourceFile: file)
                    try Files.write([(headerBytes, String(destination.dropLast(name.count)) + stem + ".h"), (encoded, destination)])
                    return
                }
            }
            try Files.write(encoded, to: destination)
        }
    }
}
