
/// What one node of a value tree is, as ``ValueWalk`` meets it, before its members.
@_spi(ByteKit) public enum WalkShape: Sendable {
    /// A leaf, and the bytes its payload counts in the expanded size
    /// (``ExpandedSize``: string and URL bytes in UTF-8, data bytes, 16 for a UUID).
    case scalar(payload: Int)
    /// A container: its kind, member count and storage.
    case container(WalkContainer)
}

/// A container's members, as the walk visits them: a dictionary's keys and,
/// in the same order, its values; an array's or a set's members (`keys` nil).
@_spi(ByteKit) public struct WalkMembers<Value> {
    public let keys: [String]?
    public let values: [Value]

    @inlinable public init(keys: [String]?, values: [Value]) {
        self.keys = keys
        self.values = values
    }
}

/// A value tree the bounded walk visits: property lists, userInfo values,
/// the values `diff` compares (Specs/architecture.md, "One bounded walk").
@_spi(ByteKit) public protocol WalkableValue: Sendable {
    /// This node, without its members: found in constant time, so that a
    /// shared object met again costs one step.
    var walkShape: WalkShape { get }
    /// A container's members. `sorted`: dictionary keys in writer order and
    /// set members in canonical order (what `print` shows); otherwise as stored.
    func walkMembers(sorted: Bool) -> WalkMembers<Self>
}

/// The error a visitor throws, which also carries the walk's own refusal
/// (``ErrorCode/expansionLimitExceeded``).
@_spi(ByteKit) public protocol WalkFailure: CodecError {
    init(walking error: PropertyListError)
}

@_spi(ByteKit) extension PropertyListError: WalkFailure {
    public init(walking error: PropertyListError) { self = error }
}

/// Where a node sits in its container.
@_spi(ByteKit) public enum WalkPlace: Sendable, Equatable {
    case root
    case index(Int)
    case key(String)
    /// A set member, by its position in the walk's order.
    case member(Int)

    /// The key-path component, for error messages: a set member by its
    /// position, as an index.
    @inlinable public var component: PropertyListKeyPath.Component? {
        switch self {
        case .root: return nil
        case .index(let index), .member(let index): return .index(index)
        case .key(let key): return .key(key)
        }
    }
}

/// A container the walk enters.
@_spi(ByteKit) public struct WalkContainer: Sendable {
    public enum Kind: Sendable { case array, dictionary, set }
    public let kind: Kind
    /// Its member count.
    public let count: Int
    /// Its storage (arrays and dictionaries as stored): equal identities are
    /// one shared object, which a visitor may resolve once (``ValueVisitor/enter(_:_:at:depth:)``
    /// returning false skips it).
    public let identity: StorageIdentity?

    @inlinable public init(kind: Kind, count: Int, identity: StorageIdentity?) {
        self.kind = kind
        self.count = count
        self.identity = identity
    }
}

/// A consumer of a value tree: what `print`, `diff`, the cost table and every
/// other reader of decoded values implement, instead of walking the tree
/// themselves (Specs/architecture.md, "One bounded walk").
@_spi(ByteKit) public protocol ValueVisitor {
    associatedtype Value: WalkableValue
    associatedtype Failure: WalkFailure

