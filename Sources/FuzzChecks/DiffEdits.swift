import DocumentFormats
import FoundationEssentials
@_spi(ByteKit) import PropertyList
import UserInfo

/// The diff oracle's edits (B derived from A) and its patch (the differences
/// applied to A), written apart from the comparison they check.
extension DiffRun {
    // MARK: Deriving B

    /// B: one to three edits of A (none, one time in eight).
    static func derive(from a: Value, _ random: inout SplitMix) -> Value {
        if random.oneIn(8) { return a }
        var b = a
        for _ in 0...random.next(3) { b = edit(b, parts: a, &random) }
        return b
    }

    /// A member of a container by a random position.
    static func randomMember(of value: Value, _ random: inout SplitMix) -> (Component, Value)? {
        if let entries = value.dictionaryEntries, !entries.isEmpty {
            let position = random.next(entries.count)
            return (.key(entries.keys[position]), entries.values[position])
        }
        if let members = value.arrayMembers, !members.isEmpty {
            let index = random.next(members.count)
            return (.index(index), members[index])
        }
        return nil
    }

    /// A part of `root` at the end of a random walk (possibly `root` itself).
    static func randomPart(of root: Value, _ random: inout SplitMix) -> Value {
        random.randomPart(of: root, member: randomMember)
    }

    /// A new member: another part of A (shared with it), or an edge scalar.
    static func newMember(_ parts: Value, _ random: inout SplitMix) -> Value {
        random.oneIn(2) ? randomPart(of: parts, &random) : random.pick(Value.edgeScalars)
    }

    /// One edit of `value` at the end of a random walk of arrays and dictionaries.
    static func edit(_ value: Value, parts: Value, _ random: inout SplitMix) -> Value {
        var path: [Component] = []
        var node = value
        while path.count < 8, random.next(3) != 0, case let (component, member)? = randomMember(of: node, &random),
              member.arrayMembers != nil || member.dictionaryEntries != nil || member.setMembers != nil {
            path.append(component)
            node = member
        }
        return replacing(at: path[...], in: value) { editContainer($0, parts: parts, &random) }
    }

    /// One change of a container (or of a scalar: replaced, or wrapped).
    static func editContainer(_ node: Value, parts: Value, _ random: inout SplitMix) -> Value {
        if var members = node.arrayMembers {
            let index = random.next(members.count + 1)
            switch random.next(8) {
            case 0 where index < members.count: members[index] = newMember(parts, &random)
            case 1 where index < members.count: members.remove(at: index)
            case 2: members.insert(newMember(parts, &random), at: index)
            case 3: members.append(newMember(parts, &random))
            case 4 where members.count >= 2:
                let (i, j) = (random.next(members.count), random.next(members.count))
                members.swapAt(i, j)
            case 5: members.reverse()
            case 6 where index < members.count: members[index] = .array([members[index]])
            default: return newMember(parts, &random)
            }
            return .array(members)
        }
        if var entries = node.dictionaryEntries {
            let keys = entries.keys
            switch random.next(6) {
            case 0 where !keys.isEmpty:
                let key = random.pick(keys)
                entries[key] = newMember(parts, &random)
            case 1 where !keys.isEmpty:
                let key = random.pick(keys)
                entries[key] = nil
            case 2, 3:
                let number = random.next(4)
                let key = random.pick(["k\(number)", "\u{E9}", "e\u{301}", "a.b", "\\", "", "\u{2028}", "\u{202E}k"] + keys.prefix(1))
                _ = entries.insertNew(newMember(parts, &random), forKey: key)
            case 4 where !keys.isEmpty:
                let key = random.pick(keys)
                entries[key] = Value.dictionary(StringKeyedDictionary(uniqueKeysWithValues: [(key, entries[key]!)]))
            default: return newMember(parts, &random)
            }
            return .dictionary(entries)
        }
        if let members = node.setMembers {
            if !members.isEmpty, random.oneIn(2) {
                let gone = random.pick(members)
                return Value.makeSet(members.filter { $0 != gone }) ?? node
            }
            return Value.makeSet(members + [newMember(parts, &random)]) ?? node
        }
        return random.oneIn(4) ? .array([node]) : newMember(parts, &random)
    }

