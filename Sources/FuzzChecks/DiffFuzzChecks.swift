import DocumentFormats
import FoundationEssentials
import KeyedArchive
@_spi(ByteKit) import PropertyList
import UserInfo

/// `plistkit diff` (Specs/fuzzing.md, "error-packet and diff"; Specs/plistkit.md,
/// "Diff"; issue 42, cases 2, 3 and 6): a document A (a binary property list,
/// or the userInfo of a keyed archive, as `diff` reads one) and a second value
/// B derived from it by a few edits a generator seeded by the input chooses
/// (a member replaced by another part of A — more sharing —, by an edge
/// scalar, removed, inserted, appended, swapped, wrapped; an array reversed;
/// a key added under an edge spelling; a set member added or removed). B
/// shares every object the edits did not touch with A, as a second file of
/// the same shared objects would.
///
/// The comparison runs plain and with `--match-moved`, into the text and the
/// JSON renderers, through the counted output with the budget `diff` uses
/// (the sum of both inputs' expansion budgets; B counted as a file of A's
/// size). Oracles, each apart from the comparison's code:
/// - diff(A, A) and diff(A, a copy of A that shares nothing) are empty;
///   diff(A, B) is empty exactly when A == B (the value model's equality);
/// - plain, the differences found by index patch A into B, and those of
///   diff(B, A) patch B into A (a patch written here, from the one in
///   `DocumentComparisonTests`); with `--match-moved`, every difference names
///   a place in B that holds what it says;
/// - every line and every JSON object holds no raw control, separator or
///   bidirectional character; the JSON parses (``StrictJSON``) to one object
///   per difference with its kind and key path; the bounded text and JSON
///   are exactly the unbounded `line`s and `json()`s;
/// - the output is at most the counted output's budget, the meter's charge at
///   most the budget and at most what the definition allows: numbering both
///   values and walking A, 2 × A's expanded size + B's (``CostOracle``); and
///   when that fits, and B is a value a file of A's size may hold, the
///   comparison must not refuse for its budget.
struct DiffComparisonOracle {
    let limits: PropertyListLimits

    func check(_ document: Data, options: UInt8) throws(FuzzFinding) {
        guard let plist = try? BinaryPropertyListReader(limits: limits).read(document) else { return }
        var random = Self.random(document, options)
        let budget = PropertyListLimits.default.expansionBudget(inputBytes: document.count)
        if let userInfo = Self.userInfo(plist, document, options) {
            try DiffRun<UserInfoValue>(budget: budget).check(userInfo, &random)
        } else {
            _ = try CostOracle(entryPoint: .diff).expandedSize(of: plist, budget: limits.expansionBudget(inputBytes: document.count))
            try DiffRun<PropertyListValue>(budget: budget).check(plist, &random)
            // Across the two models: a property list and its plain userInfo are one value.
            if let userInfo = ComparedValue(plist).userInfoValue, !DocumentComparison().equal(ComparedValue(plist), ComparedValue(userInfo)) {
                throw FuzzFinding(entryPoint: .diff, message: "diff finds a property list unequal to its own userInfo")
            }
        }
    }

    /// The generator that chooses B's edits: seeded by the input.
    static func random(_ document: Data, _ options: UInt8) -> SplitMix {
        SplitMix(seed: [UInt8](document) + [options, 0x44])
    }

    /// As `diff` reads a document: a keyed archive of userInfo values as its
    /// userInfo (bit 2 of the options keeps the archive as a property list).
    static func userInfo(_ plist: PropertyListValue, _ document: Data, _ options: UInt8) -> UserInfoValue? {
        guard options & 4 == 0, Document.isArchive(plist) else { return nil }
        return try? Document.unarchive(plist, inputBytes: document.count)
    }
}

extension FuzzChecks {
    /// What the diff oracle makes of `input` (options byte, then document),
    /// for the tests that show it is not vacuous: the plain differences
    /// between A and the B it derives, whether they patch A into B, and
    /// whether they still do with the last one dropped; nil when the document
    /// does not read.
    @_spi(Fuzzing) public static func diffProbe(_ input: [UInt8]) -> (differences: Int, patches: Bool, patchesWithoutLast: Bool)? {
        guard let options = input.first else { return nil }
        let document = Data(input.dropFirst())
        guard let plist = try? BinaryPropertyListReader(limits: FuzzOptions.limits(options)).read(document) else { return nil }
        var random = DiffComparisonOracle.random(document, options)
        func probe<Value: DiffOracleValue>(_ a: Value) -> (Int, Bool, Bool) {
            let b = DiffRun<Value>.derive(from: a, &random)
            let differences = DocumentComparison().differences(a.compared, b.compared)
            return (differences.count, DiffRun<Value>.patch(a, with: differences) == b,
                    DiffRun<Value>.patch(a, with: Array(differences.dropLast())) == b)
        }
        if let userInfo = DiffComparisonOracle.userInfo(plist, document, options) { return probe(userInfo) }
        return probe(plist)
    }
}

