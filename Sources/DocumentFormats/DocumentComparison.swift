public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo
import TypedJSON

/// A value of any document, as ``DocumentComparison`` compares it: the
/// property-list types and the userInfo types in one tree, so that a binary
/// plist and an MP userInfo of the same value compare equal
/// (Specs/plistkit.md, "Diff").
public indirect enum ComparedValue: Sendable {
    case string(String)
    case integer(PropertyListInteger)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([ComparedValue])
    case dictionary(StringKeyedDictionary<ComparedValue>)
    /// A userInfo set; its members stay userInfo values.
    case set(UserInfoSet)
    case null
    case uuid(UUID)
    case url(UserInfoURL)
    /// A keyed-archive reference (property lists only).
    case uid(UInt32)

    /// The tree of a property list.
    public init(_ value: PropertyListValue) {
        switch value {
        case .string(let v): self = .string(v)
        case .integer(let v): self = .integer(v)
        case .real(let v): self = .real(v)
        case .bool(let v): self = .bool(v)
        case .date(let v): self = .date(v)
        case .data(let v): self = .data(v)
        case .array(let v): self = .array(v.map(ComparedValue.init))
        case .dictionary(let v): self = .dictionary(v.mapValues(ComparedValue.init))
        case .uid(let v): self = .uid(v)
        case .null: self = .null
        }
    }

    /// The tree of a userInfo value.
    public init(_ value: UserInfoValue) {
        switch value {
        case .string(let v): self = .string(v)
        case .number(.integer(let v)): self = .integer(v)
        case .number(.real(let v)): self = .real(v)
        case .number(.bool(let v)): self = .bool(v)
        case .date(let v): self = .date(v)
        case .data(let v): self = .data(v)
        case .array(let v): self = .array(v.map(ComparedValue.init))
        case .dictionary(let v): self = .dictionary(v.mapValues(ComparedValue.init))
        case .set(let v): self = .set(v)
        case .null: self = .null
        case .uuid(let v): self = .uuid(v)
        case .url(let v): self = .url(v)
        }
    }

    /// The type's name, as typed JSON names it.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dict"
        case .set: return "set"
        case .null: return "null"
        case .uuid: return "uuid"
        case .url: return "url"
        case .uid: return "uid"
        }
    }

    /// The value as a userInfo value, or nil when it holds a UID.
    var userInfoValue: UserInfoValue? {
        switch self {
        case .string(let v): return .string(v)
        case .integer(let v): return .number(.integer(v))
        case .real(let v): return .number(.real(v))
        case .bool(let v): return .number(.bool(v))
        case .date(let v): return .date(v)
        case .data(let v): return .data(v)
        case .array(let v):
            var members: [UserInfoValue] = []
            members.reserveCapacity(v.count)
            for member in v {
                guard let converted = member.userInfoValue else { return nil }
                members.append(converted)
            }
            return .array(members)
        case .dictionary(let v):
            var entries = UserInfoDictionary(minimumCapacity: v.count)
            for (key, member) in v {
                guard let converted = member.userInfoValue else { return nil }
                _ = entries.insertNew(converted, forKey: key)
            }
            return .dictionary(entries)
        case .set(let v): return .set(v)
        case .null: return .null
        case .uuid(let v): return .uuid(v)
        case .url(let v): return .url(v)
        case .uid: return nil
        }
    }

    /// The value as a property list, or nil when it holds a userInfo-only type
    /// (set, UUID, URL). Only a property list read from a document holds a
    /// UID, and it holds none of those.
    var propertyListValue: PropertyListValue? {
        switch self {
        case .string(let v): return .string(v)
        case .integer(let v): return .integer(v)
        case .real(let v): return .real(v)
        case .bool(let v): return .bool(v)
        case .date(let v): return .date(v)
        case .data(let v): return .data(v)
        case .array(let v):
            var members: [PropertyListValue] = []
            members.reserveCapacity(v.count)
            for member in v {
                guard let converted = member.propertyListValue else { return nil }
                members.append(converted)
            }
            return .array(members)
        case .dictionary(let v):
            var entries = PropertyListDictionary(minimumCapacity: v.count)
            for (key, member) in v {
                guard let converted = member.propertyListValue else { return nil }
                _ = entries.insertNew(converted, forKey: key)
            }
            return .dictionary(entries)
        case .uid(let v): return .uid(v)
        case .null: return .null
        case .set, .uuid, .url: return nil
        }
    }
}