    /// `value` with the value at `path` given by `change` (the path leads through arrays and dictionaries).
    static func replacing(at path: ArraySlice<Component>, in value: Value, _ change: (Value) -> Value) -> Value {
        guard let first = path.first else { return change(value) }
        switch first {
        case .key(let key):
            guard var entries = value.dictionaryEntries, let member = entries[key] else { return value }
            entries[key] = replacing(at: path.dropFirst(), in: member, change)
            return .dictionary(entries)
        case .index(let index):
            guard var members = value.arrayMembers, index < members.count else { return value }
            members[index] = replacing(at: path.dropFirst(), in: members[index], change)
            return .array(members)
        }
    }

    /// The value at `path`, or nil.
    static func value(at path: ArraySlice<Component>, in value: Value) -> Value? {
        var node = value
        for component in path {
            switch component {
            case .key(let key):
                guard let entries = node.dictionaryEntries, let position = entries.exactPosition(of: key) else { return nil }
                node = entries.values[position]
            case .index(let index):
                guard let members = node.arrayMembers, index >= 0, index < members.count else { return nil }
                node = members[index]
            }
        }
        return node
    }

    /// A copy of `value` that shares no container storage with it.
    static func copy(_ value: Value) -> Value {
        if let members = value.arrayMembers { return .array(members.map(copy)) }
        if let entries = value.dictionaryEntries {
            var copied = StringKeyedDictionary<Value>(minimumCapacity: entries.count)
            for (key, member) in entries { _ = copied.insertNew(copy(member), forKey: key) }
            return .dictionary(copied)
        }
        return value
    }

    // MARK: The patch

    /// Applies differences found by index (plain: no `moved`) to `value`, each
    /// container rebuilt once: replace at changed and retyped paths; remove
    /// keys, array members (by A's index) and set members; then add keys,
    /// append array members (at the index the array has then) and add set
    /// members. Nil when a difference does not apply.
    static func patch(_ value: Value, with differences: [DocumentDifference]) -> Value? {
        patch(value, differences.map { ($0.path[...], $0) })
    }

    private static func patch(_ value: Value, _ differences: [(rest: ArraySlice<Component>, difference: DocumentDifference)]) -> Value? {
        if differences.isEmpty { return value }
        // Here: a replacement, or set members.
        let here = differences.filter { $0.rest.isEmpty }
        if let replace = here.first(where: { $0.difference.kind == .changed || $0.difference.kind == .type }) {
            guard differences.count == 1 else { return nil }
            return replace.difference.new.flatMap(Value.init(compared:))
        }
        if let members = value.setMembers {
            guard here.count == differences.count else { return nil }
            var kept = members
            for (_, difference) in here where difference.kind == .removed {
                guard let old = difference.old.flatMap(Value.init(compared:)), let at = kept.firstIndex(of: old) else { return nil }
                kept.remove(at: at)
            }
            for (_, difference) in here where difference.kind == .added {
                guard let new = difference.new.flatMap(Value.init(compared:)), !kept.contains(new) else { return nil }
                kept.append(new)
            }
            return Value.makeSet(kept)
        }
        guard here.isEmpty else { return nil }
        // Below: grouped by the first component, in order of appearance.
        var groups: [(component: Component, items: [(rest: ArraySlice<Component>, difference: DocumentDifference)])] = []
        var groupIndex: [Component: Int] = [:]
        for item in differences {
            let component = item.rest.first!
            let key = Self.exactKey(component)
            if let at = groupIndex[key] { groups[at].items.append((item.rest.dropFirst(), item.difference)) } else {
                groupIndex[key] = groups.count
                groups.append((component, [(item.rest.dropFirst(), item.difference)]))
            }
        }
        if let members = value.arrayMembers {
            guard case let (removed, replaced, added)? = patchMembers(groups, key: { (component: Component) -> Int? in
                guard case .index(let index) = component, index >= 0 else { return nil }
                return index
            }, member: { index in index < members.count ? members[index] : nil }) else { return nil }
            var patched = members.indices.filter { !removed.contains($0) }.map { replaced[$0] ?? members[$0] }
            for (index, new) in added.sorted(by: { $0.0 < $1.0 }) {
                guard index == patched.count else { return nil }
                patched.append(new)
            }
            return .array(patched)
        }
        if let entries = value.dictionaryEntries {
            guard case let (removed, replaced, added)? = patchMembers(groups, key: { (component: Component) -> String? in
                guard case .key(let key) = component else { return nil }
                return key
            }, member: { key in entries.exactPosition(of: key).map { entries.values[$0] } }) else { return nil }
            var patched = StringKeyedDictionary<Value>(minimumCapacity: entries.count + added.count)
            for (key, member) in entries where !removed.contains(key) {
                guard patched.insertNew(replaced[key] ?? member, forKey: key) else { return nil }
            }
            for (key, new) in added {
                guard patched.insertNew(new, forKey: key) else { return nil }
            }
            return .dictionary(patched)
        }
        return nil
    }

