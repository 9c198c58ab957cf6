/// Converts one tree into another with an explicit stack, so that no depth a
/// caller allows can overflow the thread's stack (Specs/architecture.md, "One
/// stack policy"). `classify` says what each source node is (a finished
/// leaf, or a container and its children, in order), `finish` builds a
/// container from its converted children. An error thrown by either gets
/// the key path from the root to where it happened.
package struct TreeConversion<Source, Target> {
    /// What a source node is.
    package enum Node {
        /// A node converted without children.
        case leaf(Target)
        /// An array of children.
        case array([Source])
        /// A dictionary: its keys and, in the same order, its values.
        case dictionary([String], [Source])
    }

    private struct Frame {
        let keys: [String]?
        let children: [Source]
        var results: [Target]
    }

    private var stack: [Frame] = []

    package init() {}

    /// The converted tree of `root`.
    package mutating func run<Failure: CodecError>(
        _ root: Source,
        classify: (Source) throws(Failure) -> Node,
        array: ([Target]) throws(Failure) -> Target,
        dictionary: ([String], [Target]) throws(Failure) -> Target
    ) throws(Failure) -> Target {
        stack.removeAll(keepingCapacity: true)
        var next = root
        while true {
            var value: Target
            let node: Node
            do { node = try classify(next) } catch { throw located(error) }
            switch node {
            case .leaf(let leaf):
                value = leaf
            case .array(let children) where !children.isEmpty:
                stack.append(Frame(keys: nil, children: children, results: []))
                stack[stack.count - 1].results.reserveCapacity(children.count)
                next = children[0]
                continue
            case .dictionary(let keys, let children) where !children.isEmpty:
                stack.append(Frame(keys: keys, children: children, results: []))
                stack[stack.count - 1].results.reserveCapacity(children.count)
                next = children[0]
                continue
            case .array:
                do { value = try array([]) } catch { throw located(error) }
            case .dictionary:
                do { value = try dictionary([], []) } catch { throw located(error) }
            }
            // Hand the value up until a container still has children to convert.
            while let last = stack.indices.last {
                stack[last].results.append(value)
                let done = stack[last].results.count
                if done < stack[last].children.count {
                    next = stack[last].children[done]
                    break
                }
                let frame = stack.removeLast()
                do {
                    if let keys = frame.keys { value = try dictionary(keys, frame.results) } else { value = try array(frame.results) }
                } catch {
                    throw located(error)
                }
            }
            if stack.isEmpty { return value }
        }
    }

    /// `error` with the path from the root to the node being converted in front of its own.
    private func located<Failure: CodecError>(_ error: Failure) -> Failure {
        var located = error
        var components: [PropertyListKeyPath.Component] = []
        components.reserveCapacity(stack.count + error.keyPath.components.count)
        for frame in stack {
            let position = frame.results.count
            components.append(frame.keys.map { .key($0[position]) } ?? .index(position))
        }
        located.keyPath = PropertyListKeyPath(components + error.keyPath.components)
        return located
    }
}