    /// A leaf at `place`, `depth` containers deep.
    mutating func visit(scalar value: Value, at place: WalkPlace, depth: Int) throws(Failure)
    /// A container opens at `place`; return false to skip its members (a
    /// shared object met before), and ``leave(_:_:at:depth:)`` follows at once.
    mutating func enter(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(Failure) -> Bool
    /// The container closes, after its members (or at once, when skipped).
    mutating func leave(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(Failure)
}

/// The one bounded walk (Specs/architecture.md, "One bounded walk"): every
/// consumer of a decoded value visits it through here. The walk keeps its
/// containers on an explicit stack (no depth can overflow the thread's
/// stack), charges every node it visits to an ``ExpansionMeter`` (8 + its
/// depth + its payload, a dictionary key as a node of its own: the readers'
/// measure, Specs/value-model.md, "Expanded size"), and refuses past the
/// meter's budget with ``ErrorCode/expansionLimitExceeded``, at the key path
/// where it stopped. A visitor that resolves a shared object once (skips a
/// container whose ``WalkContainer/identity`` it has met) is charged only
/// for what it visits: its cost is linear in the distinct objects.
@_spi(ByteKit) public enum ValueWalk {
    @usableFromInline struct Frame<Value> {
        @usableFromInline let value: Value
        @usableFromInline let container: WalkContainer
        @usableFromInline let place: WalkPlace
        @usableFromInline let members: [Value]
        @usableFromInline let keys: [String]?
        @usableFromInline var next = 0

        @inlinable init(value: Value, container: WalkContainer, place: WalkPlace, members: [Value], keys: [String]?) {
            (self.value, self.container, self.place, self.members, self.keys) = (value, container, place, members, keys)
        }
    }

    /// Walks `root` in document order, dictionaries' keys and sets' members
    /// `sorted` or as stored, charging `meter` for every node visited.
    ///
    /// - Throws: the visitor's errors, and ``ErrorCode/expansionLimitExceeded``
    ///   (as `V.Failure`) past the meter's budget; with the key path of the
    ///   node where the walk stood.
    @inlinable
    public static func walk<V: ValueVisitor>(_ root: V.Value, sorted: Bool = false, meter: inout ExpansionMeter,
                                              visitor: inout V) throws(V.Failure) {
        var stack: [Frame<V.Value>] = []
        var value = root
        var place = WalkPlace.root
        func located(_ error: V.Failure, _ stack: [Frame<V.Value>]) -> V.Failure {
            var located = error
            let path = stack.compactMap { frame -> PropertyListKeyPath.Component? in
                frame.next == 0 ? nil : memberPlace(frame, frame.next - 1).component
            }
            located.keyPath = PropertyListKeyPath(path + error.keyPath.components)
            return located
        }
        do throws(V.Failure) {
            while true {
                // Visit `value` at `place`, one level below the top frame.
                let depth = stack.count
                switch value.walkShape {
                case .scalar(let payload):
                    try charge(&meter, depth: depth, payload: payload, V.Failure.self)
                    try visitor.visit(scalar: value, at: place, depth: depth)
                case .container(let container):
                    try charge(&meter, depth: depth, payload: 0, V.Failure.self)
                    if try visitor.enter(value, container, at: place, depth: depth), container.count > 0 {
                        let members = value.walkMembers(sorted: sorted)
                        stack.append(Frame(value: value, container: container, place: place, members: members.values, keys: members.keys))
                    } else {
                        try visitor.leave(value, container, at: place, depth: depth)
                    }
                }
                // The next member of the innermost open container, closing those that are done.
                while let last = stack.indices.last, stack[last].next == stack[last].members.count {
                    let frame = stack.removeLast()
                    try visitor.leave(frame.value, frame.container, at: frame.place, depth: stack.count)
                }
                guard let last = stack.indices.last else { return }
                let position = stack[last].next
                stack[last].next += 1
                place = memberPlace(stack[last], position)
                if let keys = stack[last].keys {
                    // The key: a node one level below its dictionary, as the readers count it.
                    try charge(&meter, depth: stack.count, payload: keys[position].utf8.count, V.Failure.self)
                }
                value = stack[last].members[position]
            }
        } catch {
            throw located(error, stack)
        }
    }

    /// The expanded size of `root`, walked whole: ``ErrorCode/expansionLimitExceeded``
    /// past `budget` (the check every value built outside a reader needs
    /// before it is printed or written).
    public static func expandedSize<Value: WalkableValue>(of root: Value, budget: Int) throws(PropertyListError) -> Int {
        var meter = ExpansionMeter(limit: budget)
        var counter = NodeCounter<Value>()
        try walk(root, meter: &meter, visitor: &counter)
        return meter.charged
    }

    @inlinable @inline(__always)
    static func memberPlace<Value>(_ frame: Frame<Value>, _ position: Int) -> WalkPlace {
        switch frame.container.kind {
        case .array: return .index(position)
        case .dictionary: return .key(frame.keys![position])
        case .set: return .member(position)
        }
    }

    @inlinable @inline(__always)
    static func charge<Failure: WalkFailure>(_ meter: inout ExpansionMeter, depth: Int, payload: Int, _: Failure.Type) throws(Failure) {
        do { try meter.charge(depth: depth, payload: payload) } catch { throw Failure(walking: error) }
    }

    /// A visitor that only lets the walk measure.
    private struct NodeCounter<Value: WalkableValue>: ValueVisitor {
        typealias Failure = PropertyListError
        mutating func visit(scalar value: Value, at place: WalkPlace, depth: Int) {}
        mutating func enter(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool { true }
        mutating func leave(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) {}
    }
}