extension ComparedValue: Hashable {
    /// Exact equality, as the value model's: strings scalar by scalar, reals
    /// and dates by their bits (`-0.0` is not `0.0`; a NaN equals the same
    /// NaN), integers by value.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return ExactString.equal(a, b)
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a.bitPattern == b.bitPattern
        case let (.bool(a), .bool(b)): return a == b
        case let (.date(a), .date(b)):
            return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)): return a == b
        case let (.set(a), .set(b)): return a == b
        case (.null, .null): return true
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.url(a), .url(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let v): hasher.combine(0 as UInt8); ExactString.hash(v, into: &hasher)
        case .integer(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .real(let v): hasher.combine(2 as UInt8); hasher.combine(v.bitPattern)
        case .bool(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .date(let v): hasher.combine(4 as UInt8); hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v): hasher.combine(5 as UInt8); hasher.combine(v)
        case .array(let v): hasher.combine(6 as UInt8); hasher.combine(v)
        case .dictionary(let v): hasher.combine(7 as UInt8); hasher.combine(v)
        case .set(let v): hasher.combine(8 as UInt8); hasher.combine(v)
        case .null: hasher.combine(9 as UInt8)
        case .uuid(let v): hasher.combine(10 as UInt8); hasher.combine(v)
        case .url(let v): hasher.combine(11 as UInt8); hasher.combine(v)
        case .uid(let v): hasher.combine(12 as UInt8); hasher.combine(v)
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
    /// quoted and escaped (no control or bidirectional character reaches a terminal).
    public var line: String {
        var text = kind.rawValue + " "
        JSONText.appendReadableQuoted(keyPath, to: &text)
        text += ": "
        switch kind {
        case .changed, .type:
            let showType = kind == .type
            if showType { text += old!.typeName + " " }
            DocumentComparison.appendLine(old!, to: &text)
            text += " -> "
            if showType { text += new!.typeName + " " }
            DocumentComparison.appendLine(new!, to: &text)
        case .removed: DocumentComparison.appendLine(old!, to: &text)
        case .added: DocumentComparison.appendLine(new!, to: &text)
        case .moved:
            text += "\(from!) -> \(to!) ("
            DocumentComparison.appendLine(new!, to: &text)
            text += ")"
        }
        return text
    }

    /// The difference as one JSON object: `kind`, `keyPath`, `path`, and the
    /// values in typed JSON (`old`, `new`; `from`, `to` and `value` for `moved`).
    ///
    /// - Throws: ``PropertyListError`` when a value is past the typed-JSON
    ///   writer's limits.
    public func json(limits: PropertyListLimits = .default) throws(PropertyListError) -> String {
        var text = "{\"kind\":"
        JSONText.appendQuoted(kind.rawValue, to: &text)
        text += ",\"keyPath\":"
        JSONText.appendQuoted(keyPath, to: &text)
        text += ",\"path\":["
        for (position, component) in path.enumerated() {
            if position > 0 { text += "," }
            switch component {
            case .index(let index): text += String(index)
            case .key(let key): JSONText.appendQuoted(key, to: &text)
            }
        }
        text += "]"
        if kind == .moved {
            text += ",\"from\":\(from!),\"to\":\(to!),\"value\":" + (try DocumentComparison.typedJSON(new!, limits: limits))
        } else {
            if let old { text += ",\"old\":" + (try DocumentComparison.typedJSON(old, limits: limits)) }
            if let new { text += ",\"new\":" + (try DocumentComparison.typedJSON(new, limits: limits)) }
        }
        return text + "}"
    }
}