/// A value model the diff oracle edits and patches: property lists and userInfo values.
protocol DiffOracleValue: Hashable, Sendable {
    var arrayMembers: [Self]? { get }
    var dictionaryEntries: StringKeyedDictionary<Self>? { get }
    /// A set's members (userInfo only).
    var setMembers: [Self]? { get }
    static func array(_ members: [Self]) -> Self
    static func dictionary(_ entries: StringKeyedDictionary<Self>) -> Self
    /// A set of `members` (nil: the model has no sets).
    static func makeSet(_ members: [Self]) -> Self?
    /// Scalars at the edges of what the comparison tells apart.
    static var edgeScalars: [Self] { get }
    var compared: ComparedValue { get }
    init?(compared: ComparedValue)
    /// The expanded size by its definition (``CostOracle``), nil past `budget`.
    func expandedSize(within budget: Int) -> Int?
}

extension PropertyListValue: DiffOracleValue {
    var arrayMembers: [PropertyListValue]? { if case .array(let members) = self { members } else { nil } }
    var dictionaryEntries: PropertyListDictionary? { if case .dictionary(let entries) = self { entries } else { nil } }
    var setMembers: [PropertyListValue]? { nil }
    static func makeSet(_ members: [PropertyListValue]) -> PropertyListValue? { nil }
    // Computed, not stored: LeakSanitizer reports the boxes of static arrays of
    // indirect enum cases as leaks at exit (Fuzz/lsan-suppressions.txt, MPMutation).
    static var edgeScalars: [PropertyListValue] { [
        .integer(1), .integer(PropertyListInteger(UInt64(1))), .integer(PropertyListInteger(UInt64.max)), .integer(-1),
        .real(1), .real(0), .real(-0.0), .real(.nan), .real(-.infinity), .bool(true), .bool(false),
        .date(Date(timeIntervalSinceReferenceDate: 0)), .date(Date(timeIntervalSinceReferenceDate: 0.5)),
        .data(Data()), .data(Data([0, 0xFF])), .uid(0), .uid(1), .null,
        .string(""), .string("\u{E9}"), .string("e\u{301}"), .string("a\u{2028}b\u{202E}c\u{7F}\u{85}\u{1B}[2J"), .string("\\."),
    ] }
    var compared: ComparedValue { ComparedValue(self) }
    init?(compared: ComparedValue) {
        guard let value = compared.propertyListValue else { return nil }
        self = value
    }
    func expandedSize(within budget: Int) -> Int? { try? CostOracle(entryPoint: .diff).expandedSize(of: self, budget: budget) }
}

extension UserInfoValue: DiffOracleValue {
    var arrayMembers: [UserInfoValue]? { if case .array(let members) = self { members } else { nil } }
    var dictionaryEntries: UserInfoDictionary? { if case .dictionary(let entries) = self { entries } else { nil } }
    var setMembers: [UserInfoValue]? { if case .set(let set) = self { set.members } else { nil } }
    static func makeSet(_ members: [UserInfoValue]) -> UserInfoValue? { .set(UserInfoSet(members)) }
    static var edgeScalars: [UserInfoValue] { [
        .number(.integer(1)), .number(.integer(PropertyListInteger(UInt64.max))), .number(.real(1)), .number(.real(-0.0)),
        .number(.real(.nan)), .number(.bool(true)), .null, .date(Date(timeIntervalSinceReferenceDate: -0.25)), .data(Data([1])),
        .uuid(UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!),
        .url(UserInfoURL(relative: "b%20c", base: UserInfoURL(relative: "https://example.com/a/"))), .url(UserInfoURL(relative: "b%20c")),
        .set(UserInfoSet()), .set(UserInfoSet([.number(.integer(1)), .string("1")])),
        .string(""), .string("\u{E9}"), .string("e\u{301}"), .string("\u{2029}\u{200F}\u{9B}"),
    ] }
    var compared: ComparedValue { ComparedValue(self) }
    init?(compared: ComparedValue) {
        guard let value = compared.userInfoValue else { return nil }
        self = value
    }
    func expandedSize(within budget: Int) -> Int? { try? CostOracle(entryPoint: .diff).expandedSize(of: self, budget: budget) }
}

