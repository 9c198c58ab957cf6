/// Converts one tree into another through the one bounded walk
/// (Specs/architecture.md, "One bounded walk"): with an explicit stack, so
/// that no depth a caller allows can overflow the thread's stack, and each
/// shared object converted once, so that a tree sharing its objects converts
/// into a tree sharing them (never an expanded copy). `leaf` converts a node
/// that is neither an array nor a dictionary (a set, for a target that has
/// none, throws there); `array` and `dictionary` build a container from its
/// converted members. An error thrown by any of them gets the key path from
/// the root to where it happened.
package struct TreeConversion<Source: WalkableValue, Target> {
    package init() {}

    /// The converted tree of `root`.
    package mutating func run<Failure: WalkFailure>(
        _ root: Source,
        leaf: (Source) throws(Failure) -> Target,
        array: ([Target]) throws(Failure) -> Target,
        dictionary: ([String], [Target]) throws(Failure) -> Target
    ) throws(Failure) -> Target {
        // A conversion keeps no budget of its own: its cost is the distinct
        // objects of a value its reader measured already.
        var meter = ExpansionMeter(limit: Int.max)
        return try withoutActuallyEscaping(leaf) { (leaf) throws(Failure) -> Target in
            try withoutActuallyEscaping(array) { (array) throws(Failure) -> Target in
                try withoutActuallyEscaping(dictionary) { (dictionary) throws(Failure) -> Target in
                    var visitor = Converter<Failure>(leaf: leaf, array: array, dictionary: dictionary)
                    try ValueWalk.walk(root, meter: &meter, visitor: &visitor)
                    return visitor.result!
                }
            }
        }
    }

    /// The walk's visitor: converted members collected per open container.
    private struct Converter<Failure: WalkFailure>: ValueVisitor {
        typealias Value = Source
        let leaf: (Source) throws(Failure) -> Target
        let array: ([Target]) throws(Failure) -> Target
        let dictionary: ([String], [Target]) throws(Failure) -> Target
        private var frames: [(keys: [String]?, members: [Target], done: Target?)] = []
        /// Converted containers by storage, each beside its source (which keeps
        /// the storage alive, so no address is reused while the table lives).
        private var converted: [StorageIdentity: (keepAlive: Source, target: Target)] = [:]
        var result: Target?

        init(leaf: @escaping (Source) throws(Failure) -> Target, array: @escaping ([Target]) throws(Failure) -> Target,
             dictionary: @escaping ([String], [Target]) throws(Failure) -> Target) {
            (self.leaf, self.array, self.dictionary) = (leaf, array, dictionary)
        }

        private mutating func deliver(_ target: Target, at place: WalkPlace) {
            guard let last = frames.indices.last else { return result = target }
            frames[last].members.append(target)
            if case .key(let key) = place { frames[last].keys!.append(key) }
        }

        mutating func visit(scalar value: Source, at place: WalkPlace, depth: Int) throws(Failure) {
            deliver(try leaf(value), at: place)
        }

        mutating func enter(_ value: Source, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(Failure) -> Bool {
            if container.kind == .set {
                frames.append((nil, [], try leaf(value)))
                return false
            }
            if let identity = container.identity, let known = converted[identity] {
                frames.append((nil, [], known.target))
                return false
            }
            frames.append((container.kind == .dictionary ? [] : nil, [], nil))
            frames[frames.count - 1].members.reserveCapacity(container.count)
            return true
        }

        mutating func leave(_ value: Source, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(Failure) {
            let frame = frames.removeLast()
            let target: Target
            if let done = frame.done {
                target = done
            } else {
                if let keys = frame.keys { target = try dictionary(keys, frame.members) } else { target = try array(frame.members) }
                if let identity = container.identity { converted[identity] = (value, target) }
            }
            deliver(target, at: place)
        }
    }
}