/// Compares two values as `plistkit diff` does (Specs/plistkit.md, "Diff"):
/// equal values whatever the formats they came from, types kept apart,
/// dates at the precision both documents keep. One walk of both values:
/// linear in their sizes plus the differences.
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
    /// Recursion follows the values' depth, which their readers bound
    /// (`PropertyListLimits.maxSupportedDepth`), as the value model's own
    /// equality does (Specs/architecture.md, "One stack policy").
    public func differences(_ a: ComparedValue, _ b: ComparedValue) -> [DocumentDifference] {
        var found: [DocumentDifference] = []
        var path: [DocumentDifference.Component] = []
        compare(a, b, path: &path, into: &found)
        return found
    }

    /// Whether two values are equal under this comparison.
    public func equal(_ a: ComparedValue, _ b: ComparedValue) -> Bool {
        switch (a, b) {
        case let (.date(x), .date(y)): return sameDate(x, y)
        case let (.array(x), .array(y)):
            guard x.count == y.count else { return false }
            for index in x.indices where !equal(x[index], y[index]) { return false }
            return true
        case let (.dictionary(x), .dictionary(y)):
            guard x.count == y.count else { return false }
            for (key, member) in x {
                guard let other = Self.member(y, exactly: key), equal(member, other) else { return false }
            }
            return true
        default: return a == b
        }
    }

    /// The member under `key` spelled exactly so: Swift's `String` equality,
    /// which the dictionary's lookup uses, takes canonically equivalent
    /// spellings as one key; a document keeps them apart.
    private static func member(_ entries: StringKeyedDictionary<ComparedValue>, exactly key: String) -> ComparedValue? {
        guard let position = entries.position(forKey: key) else { return nil }
        let (stored, value) = entries[position]
        return ExactString.equal(stored, key) ? value : nil
    }

    private func sameDate(_ x: Date, _ y: Date) -> Bool {
        let s = x.timeIntervalSinceReferenceDate, t = y.timeIntervalSinceReferenceDate
        if wholeSecondDates { return s.rounded(.down) == t.rounded(.down) }
        return s.bitPattern == t.bitPattern
    }

    private func compare(_ a: ComparedValue, _ b: ComparedValue, path: inout [DocumentDifference.Component],
                         into found: inout [DocumentDifference]) {
        switch (a, b) {
        case let (.dictionary(x), .dictionary(y)):
            for (key, member) in x {
                path.append(.key(key))
                // Keys match scalar by scalar: a canonically equivalent spelling is another key.
                if let other = Self.member(y, exactly: key) {
                    compare(member, other, path: &path, into: &found)
                } else {
                    found.append(DocumentDifference(kind: .removed, path: path, old: member, new: nil))
                }
                path.removeLast()
            }
            for (key, member) in y {
                guard Self.member(x, exactly: key) == nil else { continue }
                path.append(.key(key))
                found.append(DocumentDifference(kind: .added, path: path, old: nil, new: member))
                path.removeLast()
            }
        case let (.array(x), .array(y)):
            if matchMoved {
                compareMatching(x, y, path: &path, into: &found)
            } else {
                compareByIndex(x, Array(x.indices), y, Array(y.indices), path: &path, into: &found)
            }
        case let (.set(x), .set(y)):
            // Sets hold userInfo values, compared exactly (no XML or OpenStep
            // text holds a set, so no date in one was rounded).
            for member in x.members where !y.contains(member) {
                found.append(DocumentDifference(kind: .removed, path: path, old: ComparedValue(member), new: nil))
            }
            for member in y.members where !x.contains(member) {
                found.append(DocumentDifference(kind: .added, path: path, old: nil, new: ComparedValue(member)))
            }
        default:
            guard !equal(a, b) else { return }
            let sameType = a.typeName == b.typeName
            found.append(DocumentDifference(kind: sameType ? .changed : .type, path: path, old: a, new: b))
        }
    }

    /// Members paired by position in the given index lists: the common
    /// prefix compared, the rest of the longer list removed or added.
    private func compareByIndex(_ x: [ComparedValue], _ xIndices: [Int], _ y: [ComparedValue], _ yIndices: [Int],
                                path: inout [DocumentDifference.Component], into found: inout [DocumentDifference]) {
        let common = min(xIndices.count, yIndices.count)
        for position in 0..<common {
            // The key path names the member's index in the second array
            // (the same index, unless members were matched first).
            path.append(.index(yIndices[position]))
            compare(x[xIndices[position]], y[yIndices[position]], path: &path, into: &found)
            path.removeLast()
        }
        for position in common..<xIndices.count {
            path.append(.index(xIndices[position]))
            found.append(DocumentDifference(kind: .removed, path: path, old: x[xIndices[position]], new: nil))
            path.removeLast()
        }
        for position in common..<yIndices.count {
            path.append(.index(yIndices[position]))
            found.append(DocumentDifference(kind: .added, path: path, old: nil, new: y[yIndices[position]]))
            path.removeLast()
        }
    }

    /// `--match-moved`: equal members paired first (in order of appearance),
    /// each hashed once; a pair at different indexes is `moved`; the members
    /// left over are compared by position among themselves.
    private func compareMatching(_ x: [ComparedValue], _ y: [ComparedValue],
                                 path: inout [DocumentDifference.Component], into found: inout [DocumentDifference]) {
        // The indexes of B's members by value, in order, each list consumed from its front.
        var waiting: [MatchKey: (next: Int, indices: [Int])] = [:]
        for (index, member) in y.enumerated() {
            waiting[MatchKey(member, wholeSecondDates: wholeSecondDates), default: (0, [])].indices.append(index)
        }
        var pairedInY = [Bool](repeating: false, count: y.count)
        var leftInX: [Int] = []
        var moves: [(from: Int, to: Int)] = []
        for (index, member) in x.enumerated() {
            let key = MatchKey(member, wholeSecondDates: wholeSecondDates)
            guard var entry = waiting[key], entry.next < entry.indices.count else {
                leftInX.append(index)
                continue
            }
            let partner = entry.indices[entry.next]
            entry.next += 1
            waiting[key] = entry
            pairedInY[partner] = true
            if partner != index { moves.append((index, partner)) }
        }
        let leftInY = y.indices.filter { !pairedInY[$0] }
        for move in moves {
            found.append(DocumentDifference(kind: .moved, path: path, old: nil, new: y[move.to], from: move.from, to: move.to))
        }
        compareByIndex(x, leftInX, y, leftInY, path: &path, into: &found)
    }

    /// A value hashed and compared under the comparison's date precision.
    private struct MatchKey: Hashable {
        let value: ComparedValue
        let wholeSecondDates: Bool
        init(_ value: ComparedValue, wholeSecondDates: Bool) {
            self.value = value
            self.wholeSecondDates = wholeSecondDates
        }
        static func == (lhs: Self, rhs: Self) -> Bool {
            DocumentComparison(wholeSecondDates: lhs.wholeSecondDates).equal(lhs.value, rhs.value)
        }
        func hash(into hasher: inout Hasher) {
            // Exact hashing, but with dates rounded down first when they
            // compare by the second; dictionaries order-independently.
            Self.hash(value, wholeSecondDates, into: &hasher)
        }
        private static func hash(_ value: ComparedValue, _ wholeSeconds: Bool, into hasher: inout Hasher) {
            switch value {
            case .date(let date):
                hasher.combine(4 as UInt8)
                let seconds = date.timeIntervalSinceReferenceDate
                hasher.combine((wholeSeconds ? seconds.rounded(.down) : seconds).bitPattern)
            case .array(let members):
                hasher.combine(6 as UInt8)
                hasher.combine(members.count)
                for member in members { hash(member, wholeSeconds, into: &hasher) }
            case .dictionary(let entries):
                hasher.combine(7 as UInt8)
                var sum = 0
                for (key, member) in entries {
                    var entry = Hasher()
                    ExactString.hash(key, into: &entry)
                    hash(member, wholeSeconds, into: &entry)
                    sum = sum &+ entry.finalize()
                }
                hasher.combine(sum)
            default: hasher.combine(value)
            }
        }
    }

    // MARK: Rendering

    /// A value on one line (Specs/plistkit.md, "Diff"): strings quoted and escaped.
    static func appendLine(_ value: ComparedValue, to out: inout String) {
        switch value {
        case .string(let string): JSONText.appendReadableQuoted(string, to: &out)
        case .integer(let integer): out += integer.description
        case .real(let real): out += real.description
        case .bool(let flag): out += flag ? "true" : "false"
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            out += CivilTime.iso8601(secondsSinceReference: seconds) ?? "date(\(seconds))"
        case .data(let data):
            out += "<"
            for byte in data { out += Hex.lower(byte) }
            out += ">"
        case .array(let members):
            out += "["
            for (position, member) in members.enumerated() {
                if position > 0 { out += ", " }
                appendLine(member, to: &out)
            }
            out += "]"
        case .dictionary(let entries):
            out += "{"
            for (position, (key, member)) in entries.enumerated() {
                if position > 0 { out += ", " }
                JSONText.appendReadableQuoted(key, to: &out)
                out += ": "
                appendLine(member, to: &out)
            }
            out += "}"
        case .set(let set):
            out += "set["
            for (position, member) in set.members.enumerated() {
                if position > 0 { out += ", " }
                appendLine(ComparedValue(member), to: &out)
            }
            out += "]"
        case .null: out += "null"
        case .uuid(let uuid): out += "uuid(\(uuid.uuidString))"
        case .url(let url): appendURL(url, to: &out)
        case .uid(let uid): out += "uid(\(uid))"
        }
    }

    private static func appendURL(_ url: UserInfoURL, to out: inout String) {
        out += "url("
        JSONText.appendReadableQuoted(url.relative, to: &out)
        if let base = url.base {
            out += ", base: "
            appendURL(base, to: &out)
        }
        out += ")"
    }

    /// A value in compact typed JSON.
    static func typedJSON(_ value: ComparedValue, limits: PropertyListLimits) throws(PropertyListError) -> String {
        let writer = TypedJSONWriter(pretty: false, limits: WriterLimits(limits))
        let bytes: Data
        if let userInfo = value.userInfoValue {
            bytes = try writer.write(userInfo)
        } else if let plist = value.propertyListValue {
            bytes = try writer.write(plist)
        } else {
            preconditionFailure("a compared value holds both a UID and a userInfo-only type")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