/// The diff oracle on one model.
struct DiffRun<Value: DiffOracleValue> {
    typealias Component = DocumentDifference.Component
    /// A's expansion budget, the budget of its bytes; B's is the same (a file of A's size).
    let budget: Int

    private func finding(_ message: String) -> FuzzFinding { FuzzFinding(entryPoint: .diff, message: message) }

    func check(_ a: Value, _ random: inout SplitMix) throws(FuzzFinding) {
        guard let sizeA = a.expandedSize(within: budget) else {
            throw finding("a document read within its budget of \(budget) bytes expands past it")
        }
        let b = Self.derive(from: a, &random)
        // nil: B expands past what a file of A's size may hold; diff then
        // must only stay within its budgets (the edits may double a value).
        let sizeB = b.expandedSize(within: budget)
        let total = ExpandedSize.add(budget, budget)
        var plainText = 0
        for matchMoved in [false, true] {
            let comparison = DocumentComparison(matchMoved: matchMoved)
            // A against itself, and against a copy that shares no storage.
            let same = try run(comparison, a, a, total: total, sizes: (sizeA, sizeA))
            guard same?.isEmpty == true else { throw finding("diff finds \(same?.count ?? -1) differences between a value and itself") }
            if sizeA <= 1 << 16 {
                let copy = Self.copy(a)
                guard copy == a else { throw finding("a copy of a value is not equal to it (the oracle's copy)") }
                let differences = try run(comparison, a, copy, total: total, sizes: (sizeA, sizeA)) ?? []
                guard differences.isEmpty else {
                    throw finding("diff finds \(differences.count) differences between a value and a copy that shares nothing (first: \(differences[0].line))")
                }
            }
            // A against B, and back.
            guard let sizeB else {
                _ = try run(comparison, a, b, total: total, sizes: nil, json: !matchMoved)
                continue
            }
            // A large text is written once more in JSON only by the plain comparison
            // (the renderers are the same; --match-moved's JSON adds `moved`).
            guard let forward = try run(comparison, a, b, total: total, sizes: (sizeA, sizeB),
                                        json: !matchMoved || plainText <= 1 << 20, textBytes: &plainText) else { continue }
            guard forward.isEmpty == (a == b) else {
                throw finding("diff (\(matchMoved ? "--match-moved" : "plain")) finds \(forward.count) differences between values that are \(a == b ? "" : "not ")equal")
            }
            try checkPlaces(forward, b, matchMoved: matchMoved)
            if !matchMoved {
                guard Self.patch(a, with: forward) == b else {
                    throw finding("the differences from A to B do not patch A into B (\(forward.count): \(forward.prefix(3).map(\.line)))")
                }
                // Back, unbounded and unrendered: the patch alone.
                let backward = comparison.differences(b.compared, a.compared)
                guard Self.patch(b, with: backward) == a else {
                    throw finding("the differences from B to A do not patch B into A (\(backward.count): \(backward.prefix(3).map(\.line)))")
                }
            }
        }
    }

    // MARK: One comparison, as `plistkit diff` runs it

    /// The largest output the oracle renders a second time (unbounded) and
    /// parses, to compare: larger ones are only measured and scanned, so that
    /// the oracle costs a small multiple of what `diff` costs (libFuzzer's
    /// time limit is 2 s).
    static var rerenderLimit: Int { 1 << 18 }

    /// `diff` of `first` and `second` in text and in JSON, within `total`
    /// (both inputs' expansion budgets): the differences, or nil when it
    /// refused for its budget where the definition allows that. `sizes`: both
    /// values' expanded sizes, nil when the second is past what its file may
    /// hold (then only the budgets are checked, not what was found).
    private func run(_ comparison: DocumentComparison, _ first: Value, _ second: Value, total: Int,
                     sizes: (first: Int, second: Int)?, json writesJSON: Bool = true) throws(FuzzFinding) -> [DocumentDifference]? {
        var textBytes = 0
        return try run(comparison, first, second, total: total, sizes: sizes, json: writesJSON, textBytes: &textBytes)
    }

