import ArgumentParser
import DocumentFormats
import Handoff
@_spi(ByteKit) import PropertyList
import UserInfo

/// `plistkit diff A B`: two documents of any formats compared as values
/// (Specs/plistkit.md, "Diff").
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "diff", 
        abstract: "Compare two documents of any formats as values, one line per difference.",
        discussion: "Exit status: 0 when equal, 1 when they differ, 2 when an input cannot be read (as diff)."
    )

    @Argument(help: "The first document ('-' for standard input).")
    var first: String

    @Argument(help: "The second document ('-' for standard input).")
    var second: String

    @Flag(name: .customLong("match-moved"), help: "Pair equal array members wherever they are; report those at another index as moved.")
    var matchMoved = false

    @Option(help: "Output: text (one line per difference) or json (an array of objects).")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(name: .customLong("from"), help: "Read both inputs as typed-json (it is JSON too, so it is never guessed).")
    var inputFormat: Convert.InputFormat?

    @Option(name: .customLong("from-a"), help: "Read the first input as typed-json.")
    var firstFormat: Convert.InputFormat?

    @Option(name: .customLong("from-b"), help: "Read the second input as typed-json.")
    var secondFormat: Convert.InputFormat?

    func validate() throws {
        guard !(first == "-" && second == "-") else { throw ValidationError("standard input can be only one of the two inputs") }
    }

    func run() throws {
        guard let a = read(first, typedJSON: (firstFormat ?? inputFormat) != nil),
              let b = read(second, typedJSON: (secondFormat ?? inputFormat) != nil) else { throw ExitCode(2) }
        let comparison = DocumentComparison(wholeSecondDates: a.wholeSecondDates || b.wholeSecondDates, matchMoved: matchMoved)
        // The comparison walks both values through the one bounded walk and
        // writes into the counted output, within the budget both inputs set
        // (Specs/architecture.md, "One bounded walk", "One counted output").
        let limits = PropertyListLimits.default
        let budget = ExpandedSize.add(limits.expansionBudget(inputBytes: a.bytes), limits.expansionBudget(inputBytes: b.bytes))
        var meter = ExpansionMeter(limit: budget)
        var output = CountedOutput(expansionBudget: budget)
        var count = 0
        do {
            switch format {
            case .text:
                var lineMeter = ExpansionMeter(limit: budget)
                try comparison.forEachDifference(a.value, b.value, meter: &meter) { difference throws(PropertyListError) in
                    count += 1
                    try difference.appendLine(to: &output, meter: &lineMeter)
                }
            case .json:
                try output.append("[")
                try comparison.forEachDifference(a.value, b.value, meter: &meter) { difference throws(PropertyListError) in
                    try output.append(count == 0 ? "\n" : ",\n")
                    count += 1
                    try difference.appendJSON(to: &output, writerLimits: WriterLimits(limits))
                }
                try output.append(count == 0 ? "]\n" : "\n]\n")
            }
        } catch {
            // Trouble, as diff says it: exit 2, never 1 ("different").
            Console.fail("-", error)
            throw ExitCode(2)
        }
        do {
            try Console.write(Array(output.text.utf8))
        } catch {
            Console.fail("-", error)
            throw ExitCode(2)
        }
        if count > 0 { throw ExitCode(1) }
    }

    /// One input as a compared value, or nil after its error line (exit 2).
    private func read(_ file: String, typedJSON: Bool) -> (value: ComparedValue, wholeSecondDates: Bool, bytes: Int)? {
        do {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            return try Self.value(of: bytes, typedJSON: typedJSON)
        } catch {
            Console.fail(file, error)
            return nil
        }
    }

    /// A document's value as `print` reads it: wire forms as their userInfo
    /// or envelope, a keyed archive of userInfo values as its userInfo, any
    /// other document as its property list; and whether its dates keep only
    /// whole seconds (a property list read from XML or OpenStep text); and
    /// the bytes it was read from (a compressed container's inflated size),
    /// which set the comparison's budget.
    static func value(of bytes: [UInt8], typedJSON: Bool) throws -> (value: ComparedValue, wholeSecondDates: Bool, bytes: Int) {
        if typedJSON {
            // A userInfo, unless it holds a UID (property lists only).
            do throws(UserInfoError) {
                return (ComparedValue(try Document.userInfo(typedJSON: bytes)), false, bytes.count)
            } catch where error.code == .notUserInfoType {
                return (ComparedValue(try Document.propertyList(typedJSON: bytes)), false, bytes.count)
            }
        }
        if let wire = try WireDocuments.read(bytes) { return (ComparedValue(wire.value), false, wire.inputBytes) }
        let reading = try Document.read(document: bytes)
        if Document.isArchive(reading.value), let userInfo = try? Document.unarchive(reading.value, inputBytes: bytes.count) {
            return (ComparedValue(userInfo), false, bytes.count)
        }
        switch reading.format {
        case .xml, .openStep, .strings, .xcodeProject: return (ComparedValue(reading.value), true, bytes.count)
        default: return (ComparedValue(reading.value), false, bytes.count)
        }
    }
}
