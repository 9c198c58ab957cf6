import FoundationEssentials
@_spi(ByteKit) import PropertyList
import UserInfo

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