    /// ``run(_:_:_:total:sizes:json:)``, giving the text's bytes in `textBytes`.
    private func run(_ comparison: DocumentComparison, _ first: Value, _ second: Value, total: Int,
                     sizes: (first: Int, second: Int)?, json writesJSON: Bool, textBytes: inout Int) throws(FuzzFinding) -> [DocumentDifference]? {
        let outputBudget = ErrorPacketOracle.outputBudget(forExpansionBudget: total)
        // What the comparison may charge by the definition: both values numbered, the first walked.
        let allowed = sizes.map { ExpandedSize.add(ExpandedSize.add($0.first, $0.first), $0.second) }
        let mustAnswer = allowed.map { $0 <= total } ?? false
        let unbounded = sizes == nil ? nil : comparison.differences(first.compared, second.compared)

        // Text: one line per difference.
        var found: [DocumentDifference] = []
        var meter = ExpansionMeter(limit: total)
        var lineMeter = ExpansionMeter(limit: total)
        var text = CountedOutput(expansionBudget: total)
        do {
            try comparison.forEachDifference(first.compared, second.compared, meter: &meter) { difference throws(PropertyListError) in
                found.append(difference)
                try difference.appendLine(to: &text, meter: &lineMeter)
            }
        } catch {
            try checkRefusal(error, "text", mustAnswer: mustAnswer, unbounded: mustAnswer ? unbounded.map { $0.map { $0.line.utf8.count + 1 } } : nil,
                             margin: 0, outputBudget: outputBudget)
            return nil
        }
        try checkCharge(meter.charged, total: total, allowed: allowed, "comparison")
        try checkText(text.text, count: text.count, outputBudget: outputBudget)
        if let unbounded, let sizes {
            guard found == unbounded else { throw finding("the bounded comparison found other differences than the unbounded one") }
            if lineMeter.charged > ExpandedSize.add(sizes.first, sizes.second) {
                throw finding("the lines' values charged \(lineMeter.charged) bytes, past both values' expanded sizes (\(sizes.first) + \(sizes.second))")
            }
            // The bounded text is the unbounded lines (on outputs small enough to render twice within the time limit).
            if text.count <= Self.rerenderLimit {
                var expected = ""
                for difference in found { expected += difference.line + "\n" }
                guard text.text == expected else { throw finding("the bounded lines are not the differences' lines") }
            }
        }

        textBytes = text.count
        guard writesJSON else { return found }

        // JSON: an array of one object per difference.
        var jsonMeter = ExpansionMeter(limit: total)
        var json = CountedOutput(expansionBudget: total)
        var count = 0
        do {
            try json.append("[")
            try comparison.forEachDifference(first.compared, second.compared, meter: &jsonMeter) { difference throws(PropertyListError) in
                try json.append(count == 0 ? "\n" : ",\n")
                count += 1
                try difference.appendJSON(to: &json, writerLimits: WriterLimits(.default))
            }
            try json.append(count == 0 ? "]\n" : "\n]\n")
        } catch {
            // The values' writer stops where the output would, by its own
            // measure (at most the bytes it writes, but for deep values): a
            // refusal is a finding only well inside the budget.
            try checkRefusal(error, "JSON", mustAnswer: mustAnswer,
                             unbounded: mustAnswer ? unbounded.map { $0.map { (try? $0.json())?.utf8.count ?? .max } } : nil,
                             margin: outputBudget / 2, outputBudget: outputBudget)
            return nil
        }
        try checkCharge(jsonMeter.charged, total: total, allowed: allowed, "comparison (JSON)")
        try checkJSON(json.text, count: json.count, outputBudget: outputBudget, unbounded == nil ? nil : found)
        return found
    }

    /// A refusal is allowed only for the budget, and only where the
    /// definition says the comparison may need more than its budget, or the
    /// unbounded output (`pieces`' bytes; nil: not known) passes the output's
    /// budget less `margin`.
    private func checkRefusal(_ error: PropertyListError, _ form: String, mustAnswer: Bool, unbounded pieces: [Int]?,
                              margin: Int, outputBudget: Int) throws(FuzzFinding) {
        let bytes = pieces.map { $0.reduce(0) { ExpandedSize.add($0, $1) } + 2 * $0.count + 8 } ?? .max
        switch error.code {
        case .expansionLimitExceeded where form == "text":
            if mustAnswer { throw finding("diff (\(form)) refused for its budget (\(error)) two values it must compare within it") }
        case .expansionLimitExceeded, .outputLimitExceeded:
            if mustAnswer, bytes <= outputBudget - margin {
                throw finding("diff (\(form)) refused (\(error.code)) within its output budget of \(outputBudget) bytes an output of \(bytes)")
            }
        default:
            throw finding("diff (\(form)) failed with \(error.code): \(error)")
        }
    }

    private func checkCharge(_ charged: Int, total: Int, allowed: Int?, _ what: String) throws(FuzzFinding) {
        guard charged <= total else { throw finding("the \(what) charged \(charged) bytes, past its budget of \(total)") }
        if let allowed, charged > allowed {
            throw finding("the \(what) charged \(charged) bytes, more than numbering both values and walking the first may (\(allowed))")
        }
    }

