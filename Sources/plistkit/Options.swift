import PropertyList
import DocumentFormats
import Handoff
import ArgumentParser

/// `-o FILE` (`-` for standard output), shared by the verbs that write.
struct OutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Output file ('-' for standard output). Replaced atomically; must be a regular file if it exists.")
    var output: String = "-"

    func validate() throws {
        guard !output.isEmpty else { throw ValidationError("-o needs a file name, or '-' for standard output") }
    }

    func write(_ bytes: [UInt8]) throws { try Files.write(bytes, to: output) }
}

/// Runs a verb's work on one input; any error becomes one line on standard
/// error (`plistkit: FILE: CODE: …`) and exit status 1, never a stack trace.
func reporting(_ file: String, _ work: () throws -> Void) throws {
    do {
        try work()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        Console.fail(file, error)
        throw ExitCode(1)
    }
}

/// `--budget` and `--hard-limit`: the size budget of the encoded userInfo,
/// shared by `payload check`, `encode` and `translate`.
struct BudgetOptions: ParsableArguments {
    @Option(help: "Advised size of the encoded userInfo (e.g. 3KB, 3072); above it is a warning.")
    var budget: String = "3KB"

    @Option(name: .customLong("hard-limit"), help: "Largest allowed size of the encoded userInfo.")
    var hardLimit: String?

    func validate() throws {
        guard Size.parse(budget) != nil else { throw ValidationError("--budget \"\(budget)\" is not a size (\(Size.forms))") }
        if let hardLimit, Size.parse(hardLimit) == nil { throw ValidationError("--hard-limit \"\(hardLimit)\" is not a size (\(Size.forms))") }
    }

    /// The budget (validated by the parser before any verb runs).
    var sizeBudget: SizeBudget {
        SizeBudget(softLimit: Size.parse(budget) ?? 0, hardLimit: hardLimit.flatMap(Size.parse))
    }
}

/// `--container ID`…: the synced containers a device has.
struct LayoutOptions: ParsableArguments {
    @Option(name: .customLong("container"), help: "A container identifier the device has (repeatable), e.g. iCloud.com.example.App.")
    var containers: [String] = []

    func validate() throws {
        if let invalid = containers.first(where: { !ContainerLayout.isValidIdentifier($0) }) {
            throw ValidationError("--container \"\(invalid)\" is not a container identifier (dot-separated labels of letters, digits, '-', '_')")
        }
    }

    /// The layout a `--layout`, `--from` or `--to` value names, or nil without one.
    func layout(_ text: String?) -> ContainerLayout? {
        text.flatMap { ContainerLayout.parse($0, containers: Set(containers)) }
    }

    /// Checks a layout option's value: `macos:HOME`, `ios` or `root:PATH` with a normalised absolute path.
    static func check(_ text: String?, option: String) throws {
        if let text, ContainerLayout.parse(text) == nil {
            throw ValidationError("\(option) \"\(text)\" is not macos:HOME, ios or root:PATH with a normalised absolute path")
        }
    }
}

/// `--version-key K --supports 2.x`: the versions a receiver understands.
struct VersionSupportOptions: ParsableArguments {
    @Option(name: .customLong("version-key"), help: "The userInfo key holding the payload version.")
    var versionKey: String?

    @Option(help: "The versions understood, as MAJOR.x or MAJOR.MINOR (with --version-key).")
    var supports: String?

    func validate() throws {
        if (versionKey == nil) != (supports == nil) { throw ValidationError("--version-key and --supports go together") }
        if versionKey == "" { throw ValidationError("--version-key must not be empty") }
        if let supports, Supports.version(supports) == nil { throw ValidationError("--supports \"\(supports)\" is not MAJOR.x or MAJOR.MINOR") }
    }

    var versioning: PayloadVersioning? {
        guard let versionKey, let supports, let current = Supports.version(supports) else { return nil }
        return PayloadVersioning(key: versionKey, current: current)
    }
}

/// Sizes such as `3KB`, `64KiB`, `4096`: decimal digits and an optional unit,
/// refused (nil) when the product does not fit in an `Int`.
enum Size {
    static let forms = "digits, then B, KB, KiB, MB or MiB; at most 2^63 - 1 bytes"

    static func parse(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("KB", 1 << 10), ("MiB", 1 << 20), ("MB", 1 << 20), ("B", 1), ("", 1)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            let digits = text.utf8.dropLast(suffix.utf8.count)
            guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let number = Int(String(decoding: digits, as: UTF8.self)) else { continue }
            let (bytes, overflow) = number.multipliedReportingOverflow(by: factor)
            return overflow ? nil : bytes
        }
        return nil
    }
}

enum Supports {
    /// `2.x` means any 2.*; `2.1` means 2.1 (newer minors are accepted either way).
    /// The major is spelled as in a version (no sign, no leading zero).
    static func version(_ text: String) -> PayloadVersion? {
        if text.hasSuffix(".x"), let version = PayloadVersion(String(text.dropLast(2)) + ".0") { return version }
        return PayloadVersion(text)
    }
}

/// `--key-order` and `-r`: how writers lay a property list out (Specs/plistkit.md, "Key order").
struct StyleOptions: ParsableArguments {
    @Option(name: .customLong("key-order"), help: "Dictionary keys sorted (as Apple writes them; the default, but for .strings files) or in insertion order (the input's own, for minimal diffs; the default for .strings files, whose order is a translator's).")
    var keyOrderName: KeyOrderName?

    enum KeyOrderName: String, ExpressibleByArgument { case sorted, insertion }

    /// The key order for `format`: as given, else insertion order for a
    /// `.strings` file and sorted for everything else (Specs/plistkit.md, "Key order").
    func keyOrder(for format: DocumentFormat) -> KeyOrder {
        switch keyOrderName {
        case .sorted?: return .sorted
        case .insertion?: return .insertion
        case nil: return format == .strings ? .insertion : .sorted
        }
    }

    @Flag(name: [.short, .customLong("readable")], help: "JSON output in human-readable form (plutil -r): indented, one member per line.")
    var readable = false

    @Flag(help: "XML output without indentation or line breaks between elements (JSON is compact unless -r).")
    var compact = false
}

/// `--jobs N`: how many inputs a verb works on at once (Specs/plistkit.md,
/// "Many files"); by default the number of cores online.
struct JobsOption: ParsableArguments {
    @Option(name: [.short, .customLong("jobs")], help: "Work on N files at once (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs \(jobs) is not a positive count") }
    }

    /// The number of jobs.
    var count: Int { jobs ?? Parallel.availableCores }
}
