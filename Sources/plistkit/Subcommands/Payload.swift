import DocumentFormats
import Handoff
import ArgumentParser
import FoundationEssentials
import PropertyList
import UserInfo

/// `plistkit payload …`: Handoff payloads (Specs/payload.md, Specs/plistkit.md).
/// Every verb goes through `PayloadCodec`, the only path to and from the wire.
struct Payload: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "payload", 
        abstract: "Check, translate, encode and decode Handoff activity payloads.",
        subcommands: [Check.self, Translate.self, Encode.self, Decode.self]
    )

    /// Writes a payload's envelope as typed JSON (as `decode` and `translate` give it).
    static func write(_ payload: ActivityPayload, to output: OutputOptions) throws {
        try output.write(try Document.typedJSON(payload.envelope))
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check", 
            abstract: "Validate a payload as the receiver would: size and per-key cost, version, URLs.",
            discussion: "The report goes to standard output. Over --budget is a warning; over --hard-limit, or any other violation, is one error line on standard error and exit 1."
        )

        @OptionGroup var input: WireInput

        @OptionGroup var budget: BudgetOptions

        @OptionGroup var versions: VersionSupportOptions

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        @Option(name: .customLong("info-plist"), help: "The receiving app's Info.plist: the activity type must be one it declares (NSUserActivityTypes, or a document type's NSUbiquitousDocumentUserActivityType).")
        var infoPlist: String?

        @Option(name: .customLong("team-id"), help: "The receiving app's team ID: the sender's must be the same.")
        var teamID: String?

        func validate() throws { try LayoutOptions.check(layout, option: "--layout") }

        func run() throws {
            // The receiving app's declarations, read first (their errors are the Info.plist's).
            var declarations: AppDeclarations?
            if let infoPlist {
                try reporting(infoPlist) { declarations = try AppDeclarations(infoPlist: try readDocument(infoPlist).value) }
            }
            try reporting(input.file) {
                let bytes = try input.bytes()
                var codec = PayloadCodec(layout: layoutOptions.layout(layout), versioning: versions.versioning, budget: budget.sizeBudget)
                codec.reportsCostPerKeyPath = true
                let decoded = try codec.decode(Data(bytes))
                // The app's declarations are checked after every other rule (undeclaredActivityType, teamMismatch).
                // The cost of the userInfo as it travelled (before this device's URL translation).
                guard let cost = decoded.cost else {
                    try Self.checkApp(declarations, decoded.payload, teamID: teamID)
                    return
                }
                var report = "activity type: \(Console.escaped(decoded.payload.activityType))\n"
                if let found = decoded.foundVersion { report += "version: \(found)\n" }
                report += "userInfo: \(cost.total) bytes as \(decoded.userInfoForm == .mp ? "MP" : "a keyed archive") (advised at most \(codec.budget.softLimit))\n"
                report += "cost per key path (bytes saved by removing it):\n"
                for entry in cost.entries { report += "  \(String(entry.bytes).leftPadded(to: 7))  \(Console.escaped(entry.keyPath.description))\n" }
                for warning in cost.warnings { report += "warning: \(warning)\n" }
                try Console.write(Array(report.utf8))
                try codec.budget.check(cost.total)
                try Self.checkApp(declarations, decoded.payload, teamID: teamID)
            }
        }

        /// The receiving app's declarations (Specs/payload.md, "The receiving
        /// app", "Document activities"): the activity type and team; for a
        /// document activity, its document's type.
        static func checkApp(_ declarations: AppDeclarations?, _ payload: ActivityPayload, teamID: String?) throws {
            guard let declarations else { return }
            try declarations.accept(activityType: payload.activityType, senderTeamID: payload.teamID, teamID: teamID)
            if DocumentActivity.isDocumentActivity(payload) {
                try declarations.accept(document: try DocumentActivity(reading: payload))
            }
        }
    }

    struct Translate: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "translate", 
            abstract: "Show what a receiver's app gets when a sender's app sends a payload.",
            discussion: "Reads a typed-JSON envelope as the sender's app has it (file URLs in the --from layout), encodes it as that sender, decodes the wire form as the receiver (--to), and writes the receiver's typed-JSON envelope."
        )

        @OptionGroup var input: EnvelopeInput

        @Option(help: "The sender's layout: macos:HOME, ios or root:PATH.")
        var from: String

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var to: String

        @OptionGroup var layoutOptions: LayoutOptions

        @OptionGroup var budget: BudgetOptions

        @OptionGroup var wire: WireOptions

        @OptionGroup var output: OutputOptions

        func validate() throws {
            try LayoutOptions.check(from, option: "--from")
            try LayoutOptions.check(to, option: "--to")
        }

        func run() throws {
            try reporting(input.file) {
                var sender = PayloadCodec(layout: layoutOptions.layout(from), budget: budget.sizeBudget, userInfoForm: wire.form)
                sender.compresses = !wire.noCompression
                let receiver = PayloadCodec(layout: layoutOptions.layout(to))
                let received = try receiver.decode(try sender.encode(try input.envelope()).data)
                try Payload.write(received.payload, to: output)
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "encode", 
            abstract: "Build a payload's wire form (an activity container) from its typed-JSON envelope.",
            discussion: "The envelope is a typed-JSON dict with activityType, userInfo and the optional fields (Specs/payload.md). File URLs are translated for the sender's --layout; the version is stamped with --version-key and --version. The userInfo is written as MP (Apple's current form) or, with --userinfo-form keyed-archive, as a keyed archive for older peers; the container is bzip2-compressed as Apple's sender does unless --no-compression."
        )

        @OptionGroup var input: EnvelopeInput

        @Option(help: "The sender's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        @Option(name: .customLong("version-key"), help: "The userInfo key to stamp the version under.")
        var versionKey: String?

        @Option(help: "The version to stamp, MAJOR.MINOR (with --version-key).")
        var version: String?

        @OptionGroup var budget: BudgetOptions

        @OptionGroup var wire: WireOptions

        @OptionGroup var output: OutputOptions

        @Option(help: "A document activity: this document's file URL goes into userInfo under NSUserActivityDocumentURL (as NSDocument and UIDocument put it).")
        var document: String?

        func validate() throws {
            try LayoutOptions.check(layout, option: "--layout")
            if document?.isEmpty == true { throw ValidationError("--document needs a file URL") }
            if (versionKey == nil) != (version == nil) { throw ValidationError("--version-key and --version go together") }
            if versionKey == "" { throw ValidationError("--version-key must not be empty") }
            if let version, PayloadVersion(version) == nil { throw ValidationError("--version \"\(version)\" is not MAJOR.MINOR") }
        }

        func run() throws {
            try reporting(input.file) {
                var codec = PayloadCodec(layout: layoutOptions.layout(layout), budget: budget.sizeBudget, userInfoForm: wire.form)
                codec.compresses = !wire.noCompression
                if let versionKey, let version, let current = PayloadVersion(version) {
                    codec.versioning = PayloadVersioning(key: versionKey, current: current)
                }
                var payload = try input.envelope()
                if let document {
                    // A document activity (Specs/payload.md, "Document activities"): the URL beside the app's keys.
                    let activity = DocumentActivity(activityType: payload.activityType, documentURL: UserInfoURL(relative: document), userInfo: payload.userInfo)
                    let built = try activity.payload(title: payload.title, teamID: payload.teamID)
                    payload.userInfo = built.userInfo
                }
                let encoded = try codec.encode(payload)
                try output.write(Array(encoded.data))
                for warning in encoded.cost.warnings { Console.warn(warning) }
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decode", 
            abstract: "Decode a payload for this device and show its envelope as typed JSON.",
            discussion: "Container references resolve against the receiver's --layout; --version-key with --supports checks the version."
        )

        @OptionGroup var input: WireInput

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        @OptionGroup var versions: VersionSupportOptions

        @OptionGroup var output: OutputOptions

        func validate() throws { try LayoutOptions.check(layout, option: "--layout") }

        func run() throws {
            try reporting(input.file) {
                let bytes = try input.bytes()
                let codec = PayloadCodec(layout: layoutOptions.layout(layout), versioning: versions.versioning)
                try Payload.write(try codec.decode(Data(bytes)).payload, to: output)
            }
        }
    }
}

/// The wire form `payload check` and `decode` read (`-` for standard input),
/// within the payload's input limit.
struct WireInput: ParsableArguments {
    @Argument(help: "The payload: an activity container, userInfo as MP or a keyed archive ('-' for standard input).")
    var file: String

    /// The file's bytes.
    func bytes() throws -> [UInt8] { try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes) }
}

/// The typed-JSON envelope `payload encode` and `translate` read (`-` for
/// standard input), within the payload's limits.
struct EnvelopeInput: ParsableArguments {
    @Argument(help: "The typed-JSON envelope as the sender has it ('-' for standard input).")
    var file: String

    /// The envelope as a payload.
    func envelope() throws -> ActivityPayload {
        let bytes = try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes)
        return try ActivityPayload(envelope: try Document.userInfo(typedJSON: bytes, limits: .payload))
    }
}

/// How `payload encode` writes the wire form.
struct WireOptions: ParsableArguments {
    @Option(name: .customLong("userinfo-form"), help: "The userInfo's form in the container: mp (default) or keyed-archive.")
    var formName: String = "mp"

    @Flag(name: .customLong("no-compression"), help: "Never bzip2-compress the container (Apple's sender compresses packets of 2,049 bytes or more when smaller).")
    var noCompression = false

    var form: UserInfoWireForm { formName == "keyed-archive" ? .keyedArchive : .mp }

    func validate() throws {
        guard ["mp", "keyed-archive"].contains(formName) else {
            throw ValidationError("--userinfo-form \"\(formName)\" is not mp or keyed-archive")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
