import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo
import TypedJSON
import KeyedArchive

/// A value of any document, as ``DocumentComparison`` compares it: a property
/// list or a userInfo value, compared across the two models, so that a binary
/// plist and an MP userInfo of the same value compare equal (Specs/plistkit.md,
/// "Diff").
///
/// A compared value holds the value it was made from, never a copy: an object
/// shared in its document (a binary object, an archived object) stays one
/// object, so a comparison is linear in the documents' bytes whatever they share.
public struct ComparedValue: Sendable {
    /// The value as read.
    public enum Origin: Sendable {
        case propertyList(PropertyListValue)
        case userInfo(UserInfoValue)
    }

    /// The value as read.
    public let origin: Origin

    /// A property list, compared as it is.
    public init(_ value: PropertyListValue) { origin = .propertyList(value) }

    /// A userInfo value, compared as it is.
    public init(_ value: UserInfoValue) { origin = .userInfo(value) }

    /// The type's name, as typed JSON names it: `string`, `integer`, `real`,
    /// `bool`, `date`, `data`, `array`, `dict`, `set`, `null`, `uuid`, `url`, `uid`.
    public var typeName: String {
        switch origin {
        case .propertyList(let value): return value.typeName
        case .userInfo(let value): return value.typeName
        }
    }

    /// The value as a property list: itself, or a userInfo value of
    /// plist-native types (nil when it holds a null, set, UUID or URL).
    public var propertyListValue: PropertyListValue? {
        switch origin {
        case .propertyList(let value): return value
        case .userInfo(let value): return try? PlainProfile.propertyList(from: value)
        }
    }

    /// The value as a userInfo value: itself, or a property list without UIDs
    /// or binary nulls (nil otherwise).
    public var userInfoValue: UserInfoValue? {
        switch origin {
        case .userInfo(let value): return value
        case .propertyList(let value): return try? PlainProfile.userInfo(from: value)
        }
    }
}

extension ComparedValue: Hashable {
    /// Exact equality across the two models, as ``DocumentComparison`` with
    /// exact dates finds it: strings scalar by scalar, reals and dates by
    /// their bits, integers by value, dictionaries and sets in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        DocumentComparison().equal(lhs, rhs)
    }

    /// Hashes the type only (equal values have the same type); compare with ``==``.
    public func hash(into hasher: inout Hasher) { hasher.combine(typeName) }
}

@_spi(ByteKit) extension ComparedValue: ReadableValue {
    public var walkShape: WalkShape {
        switch origin {
        case .propertyList(let value): return value.walkShape
        case .userInfo(let value): return value.walkShape
        }
    }

    public func walkMembers(sorted: Bool) -> WalkMembers<ComparedValue> {
        switch origin {
        case .propertyList(let value):
            let members = value.walkMembers(sorted: sorted)
            return WalkMembers(keys: members.keys, values: members.values.map(ComparedValue.init))
        case .userInfo(let value):
            let members = value.walkMembers(sorted: sorted)
            return WalkMembers(keys: members.keys, values: members.values.map(ComparedValue.init))
        }
    }

    public func appendReadableScalar(_ style: ReadableStyle, to out: inout String) {
        switch origin {
        case .propertyList(let value): value.appendReadableScalar(style, to: &out)
        case .userInfo(let value): value.appendReadableScalar(style, to: &out)
        }
    }
}

/// One difference between two values (Specs/plistkit.md, "Diff").
public struct DocumentDifference: Sendable, Hashable {
    /// What differs.
    public enum Kind: String, Sendable, Hashable {
        /// A scalar of the same type with another value.
        case changed
        /// A value of another type.
        case type
        /// A key, array member or set member only the first value has.
        case removed
        /// A key, array member or set member only the second value has.
        case added
        /// An array member equal in both, at another index (``DocumentComparison/matchMoved``).
        case moved
    }

