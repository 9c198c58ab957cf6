import FoundationEssentials
@_spi(ByteKit) import PropertyList
import UserInfo

/// The userInfo view of a ``KeyedArchiveGraph`` (``KeyedArchiveGraph/userInfoValue(at:maxExpandedBytes:)``):
/// every object resolved at most once, with an explicit stack, bottom-up; a
/// shared object becomes one value, used wherever it is referenced, and its
/// expanded size (``ExpandedSize``) is added at every place, so the budget is
/// checked before any container is built and nothing is expanded.
struct UserInfoResolver {
    /// An object resolved: its value (nil when it is no userInfo value), its
    /// expanded size at relative depth 0 and node count, and its height (the
    /// references below it on the longest path).
    struct Resolved {
        var value: UserInfoValue?
        var base: Int
        var nodes: Int
        var height: Int

        static let none = Resolved(value: nil, base: 0, nodes: 0, height: 0)

        init(value: UserInfoValue?, base: Int, nodes: Int, height: Int) {
            (self.value, self.base, self.nodes, self.height) = (value, base, nodes, height)
        }

        init(leaf value: UserInfoValue?) {
            self.init(value: value, base: ExpandedSize.node(depth: 0, payload: value?.payloadBytes ?? 0), nodes: 1, height: 0)
        }
    }

    private enum State {
        case unvisited
        case inProgress
        case done(Resolved)
    }

    /// An object whose members are being resolved.
    private struct Frame {
        let index: Int
        let references: [Int]
        var resolved: [Resolved] = []
    }

    private let objects: [KeyedArchiveGraph.Node]
    private let budget: Int
    private var states: [State]

    init(objects: [KeyedArchiveGraph.Node], budget: Int) {
        self.objects = objects
        self.budget = budget
        states = Array(repeating: .unvisited, count: objects.count)
    }

    /// The references an object's value is built from, in order (a URL: its
    /// relative string, then its base when it has one).
    private func references(of node: KeyedArchiveGraph.Node) -> [Int]? {
        switch node {
        case .array(let elements): return elements
        case .set(let members): return members
        case .dictionary(let keys, let values): return keys + values
        case .url(let relative, let base): return base == 0 ? [relative] : [relative, base]
        default: return nil
        }
    }

    /// Resolves object `start` and everything under it.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded`` when a value would expand past the budget.
    mutating func resolve(_ start: Int) throws(UserInfoError) -> Resolved? {
        var stack: [Frame] = []
        var result: Resolved?
        var next = start
        while true {
            // Resolve `next` now, or open a frame for it.
            var finished: Resolved
            if next < 0 || next >= objects.count {
                finished = .none
            } else {
                switch states[next] {
                case .done(let resolved): finished = resolved
                case .inProgress: finished = .none   // a cycle: no finite value
                case .unvisited:
                    if let references = references(of: objects[next]) {
                        states[next] = .inProgress
                        stack.append(Frame(index: next, references: references))
                        stack[stack.count - 1].resolved.reserveCapacity(references.count)
                        if let first = references.first {
                            next = first
                            continue
                        }
                        finished = try build(stack.removeLast())
                        states[next] = .done(finished)
                    } else {
                        finished = leaf(objects[next])
                        states[next] = .done(finished)
                    }
                }
            }
            // Hand results up until a frame has members left.
            while let last = stack.indices.last {
                stack[last].resolved.append(finished)
                let done = stack[last].resolved.count
                if done < stack[last].references.count {
                    next = stack[last].references[done]
                    break
                }
                let frame = stack.removeLast()
                finished = try build(frame)
                states[frame.index] = .done(finished)
            }
            if stack.isEmpty {
                result = finished
                break
            }
        }
        return result
    }

    private func leaf(_ node: KeyedArchiveGraph.Node) -> Resolved {
        switch node {
        case .value(let plist):
            guard let value = UserInfoValue(propertyListScalar: plist) else { return .none }
            return Resolved(leaf: value)
        case .string(let string): return Resolved(leaf: .string(string))
        case .data(let data): return Resolved(leaf: .data(data))
        case .date(let date): return Resolved(leaf: .date(date))
        case .uuid(let uuid): return Resolved(leaf: .uuid(uuid))
        case .null: return Resolved(leaf: .null)
        case .nilObject, .classEntry, .object, .array, .set, .dictionary, .url: return .none
        }
    }

    /// A container from its resolved members: measured first (the budget
    /// checked before anything is built), then built, or nil when a member is
    /// no userInfo value or the container breaks a rule of its class.
    private func build(_ frame: Frame) throws(UserInfoError) -> Resolved {
        guard frame.resolved.allSatisfy({ $0.value != nil }) else { return .none }
        let members = frame.resolved
        var base = ExpandedSize.node(depth: 0, payload: 0)
        var nodes = 1
        var height = 0
        func addMember(_ member: Resolved) {
            base = ExpandedSize.add(base, ExpandedSize.placed(base: member.base, nodes: member.nodes, depth: 1))
            nodes = ExpandedSize.add(nodes, member.nodes)
        }
        for member in members { height = max(height, member.height + 1) }
        let node = objects[frame.index]
        switch node {
        case .array, .set:
            for member in members { addMember(member) }
        case .dictionary(let keys, _):
            for position in keys.indices {
                // The key, a node one level down, and its value.
                guard case .string(let key)? = members[position].value else { return .none }
                base = ExpandedSize.add(base, ExpandedSize.node(depth: 1, payload: key.utf8.count))
                nodes = ExpandedSize.add(nodes, 1)
                addMember(members[keys.count + position])
            }
        case .url:
            // The relative string is the URL's own payload; its base a member.
            guard case .string(let relative)? = members[0].value else { return .none }
            base = ExpandedSize.add(base, relative.utf8.count)
            if members.count > 1 {
                guard case .url = members[1].value else { return .none }
                addMember(members[1])
            }
        default:
            preconditionFailure("only containers have frames")
        }
        // expansionLimitExceeded: the value, expanded, weighs at most the budget.
        guard base <= budget else {
            throw UserInfoError(.expansionLimitExceeded, "the value expands past \(budget) bytes (the budget for its input)", objectIndex: frame.index)
        }
        let value: UserInfoValue?
        switch node {
        case .array:
            value = .array(members.map { $0.value! })
        case .set:
            var set = UserInfoSet()
            for member in members where !set.insert(member.value!) { return .none }
            value = .set(set)
        case .dictionary(let keys, _):
            var dictionary = UserInfoDictionary(minimumCapacity: keys.count)
            for position in keys.indices {
                guard case .string(let key)? = members[position].value,
                      dictionary.insertNew(members[keys.count + position].value!, forKey: key) else { return .none }
            }
            value = .dictionary(dictionary)
        case .url:
            guard case .string(let relative)? = members[0].value else { return .none }
            if members.count > 1, case .url(let baseURL)? = members[1].value {
                value = .url(UserInfoURL(relative: relative, base: baseURL))
            } else {
                value = .url(UserInfoURL(relative: relative))
            }
        default:
            value = nil
        }
        return Resolved(value: value, base: base, nodes: nodes, height: height)
    }
}