    /// The text: at most the budget, escaped.
    private func checkText(_ text: String, count: Int, outputBudget: Int) throws(FuzzFinding) {
        let bytes = text.utf8.count
        guard bytes == count, bytes <= outputBudget else {
            throw finding("diff wrote \(bytes) bytes of text (counted \(count)), budget \(outputBudget)")
        }
        if let raw = text.unicodeScalars.first(where: { $0 != "\n" && JSONText.isUnreadable($0) }) {
            throw finding("a diff line holds a raw U+\(String(raw.value, radix: 16, uppercase: true))")
        }
    }

    /// The JSON: at most the budget, escaped, parses; when the differences
    /// are known, one object per difference, each the difference's `json()`.
    private func checkJSON(_ text: String, count: Int, outputBudget: Int, _ differences: [DocumentDifference]?) throws(FuzzFinding) {
        let bytes = text.utf8.count
        guard bytes == count, bytes <= outputBudget else {
            throw finding("diff wrote \(bytes) bytes of JSON (counted \(count)), budget \(outputBudget)")
        }
        if let raw = text.unicodeScalars.first(where: { $0 != "\n" && JSONText.isUnreadable($0) }) {
            throw finding("diff's JSON holds a raw U+\(String(raw.value, radix: 16, uppercase: true))")
        }
        // The JSON is the unbounded json()s, and parses, on outputs small
        // enough to render and parse again within the time limit.
        guard count <= Self.rerenderLimit else { return }
        if let differences {
            let pieces = differences.map { (try? $0.json()) ?? "" }
            let expected = differences.isEmpty ? "[]\n" : "[\n" + pieces.joined(separator: ",\n") + "\n]\n"
            guard text == expected else { throw finding("diff's bounded JSON is not the differences' json()") }
        }
        let parsed: StrictJSON.Node
        do {
            parsed = try StrictJSON.parse(Array(text.utf8), maxDepth: 4 * PropertyListLimits.maxSupportedDepth + 16, maxStringBytes: .max)
        } catch {
            throw finding("diff's JSON does not parse: \(error.code) \(error.reason) at \(error.position.line):\(error.position.column)")
        }
        guard case .array(let objects, _) = parsed else { throw finding("diff's JSON is not an array") }
        guard let differences else { return }
        guard objects.count == differences.count else { throw finding("diff's JSON holds \(objects.count) objects for \(differences.count) differences") }
        for (object, difference) in zip(objects, differences) {
            guard case .object(let members, _) = object,
                  case .string(let kind, _)? = members.first(where: { $0.key == "kind" })?.value, kind == difference.kind.rawValue,
                  case .string(let keyPath, _)? = members.first(where: { $0.key == "keyPath" })?.value,
                  ExactString.equal(keyPath, difference.keyPath),
                  case .array(let path, _)? = members.first(where: { $0.key == "path" })?.value, path.count == difference.path.count else {
                throw finding("a JSON object of diff does not give its difference's kind, key path and path")
            }
        }
    }

    /// Every difference names a place that holds what it says: B holds `new`
    /// there (or, for `moved`, at index `to` of the array there); a changed
    /// or retyped value differs; `moved` moves.
    private func checkPlaces(_ differences: [DocumentDifference], _ b: Value, matchMoved: Bool) throws(FuzzFinding) {
        for difference in differences {
            let place = Self.value(at: difference.path[...], in: b)
            let old = difference.old.flatMap(Value.init(compared:)), new = difference.new.flatMap(Value.init(compared:))
            let holds: Bool
            switch difference.kind {
            case .changed, .type:
                let retyped = old?.compared.typeName != new?.compared.typeName
                holds = old != nil && new != nil && place == new && old != new && (difference.kind == .type) == retyped
            case .added:
                holds = new != nil && (place == new || place?.setMembers?.contains(new!) == true)
            case .removed:
                // From a container at the path less its last component (A's
                // key or index), or a member of the set at the path.
                let parent = difference.path.isEmpty ? nil : Self.value(at: difference.path.dropLast(), in: b)
                let fromSet = place?.setMembers.map { !$0.contains(old!) } ?? false
                holds = old != nil && (parent?.arrayMembers != nil || parent?.dictionaryEntries != nil || fromSet)
            case .moved:
                guard matchMoved, let from = difference.from, let to = difference.to, let members = place?.arrayMembers else {
                    holds = false
                    break
                }
                holds = from != to && to < members.count && members[to] == new
            }
            guard holds else { throw finding("the difference \"\(difference.line)\" does not describe B at its place") }
        }
    }
}