    /// A component of the key path: a dictionary key or an array index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var kind: Kind
    /// Where: the key path from the top (empty for the top value). For a set
    /// member, the set's key path; for a moved member, the array's.
    public var path: [Component]
    /// The first value's side (nil for `added` and `moved`).
    public var old: ComparedValue?
    /// The second value's side (nil for `removed`); the member for `moved`.
    public var new: ComparedValue?
    /// For `moved`: the member's index in the first array and in the second.
    public var from: Int?
    public var to: Int?

    /// The key path in plutil's spelling (`.` between components, `\.` and
    /// `\\` inside keys); empty for the top value.
    public var keyPath: String {
        var text = ""
        for (position, component) in path.enumerated() {
            if position > 0 { text += "." }
            switch component {
            case .index(let index): text += String(index)
            case .key(let key):
                for scalar in key.unicodeScalars {
                    if scalar == "." || scalar == "\\" { text += "\\" }
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// The difference as one line of text: every string from the values
    /// quoted and escaped (no control or bidirectional character reaches a
    /// terminal). Unbounded: `plistkit diff` writes lines with
    /// ``appendLine(to:meter:)`` within its inputs' budget.
    public var line: String {
        var meter = ExpansionMeter(limit: Int.max)
        var output = CountedOutput.unbounded
        do { try appendLine(to: &output, meter: &meter) } catch { preconditionFailure("an unbounded rendering failed: \(error)") }
        return String(output.text.dropLast())
    }

    /// Appends ``line`` and a line feed to `output`, walking the values with `meter`.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded``, ``ErrorCode/outputLimitExceeded``.
    package func appendLine(to output: inout CountedOutput, meter: inout ExpansionMeter) throws(PropertyListError) {
        try output.append { text in
            text += kind.rawValue + " "
            JSONText.appendReadableQuoted(keyPath, to: &text)
            text += ": "
        }
        switch kind {
        case .changed, .type:
            let showType = kind == .type
            if showType { try output.append(old!.typeName + " ") }
            try ReadableText.append(old!, .line, meter: &meter, to: &output)
            try output.append(" -> ")
            if showType { try output.append(new!.typeName + " ") }
            try ReadableText.append(new!, .line, meter: &meter, to: &output)
        case .removed: try ReadableText.append(old!, .line, meter: &meter, to: &output)
        case .added: try ReadableText.append(new!, .line, meter: &meter, to: &output)
        case .moved:
            try output.append("\(from!) -> \(to!) (")
            try ReadableText.append(new!, .line, meter: &meter, to: &output)
            try output.append(")")
        }
        try output.append("\n")
    }

    /// The difference as one JSON object: `kind`, `keyPath`, `path`, and the
    /// values in typed JSON (`old`, `new`; `from`, `to` and `value` for
    /// `moved`). Like the text form, it holds no raw control, separator or
    /// bidirectional character: each is a `\uXXXX` escape.
    ///
    /// - Throws: ``PropertyListError`` when a value is past the typed-JSON
    ///   writer's limits.
    public func json(limits: WriterLimits = .default) throws(PropertyListError) -> String {
        var output = CountedOutput(budget: Int.max)
        try appendJSON(to: &output, writerLimits: limits)
        return output.text
    }

    /// Appends ``json(limits:)`` to `output`; the values' writer keeps to
    /// `writerLimits` and to what the output has left.
    package func appendJSON(to output: inout CountedOutput, writerLimits: WriterLimits) throws(PropertyListError) {
        var head = "{\"kind\":"
        JSONText.appendReadableQuoted(kind.rawValue, to: &head)
        head += ",\"keyPath\":"
        JSONText.appendReadableQuoted(keyPath, to: &head)
        head += ",\"path\":["
        for (position, component) in path.enumerated() {
            if position > 0 { head += "," }
            switch component {
            case .index(let index): head += String(index)
            case .key(let key): JSONText.appendReadableQuoted(key, to: &head)
            }
        }
        head += "]"
        try output.append(head)
        func value(_ name: String, _ value: ComparedValue) throws(PropertyListError) {
            // The writer stops where the output would: its expanded size is at
            // most the bytes it writes.
            var limits = writerLimits
            limits.maxExpandedBytes = min(limits.maxExpandedBytes, max(output.budget - output.count, 0))
            let writer = TypedJSONWriter(pretty: false, limits: limits)
            let bytes: Data
            switch value.origin {
            case .userInfo(let userInfo): bytes = try writer.write(userInfo)
            case .propertyList(let plist): bytes = try writer.write(plist)
            }
            try output.append(",\"\(name)\":" + JSONText.escapingUnreadable(String(decoding: bytes, as: UTF8.self)))
        }
        if kind == .moved {
            try output.append(",\"from\":\(from!),\"to\":\(to!)")
            try value("value", new!)
        } else {
            if let old { try value("old", old) }
            if let new { try value("new", new) }
        }
        try output.append("}")
    }
}

/// Compares two values as `plistkit diff` does (Specs/plistkit.md, "Diff"):
/// equal values whatever the formats they came from, types kept apart,
/// dates at the precision both documents keep.
///
/// The comparison walks the first value through the one bounded walk and
/// finds each node's counterpart in the second; a pair of shared objects
/// found equal is remembered by their storage and never walked again, so the
/// cost is linear in the documents' bytes plus the differences, however they
/// share. With `--match-moved`, both values are first numbered bottom-up
/// (``StructuralNumbering``: equal subtrees get equal numbers, each shared
/// object is numbered once), and array members are paired by number.
public struct DocumentComparison: Sendable {
    /// `datePrecision`: compare dates rounded down to the second, because one
    /// of the documents (XML, OpenStep text) keeps no fraction.
    public var wholeSecondDates: Bool
    /// Match equal array members wherever they are (`--match-moved`).
    public var matchMoved: Bool

    public init(wholeSecondDates: Bool = false, matchMoved: Bool = false) {
        self.wholeSecondDates = wholeSecondDates
        self.matchMoved = matchMoved
    }

    /// The differences from `a` to `b`, in document order; empty when equal.
    /// Unbounded: `plistkit diff` uses ``forEachDifference(_:_:meter:_:)``
    /// within its inputs' budget.
    public func differences(_ a: ComparedValue, _ b: ComparedValue) -> [DocumentDifference] {
        var found: [DocumentDifference] = []
        var meter = ExpansionMeter(limit: Int.max)
        do {
            try forEachDifference(a, b, meter: &meter) { found.append($0) }
        } catch {
            preconditionFailure("an unbounded comparison failed: \(error)")
        }
        return found
    }

    /// Whether two values are equal under this comparison.
    public func equal(_ a: ComparedValue, _ b: ComparedValue) -> Bool {
        var meter = ExpansionMeter(limit: Int.max)
        var visitor = DifferenceVisitor(dates: dates, numbering: nil, other: b, stopAtFirst: true) { _ throws(PropertyListError) in }
        do { try ValueWalk.walk(a, meter: &meter, visitor: &visitor) } catch {
            preconditionFailure("an unbounded comparison failed: \(error)")
        }
        return visitor.reported == 0
    }

    /// How dates compare.
    var dates: DatePrecision { wholeSecondDates ? .wholeSeconds : .exact }

    /// Hands each difference from `a` to `b` to `body`, in document order,
    /// every node the comparison visits charged to `meter`.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded`` past the meter's budget,
    ///   and what `body` throws.
    package func forEachDifference(_ a: ComparedValue, _ b: ComparedValue, meter: inout ExpansionMeter,
                                   _ body: @escaping (DocumentDifference) throws(PropertyListError) -> Void) throws(PropertyListError) {
        // --match-moved pairs array members by their numbers: both values are
        // numbered first, each subtree once. Without it, the walk compares
        // pair by pair and remembers the pairs of shared objects found equal.
        var numbering: StructuralNumbering?
        if matchMoved {
            var numbers = StructuralNumbering(wholeSecondDates: wholeSecondDates)
            guard try numbers.number(a, meter: &meter) != numbers.number(b, meter: &meter) else { return }
            numbering = numbers
        }
        var visitor = DifferenceVisitor(dates: dates, numbering: numbering, other: b, stopAtFirst: false, sink: body)
        try ValueWalk.walk(a, meter: &meter, visitor: &visitor)
    }
}

extension JSONText {
    /// JSON text with every unreadable scalar that JSON leaves raw — DEL, the
    /// C1 controls, the line and paragraph separators, the bidirectional
    /// controls (``isUnreadable(_:)``) — written as `\uXXXX`; valid JSON stays
    /// valid and equal, since outside strings JSON holds none of them.
    static func escapingUnreadable(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnreadable) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isUnreadable(scalar) {
                out.append(contentsOf: "\\u".unicodeScalars)
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: (String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

// MARK: - Scalars

/// A scalar (or a set, compared exactly as a whole) by its exact value, as
/// the comparison compares it: strings scalar by scalar, reals and dates by
/// their bits (dates rounded down to the second first when asked), integers
/// by value, across the two models.
enum ScalarKey: Hashable {
    case string(ExactKey)
    case integer(PropertyListInteger)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data(Data)
    case null
    case uuid(UUID)
    case url(UserInfoURL)
    case uid(UInt32)
    case set(UserInfoSet)

    /// The key of a scalar or a set; nil for an array or a dictionary.
    init?(_ value: ComparedValue, _ dates: DatePrecision) {
        func dateBits(_ date: Date) -> UInt64 {
            let seconds = date.timeIntervalSinceReferenceDate
            return (dates == .wholeSeconds ? seconds.rounded(.down) : seconds).bitPattern
        }
        switch value.origin {
        case .propertyList(let plist):
            switch plist {
            case .string(let v): self = .string(ExactKey(text: v))
            case .integer(let v): self = .integer(v)
            case .real(let v): self = .real(v.bitPattern)
            case .bool(let v): self = .bool(v)
            case .date(let v): self = .date(dateBits(v))
            case .data(let v): self = .data(v)
            case .uid(let v): self = .uid(v)
            case .null: self = .null
            case .array, .dictionary: return nil
            }
        case .userInfo(let userInfo):
            switch userInfo {
            case .string(let v): self = .string(ExactKey(text: v))
            case .number(.integer(let v)): self = .integer(v)
            case .number(.real(let v)): self = .real(v.bitPattern)
            case .number(.bool(let v)): self = .bool(v)
            case .date(let v): self = .date(dateBits(v))
            case .data(let v): self = .data(v)
            case .null: self = .null
            case .uuid(let v): self = .uuid(v)
            case .url(let v): self = .url(v)
            // Sets hold userInfo values, compared exactly (no XML or OpenStep
            // text holds a set, so no date in one was rounded).
            case .set(let v): self = .set(v)
            case .array, .dictionary: return nil
            }
        }
    }
}

/// A string compared scalar by scalar (not by canonical equivalence).
struct ExactKey: Hashable {
    let text: String
    static func == (lhs: Self, rhs: Self) -> Bool { ExactString.equal(lhs.text, rhs.text) }
    func hash(into hasher: inout Hasher) { ExactString.hash(text, into: &hasher) }
}

// MARK: - Numbering

/// Numbers values so that two subtrees get the same number exactly when they
/// are equal under the comparison (hash-consing): scalars by their exact
/// value (dates rounded down to the second when the comparison says so),
/// arrays by their members' numbers in order, dictionaries by their
/// (key, number) pairs in any order, sets by their members exactly. Through
/// the one bounded walk, bottom-up; a container whose storage was numbered
/// before is not walked again (a shared object is numbered once).
struct StructuralNumbering {
    let wholeSecondDates: Bool

    private var scalars: [ScalarKey: Int] = [:]
    /// Containers by their kind and members' numbers: `[0, n…]` for an array,
    /// `[1, k, n, k, n…]` for a dictionary (pairs ordered by key number).
    private var containers: [[Int]: Int] = [:]
    /// Numbers of containers by storage, each beside its value (which keeps
    /// the storage alive, so no address is reused while the table lives).
    private var byStorage: [StorageIdentity: (keepAlive: ComparedValue, number: Int)] = [:]
    private var count = 0

    init(wholeSecondDates: Bool) { self.wholeSecondDates = wholeSecondDates }

    /// The number of `value`'s storage when it was numbered before.
    func known(_ identity: StorageIdentity?) -> Int? {
        identity.flatMap { byStorage[$0]?.number }
    }

    private static func intern<Key: Hashable>(_ key: Key, in table: inout [Key: Int], count: inout Int) -> Int {
        if let number = table[key] { return number }
        count += 1
        table[key] = count
        return count
    }

    /// The number of a string (a dictionary key).
    mutating func number(key: String) -> Int { Self.intern(.string(ExactKey(text: key)), in: &scalars, count: &count) }

    /// The number of a scalar or a set.
    mutating func number(scalar value: ComparedValue) -> Int {
        guard let key = ScalarKey(value, wholeSecondDates ? .wholeSeconds : .exact) else {
            preconditionFailure("containers are numbered from their members")
        }
        return Self.intern(key, in: &scalars, count: &count)
    }

    /// The number of a container from its members' numbers (and, for a
    /// dictionary, its keys'), remembered for its storage.
    mutating func number(container value: ComparedValue, _ container: WalkContainer, keys: [Int]?, members: [Int]) -> Int {
        var key: [Int]
        if let keys {
            var pairs = Array(zip(keys, members))
            pairs.sort { $0.0 < $1.0 }
            key = [1]
            key.reserveCapacity(1 + 2 * pairs.count)
            for (name, member) in pairs { key.append(name); key.append(member) }
        } else {
            key = [0] + members
        }
        let assigned = Self.intern(key, in: &containers, count: &count)
        if let identity = container.identity { byStorage[identity] = (value, assigned) }
        return assigned
    }

    /// The number of a whole value.
    mutating func number(_ value: ComparedValue, meter: inout ExpansionMeter) throws(PropertyListError) -> Int {
        var visitor = Visitor(numbering: self)
        defer { self = visitor.numbering }
        try ValueWalk.walk(value, meter: &meter, visitor: &visitor)
        return visitor.result
    }

    /// The walk's visitor: members' numbers collected per open container.
    private struct Visitor: ValueVisitor {
        typealias Value = ComparedValue
        typealias Failure = PropertyListError
        var numbering: StructuralNumbering
        var frames: [(keys: [Int]?, members: [Int], known: Int?)] = []
        var result = 0

        init(numbering: StructuralNumbering) { self.numbering = numbering }

        private mutating func deliver(_ number: Int, at place: WalkPlace) {
            guard let last = frames.indices.last else { return result = number }
            frames[last].members.append(number)
            if case .key(let key) = place { frames[last].keys!.append(numbering.number(key: key)) }
        }

        mutating func visit(scalar value: ComparedValue, at place: WalkPlace, depth: Int) {
            deliver(numbering.number(scalar: value), at: place)
        }

        mutating func enter(_ value: ComparedValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool {
            // A set is numbered whole (exactly); a container met before by its number.
            if container.kind == .set {
                frames.append((nil, [], numbering.number(scalar: value)))
                return false
            }
            let known = numbering.known(container.identity)
            frames.append((container.kind == .dictionary ? [] : nil, [], known))
            if known == nil { frames[frames.count - 1].members.reserveCapacity(container.count) }
            return known == nil
        }

        mutating func leave(_ value: ComparedValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) {
            let frame = frames.removeLast()
            let number = frame.known ?? numbering.number(container: value, container, keys: frame.keys, members: frame.members)
            deliver(number, at: place)
        }
    }
}

// MARK: - The comparison walk

extension ComparedValue {
    /// The identity of a container's storage (the value it holds), nil for a scalar or a set.
    var storageIdentity: StorageIdentity? {
        switch origin {
        case .propertyList(.array(let elements)): return StorageIdentity(elements)
        case .propertyList(.dictionary(let entries)): return entries.storageIdentity
        case .userInfo(.array(let elements)): return StorageIdentity(elements)
        case .userInfo(.dictionary(let entries)): return entries.storageIdentity
        default: return nil
        }
    }

    /// The position of `key` spelled exactly so, in a dictionary: Swift's
    /// `String` equality, which the dictionary's lookup uses, takes
    /// canonically equivalent spellings as one key; a document keeps them apart.
    func position(ofKey key: String) -> Int? {
        switch origin {
        case .propertyList(.dictionary(let entries)):
            guard let position = entries.position(forKey: key), ExactString.equal(entries.keys[position], key) else { return nil }
            return position
        case .userInfo(.dictionary(let entries)):
            guard let position = entries.position(forKey: key), ExactString.equal(entries.keys[position], key) else { return nil }
            return position
        default: return nil
        }
    }
}

/// How dates compare: exactly, or rounded down to the second.
enum DatePrecision { case exact, wholeSeconds }

/// Walks the first value; for each node finds its counterpart in the second
/// (by key, by index, or by number with `--match-moved`), reports what
/// differs, and skips every pair known equal: with numbers, by number;
/// without, a pair of identical storage or a pair of storages found equal
/// before (shared objects).
private struct DifferenceVisitor: ValueVisitor {
    typealias Value = ComparedValue
    typealias Failure = PropertyListError

    /// What a member of the first value meets in the second.
    private enum Counterpart {
        /// Paired with an equal member (`--match-moved`): nothing to report.
        case paired
        /// None: the member is removed, reported at its own index or key.
        case none(DocumentDifference.Component?)
        /// This member, named in the path by the second value's index or key.
        case member(ComparedValue, DocumentDifference.Component?)
    }

    /// A container of the first value being walked.
    private struct Frame {
        /// The counterpart and its members, when the pair is walked (nil: skipped).
        let other: ComparedValue?
        let otherMembers: WalkMembers<ComparedValue>?
        /// Whether a path component was pushed for it.
        let named: Bool
        /// The differences reported, and the nodes visited, before it was entered.
        let reportedBefore: Int
        var visitedBefore = 0
        /// `--match-moved`: each member's partner in the other array, or nil.
        var partners: [Int?]? = nil
        /// The other array's members left unpaired, in order (`--match-moved`).
        var unpairedInOther: [Int] = []
        /// This array's unpaired members met so far.
        var unpairedSoFar = 0

        static var skipped: Frame { Frame(other: nil, otherMembers: nil, named: false, reportedBefore: 0) }
    }

    /// The fewest nodes a pair must hold to be remembered equal.
    static let memoThreshold = 32

    /// Two storages, one of each value.
    private struct StoragePair: Hashable {
        let first: StorageIdentity
        let second: StorageIdentity
    }

    let dates: DatePrecision
    var numbering: StructuralNumbering?
    let other: ComparedValue
    let stopAtFirst: Bool
    /// Where each difference goes.
    let sink: (DocumentDifference) throws(PropertyListError) -> Void
    private(set) var reported = 0
    /// Nodes of the first value visited so far.
    private var visited = 0
    private var frames: [Frame] = []
    private var path: [DocumentDifference.Component] = []
    /// Pairs of containers found equal, each beside its two values (which keep the storage alive).
    private var equalPairs: [StoragePair: (ComparedValue, ComparedValue)] = [:]

    init(dates: DatePrecision, numbering: StructuralNumbering?, other: ComparedValue, stopAtFirst: Bool,
         sink: @escaping (DocumentDifference) throws(PropertyListError) -> Void) {
        self.dates = dates
        self.numbering = numbering
        self.other = other
        self.stopAtFirst = stopAtFirst
        self.sink = sink
    }

    /// The number of a subtree of either value (both were numbered whole).
    private mutating func number(_ value: ComparedValue) -> Int {
        if let identity = value.storageIdentity, let known = numbering!.known(identity) { return known }
        return numbering!.number(scalar: value)
    }

    /// Whether two scalars are equal (or, numbered, two values).
    private mutating func equalScalars(_ a: ComparedValue, _ b: ComparedValue) -> Bool {
        if numbering != nil { return number(a) == number(b) }
        guard let x = ScalarKey(a, dates), let y = ScalarKey(b, dates) else { return false }
        return x == y
    }

    /// Whether two containers are known equal without walking them.
    private mutating func knownEqual(_ a: ComparedValue, _ b: ComparedValue) -> Bool {
        if numbering != nil { return number(a) == number(b) }
        guard let x = a.storageIdentity, let y = b.storageIdentity else { return false }
        return x == y || equalPairs[StoragePair(first: x, second: y)] != nil
    }

    /// The counterpart of the member at `place` of the innermost frame.
    private mutating func counterpart(_ place: WalkPlace) -> Counterpart {
        guard let last = frames.indices.last else { return .member(other, nil) }
        guard let partner = frames[last].other, let members = frames[last].otherMembers else {
            preconditionFailure("members are walked only inside a pair that differs")
        }
        switch place {
        case .key(let key):
            guard let position = partner.position(ofKey: key) else { return .none(.key(key)) }
            return .member(members.values[position], .key(key))
        case .index(let index):
            if let partners = frames[last].partners {
                guard partners[index] == nil else { return .paired }
                let rank = frames[last].unpairedSoFar
                frames[last].unpairedSoFar += 1
                guard rank < frames[last].unpairedInOther.count else { return .none(.index(index)) }
                let partner = frames[last].unpairedInOther[rank]
                return .member(members.values[partner], .index(partner))
            }
            return index < members.values.count ? .member(members.values[index], .index(index)) : .none(.index(index))
        case .root, .member:
            preconditionFailure("set members are compared as sets")
        }
    }

    /// Reports a difference with `component` at the end of the path.
    private mutating func report(_ kind: DocumentDifference.Kind, _ component: DocumentDifference.Component?,
                                 old: ComparedValue?, new: ComparedValue?) throws(PropertyListError) {
        if let component { path.append(component) }
        defer { if component != nil { path.removeLast() } }
        try deliver(DocumentDifference(kind: kind, path: path, old: old, new: new))
    }

    private mutating func deliver(_ difference: DocumentDifference) throws(PropertyListError) {
        reported += 1
        try sink(difference)
    }

    /// After the first difference, an equality check looks no further.
    private var done: Bool { stopAtFirst && reported > 0 }

    mutating func visit(scalar value: ComparedValue, at place: WalkPlace, depth: Int) throws(PropertyListError) {
        visited += 1
        guard !done else { return }
        switch counterpart(place) {
        case .paired: return
        case .none(let component): try report(.removed, component, old: value, new: nil)
        case .member(let partner, let component):
            guard !equalScalars(value, partner) else { return }
            try report(value.typeName == partner.typeName ? .changed : .type, component, old: value, new: partner)
        }
    }

    mutating func enter(_ value: ComparedValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) -> Bool {
        visited += 1
        guard !done else {
            frames.append(.skipped)
            return false
        }
        switch counterpart(place) {
        case .paired:
            frames.append(.skipped)
            return false
        case .none(let component):
            try report(.removed, component, old: value, new: nil)
            frames.append(.skipped)
            return false
        case .member(let partner, let component):
            frames.append(.skipped)
            guard value.typeName == partner.typeName else {
                try report(.type, component, old: value, new: partner)
                return false
            }
            guard !knownEqual(value, partner) else { return false }
            if container.kind == .set {
                // Sets: the members only one side has, at the set's path, exactly.
                if let component { path.append(component) }
                defer { if component != nil { path.removeLast() } }
                try compareSets(value, partner)
                return false
            }
            // The pair may differ: walk it, under the counterpart's name.
            frames.removeLast()
            if let component { path.append(component) }
            var frame = Frame(other: partner, otherMembers: partner.walkMembers(sorted: false), named: component != nil, reportedBefore: reported,
                              visitedBefore: visited)
            if numbering != nil, container.kind == .array {
                try pair(value.walkMembers(sorted: false).values, frame.otherMembers!.values, into: &frame)
            }
            frames.append(frame)
            return true
        }
    }

    mutating func leave(_ value: ComparedValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) {
        let frame = frames.removeLast()
        guard let partner = frame.other, let otherMembers = frame.otherMembers else { return }
        // What only the other container has.
        if !done {
            switch container.kind {
            case .dictionary:
                for (position, key) in (otherMembers.keys ?? []).enumerated() where value.position(ofKey: key) == nil {
                    try report(.added, .key(key), old: nil, new: otherMembers.values[position])
                }
            case .array:
                let members = otherMembers.values
                let extra = frame.partners != nil ? Array(frame.unpairedInOther.dropFirst(frame.unpairedSoFar))
                                                  : Array(min(container.count, members.count)..<members.count)
                for index in extra { try report(.added, .index(index), old: nil, new: members[index]) }
            case .set:
                break
            }
        }
        if frame.named { path.removeLast() }
        // A pair walked without a difference: equal, wherever its storages meet
        // again. Small pairs are not remembered: walking one again costs less
        // than remembering it, and at most `memoThreshold` nodes for each
        // reference to it that the input holds.
        if numbering == nil, reported == frame.reportedBefore, visited - frame.visitedBefore >= Self.memoThreshold,
           let x = value.storageIdentity, let y = partner.storageIdentity {
            equalPairs[StoragePair(first: x, second: y)] = (value, partner)
        }
    }

    /// `--match-moved`: equal members paired first (in order of appearance),
    /// by number; a pair at different indexes is reported `moved`; the
    /// members left over are compared by position among themselves.
    private mutating func pair(_ mine: [ComparedValue], _ theirs: [ComparedValue], into frame: inout Frame) throws(PropertyListError) {
        var waiting: [Int: (next: Int, indices: [Int])] = [:]
        for (index, member) in theirs.enumerated() {
            waiting[number(member), default: (0, [])].indices.append(index)
        }
        var partners = [Int?](repeating: nil, count: mine.count)
        var paired = [Bool](repeating: false, count: theirs.count)
        var moves: [(from: Int, to: Int)] = []
        for (index, member) in mine.enumerated() {
            let key = number(member)
            guard var entry = waiting[key], entry.next < entry.indices.count else { continue }
            let partner = entry.indices[entry.next]
            entry.next += 1
            waiting[key] = entry
            partners[index] = partner
            paired[partner] = true
            if partner != index { moves.append((index, partner)) }
        }
        frame.partners = partners
        frame.unpairedInOther = theirs.indices.filter { !paired[$0] }
        for move in moves {
            try deliver(DocumentDifference(kind: .moved, path: path, old: nil, new: theirs[move.to], from: move.from, to: move.to))
        }
    }

    /// Members of one set that the other lacks, exactly.
    private mutating func compareSets(_ a: ComparedValue, _ b: ComparedValue) throws(PropertyListError) {
        guard case .userInfo(.set(let x)) = a.origin, case .userInfo(.set(let y)) = b.origin, x != y else { return }
        for member in x.members where !y.contains(member) {
            try deliver(DocumentDifference(kind: .removed, path: path, old: ComparedValue(member), new: nil))
        }
        for member in y.members where !x.contains(member) {
            try deliver(DocumentDifference(kind: .added, path: path, old: nil, new: ComparedValue(member)))
        }
    }
}
