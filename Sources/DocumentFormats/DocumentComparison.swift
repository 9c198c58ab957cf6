@_spi(ByteKit) package import PropertyList
import UserInfo

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

// MARK: - The comparison walk

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