    /// The members a container's differences (grouped by key or index)
    /// remove, replace (patched) and add, in order of appearance; nil when a
    /// component is not one of the container's (`key` gives nil) or a
    /// difference does not apply.
    private static func patchMembers<Key: Hashable>(
        _ groups: [(component: Component, items: [(rest: ArraySlice<Component>, difference: DocumentDifference)])],
        key: (Component) -> Key?, member: (Key) -> Value?
    ) -> (removed: Set<Key>, replaced: [Key: Value], added: [(Key, Value)])? {
        var removed = Set<Key>()
        var replaced: [Key: Value] = [:]
        var added: [(Key, Value)] = []
        for (component, items) in groups {
            guard let key = key(component) else { return nil }
            let member = member(key)
            if let kind = containerLevel(items, member: member) {
                if kind == .removed {
                    guard member != nil else { return nil }
                    removed.insert(key)
                } else {
                    guard member == nil, let new = items[0].difference.new.flatMap(Value.init(compared:)) else { return nil }
                    added.append((key, new))
                }
                continue
            }
            guard let member, let changed = patch(member, items) else { return nil }
            replaced[key] = changed
        }
        return (removed, replaced, added)
    }

    /// `.removed` or `.added` when `items` (under one key or index) remove or
    /// add that member of the container, nil when they lead below it: a set's
    /// members are removed and added at the set's own path.
    private static func containerLevel(_ items: [(rest: ArraySlice<Component>, difference: DocumentDifference)], member: Value?) -> DocumentDifference.Kind? {
        guard items.count == 1, items[0].rest.isEmpty else { return nil }
        let difference = items[0].difference
        switch difference.kind {
        case .added where member?.setMembers == nil: return .added
        case .removed where member?.setMembers == nil || member == difference.old.flatMap(Value.init(compared:)): return .removed
        default: return nil
        }
    }

    /// A component as a dictionary key that keeps canonically equivalent
    /// spellings apart (a document does; Swift's `String` equality does not).
    private static func exactKey(_ component: Component) -> Component {
        guard case .key(let key) = component else { return component }
        return .key(key.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
    }
}

extension StringKeyedDictionary {
    /// The position of the key spelled exactly `key` (Swift's `String`
    /// equality takes canonically equivalent spellings as one key).
    fileprivate func exactPosition(of key: String) -> Int? {
        guard let position = position(forKey: key), ExactString.equal(keys[position], key) else { return nil }
        return position
    }
}
