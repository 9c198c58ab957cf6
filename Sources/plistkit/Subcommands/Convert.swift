import ArgumentParser
import DocumentFormats
import Handoff
import PropertyList
import FoundationEssentials

/// `plistkit convert FILE... --format F [-o OUT | -o DIR | -e EXT] [--jobs N]`.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert", 
        abstract: "Convert a property list (binary, XML, plain JSON, OpenStep, .strings, Xcode project) to another format.",
        discussion: "Writes to standard output unless -o is given (unlike plutil, never in place). Output files are replaced atomically."
    )

    @Argument(help: "The files to convert ('-' for standard input, only as the one file).")
    var files: [String]

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

    @OptionGroup var jobs: JobsOption

    @Option(name: .customLong("project-name"), help: "With --format pbxproj: the .xcodeproj's name, which Xcode writes in a comment (default: from FILE's path NAME.xcodeproj/project.pbxproj, else as the input's own comment records it).")
    var projectName: String?

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give a file to convert") }
        if projectName != nil, format != .pbxproj { throw ValidationError("--project-name goes with --format pbxproj") }
        if header {
            guard format == .objc else { throw ValidationError("--header goes with --format objc") }
            guard files.count == 1 else { throw ValidationError("--header goes with one file") }
            guard destination(of: files[0]) != "-" else { throw ValidationError("--header needs an output file (-o or -e) to put the header beside") }
        }
        if let pathExtension {
            guard output.output == "-" else { throw ValidationError("-e and -o cannot go together") }
            guard !files.contains("-") else { throw ValidationError("-e needs a file name, not standard input") }
            guard !pathExtension.isEmpty, !pathExtension.contains("/") else { throw ValidationError("-e \"\(pathExtension)\" is not an extension") }
        }
        if files.count > 1 {
            guard !files.contains("-") else { throw ValidationError("standard input ('-') can only be the one file") }
            guard pathExtension != nil || Files.isDirectory(output.output) else {
                throw ValidationError("converting \(files.count) files needs -e EXT or -o DIR (an existing directory)")
            }
        }
    }

    /// Where a file's output goes: -o (a file; or, for many files or a name
    /// ending in `/`, an existing directory: the file's name with the
    /// format's extension), or FILE with its extension replaced (-e).
    func destination(of file: String) -> String {
        let name = Self.name(of: file)
        guard let pathExtension else {
            // One file's -o names the output itself: a directory there is refused (notRegularFile), as before.
            let intoDirectory = files.count > 1 || output.output.hasSuffix("/")
            guard intoDirectory, output.output != "-", Files.isDirectory(output.output) else { return output.output }
            let directory = output.output.hasSuffix("/") ? output.output : output.output + "/"
            return directory + Self.stem(of: name) + "." + format.fileExtension
        }
        return String(file.dropLast(name.count)) + Self.stem(of: name) + "." + pathExtension
    }

    /// The last component of a path.
    static func name(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// A file name without its extension (a leading dot is no extension).
    static func stem(of name: String) -> String {
        name.lastIndex(of: ".").map { name[..<$0] }.map(String.init).flatMap { $0.isEmpty ? nil : $0 } ?? name
    }

    func run() throws {
        let destinations = files.map(destination(of:))
        // outputCollision: no two inputs write one output, and no output replaces another input.
        if files.count > 1 { try reporting(files[0]) { try Self.checkCollisions(files, destinations) } }
        var failed = false
        // Each file converted on a worker and written atomically there; failures reported here, in input order.
        try Parallel.run(count: files.count, jobs: jobs.count, work: { index -> String? in
            do {
                try convert(files[index], to: destinations[index])
                return nil
            } catch {
                return Console.describe(error)
            }
        }, deliver: { index, failure in
            guard let failure else { return }
            failed = true
            Console.fail(files[index], described: failure)
        })
        if failed { throw ExitCode(1) }
    }

    /// outputCollision (Specs/plistkit.md, "Many files"), checked before anything is written.
    static func checkCollisions(_ files: [String], _ destinations: [String]) throws {
        var inputs: [String: String] = [:]
        for file in files { inputs[Files.canonicalPath(file)] = file }
        var outputs: [String: String] = [:]
        for (file, destination) in zip(files, destinations) {
            let place = Files.canonicalPath(destination)
            if let other = outputs[place] {
                throw CLIFailure(code: "outputCollision", reason: "\(other) and \(file) would both be written to \(destination); nothing was written")
            }
            if let input = inputs[place], Files.canonicalPath(file) != place {
                throw CLIFailure(code: "outputCollision", reason: "\(file)'s output \(destination) would replace the input \(input); nothing was written")
            }
            outputs[place] = file
        }
    }

    /// Converts one file to `destination` (Specs/plistkit.md, "Output": atomically).
    private func convert(_ file: String, to destination: String) throws {
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
            // Within the budget the input sets (Specs/architecture.md, "One counted output").
            let budget = WriterLimits(maxExpandedBytes: PropertyListLimits.default.expansionBudget(inputBytes: bytes.count))
            encoded = try LiteralSource.write(value, as: format == .swift ? .swift : .objc, sourceFile: file, outputFile: destination, limits: budget)
            if header {
                // OUT.h beside OUT (its extension replaced): both files land, or neither.
                let name = Self.name(of: destination)
                let stem = Self.stem(of: name)
                let headerBytes = try LiteralSource.objcHeader(value, sourceFile: file)
                try Files.write([(headerBytes, String(destination.dropLast(name.count)) + stem + ".h"), (encoded, destination)])
                return
            }
        }
        try Files.write(encoded, to: destination)
    }
}
