import ActivityPayload
import ArgumentParser
import FoundationEssentials
import KeyedArchive
import PropertyList

/// `plistkit payload …`: Handoff payloads (Specs/payload.md, Specs/plistkit.md).
struct Payload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check, translate, encode and decode Handoff activity payloads.",
        subcommands: [Check.self, Translate.self, Encode.self, Decode.self]
    )

    /// `--version-key K --supports 2.x`: the versions a receiver understands.
    struct VersionSupportOptions: ParsableArguments {
        @Option(name: .customLong("version-key"), help: "The userInfo key holding the payload version.")
        var versionKey: String?

        @Option(help: "The versions understood, as MAJOR.x or MAJOR.MINOR (with --version-key).")
        var supports: String?

        func validate() throws {
            if (versionKey == nil) != (supports == nil) { throw ValidationError("--version-key and --supports go together") }
            if let supports, Supports.version(supports) == nil { throw ValidationError("--supports \"\(supports)\" is not MAJOR.x or MAJOR.MINOR") }
        }

        var versioning: PayloadVersioning? {
            guard let versionKey, let supports, let current = Supports.version(supports) else { return nil }
            return PayloadVersioning(key: versionKey, current: current)
        }
    }

    /// Options naming a device's synced containers.
    struct LayoutOptions: ParsableArguments {
        @Option(name: .customLong("container"), help: "A container identifier the device has (repeatable), e.g. iCloud.com.example.App.")
        var containers: [String] = []

        func layout(_ text: String?) throws -> ContainerLayout? {
            guard let text else { return nil }
            guard let layout = ContainerLayout.parse(text, containers: Set(containers)) else {
                throw ValidationError("layout \"\(text)\" is not macos:HOME, ios or root:PATH")
            }
            return layout
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a payload: size and per-key cost, version, URLs.",
            discussion: "Exit 1 on any violation. Over --budget is a warning; over --hard-limit is a violation."
        )

        @Argument(help: "The payload (keyed archive; '-' for standard input).")
        var file: String

        @Option(help: "Advised size of the encoded userInfo (e.g. 3KB, 3072).")
        var budget: String = "3KB"

        @Option(name: .customLong("hard-limit"), help: "Largest allowed size of the encoded userInfo.")
        var hardLimit: String?

        @OptionGroup var versions: VersionSupportOptions

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        func validate() throws {
            guard Byte.parse(budget) != nil else { throw ValidationError("--budget \"\(budget)\" is not a size") }
            if let hardLimit, Byte.parse(hardLimit) == nil { throw ValidationError("--hard-limit \"\(hardLimit)\" is not a size") }
        }

        func run() throws {
            var failed = false
            do {
                let bytes = try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes)
                let codec = PayloadCodec(layout: try layoutOptions.layout(layout), versioning: versions.versioning)
                let decoded = try codec.decode(Data(bytes))
                // The cost of the userInfo as it travels (before this device's URL translation).
                let wire = try ActivityPayload(envelope: try UserInfoCodec(limits: .payload).decode(Data(bytes)))
                let cost = try PayloadCodec.cost(of: wire.userInfo, budget: SizeBudget(softLimit: Byte.parse(budget)!))
                print("activity type: \(decoded.payload.activityType)")
                if let found = decoded.foundVersion { print("version: \(found)") }
                print("userInfo: \(cost.total) bytes (advised at most \(Byte.parse(budget)!))")
                print("cost per key path (bytes saved by removing it):")
                for entry in cost.entries { print("  \(String(entry.bytes).leftPadded(to: 7))  \(entry.keyPath)") }
                for warning in cost.warnings { print("warning: \(warning)") }
                if let hardLimit, let limit = Byte.parse(hardLimit), cost.total > limit {
                    print("error: overBudget(size: \(cost.total), limit: \(limit))")
                    failed = true
                }
            } catch let error as PayloadError {
                Files.complain("plistkit: \(file): \(error.code): \(error)")
                failed = true
            } catch {
                Files.complain("plistkit: \(file): \(error)")
                failed = true
            }
            if failed { throw ExitCode(1) }
        }
    }

    struct Translate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite the file URLs of a payload from one device's containers to another's."
        )

        @Argument(help: "The payload (keyed archive; '-' for standard input).")
        var file: String

        @Option(help: "The sender's layout: macos:HOME, ios or root:PATH.")
        var from: String

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var to: String

        @OptionGroup var layoutOptions: LayoutOptions

        @OptionGroup var output: OutputOptions

        func run() throws {
            do {
                let bytes = try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes)
                let envelope = try UserInfoCodec(limits: .payload).decode(Data(bytes))
                var payload = try ActivityPayload(envelope: envelope)
                let translator = URLTranslator()
                let moved = try translator.incoming(try translator.outgoing(.dictionary(payload.userInfo), from: try layoutOptions.layout(from)),
                                                    to: try layoutOptions.layout(to))
                payload.userInfo = moved.dictionaryValue ?? [:]
                try output.write(Array(try KeyedArchiveWriter().write(payload.envelope)))
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build a payload's wire form from its typed-JSON envelope.",
            discussion: "The envelope is a typed-JSON dict with activityType, userInfo and the optional fields (Specs/payload.md). File URLs are translated for the sender's --layout; the version is stamped with --version-key and --version."
        )

        @Argument(help: "The typed-JSON envelope ('-' for standard input).")
        var file: String

        @Option(help: "The sender's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        @Option(name: .customLong("version-key"), help: "The userInfo key to stamp the version under.")
        var versionKey: String?

        @Option(help: "The version to stamp, MAJOR.MINOR (with --version-key).")
        var version: String?

        @Option(help: "Advised size of the encoded userInfo (warning above it).")
        var budget: String = "3KB"

        @Option(name: .customLong("hard-limit"), help: "Largest allowed size of the encoded userInfo.")
        var hardLimit: String?

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if (versionKey == nil) != (version == nil) { throw ValidationError("--version-key and --version go together") }
            if let version, PayloadVersion(version) == nil { throw ValidationError("--version \"\(version)\" is not MAJOR.MINOR") }
            guard Byte.parse(budget) != nil else { throw ValidationError("--budget \"\(budget)\" is not a size") }
            if let hardLimit, Byte.parse(hardLimit) == nil { throw ValidationError("--hard-limit \"\(hardLimit)\" is not a size") }
        }

        func run() throws {
            try reporting(file) {
                let bytes = try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes)
                let payload = try ActivityPayload(envelope: try TypedJSONReader(limits: .payload).readUserInfo(Data(bytes)))
                var codec = PayloadCodec(layout: try layoutOptions.layout(layout),
                                         budget: SizeBudget(softLimit: Byte.parse(budget)!, hardLimit: hardLimit.flatMap(Byte.parse)))
                if let versionKey, let version, let current = PayloadVersion(version) {
                    codec.versioning = PayloadVersioning(key: versionKey, current: current)
                }
                let encoded = try codec.encode(payload)
                for warning in encoded.cost.warnings { Files.complain("plistkit: warning: \(warning)") }
                try output.write(Array(encoded.data))
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode a payload for this device and show its envelope as typed JSON.",
            discussion: "Container references resolve against the receiver's --layout; --version-key with --supports checks the version."
        )

        @Argument(help: "The payload (keyed archive; '-' for standard input).")
        var file: String

        @Option(help: "The receiver's layout: macos:HOME, ios or root:PATH.")
        var layout: String?

        @OptionGroup var layoutOptions: LayoutOptions

        @OptionGroup var versions: VersionSupportOptions

        @OptionGroup var output: OutputOptions

        func run() throws {
            try reporting(file) {
                let bytes = try Files.read(file, limit: PropertyListLimits.payload.maxInputBytes)
                let codec = PayloadCodec(layout: try layoutOptions.layout(layout), versioning: versions.versioning)
                let decoded = try codec.decode(Data(bytes))
                try output.write(Array(TypedJSONWriter(pretty: true).write(decoded.payload.envelope)) + [0x0A])
            }
        }
    }
}

/// Sizes such as `3KB`, `64KiB`, `4096`.
enum Byte {
    static func parse(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1024), ("KB", 1024), ("MiB", 1 << 20), ("MB", 1 << 20), ("B", 1), ("", 1)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            guard let number = Int(text.dropLast(suffix.count)), number >= 0 else { continue }
            return number * factor
        }
        return nil
    }
}

enum Supports {
    /// `2.x` means any 2.*; `2.1` means 2.1 (newer minors are accepted either way).
    static func version(_ text: String) -> PayloadVersion? {
        if text.hasSuffix(".x"), let major = Int(text.dropLast(2)), major >= 0 { return PayloadVersion(major, 0) }
        return PayloadVersion(text)
    }
}

extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
