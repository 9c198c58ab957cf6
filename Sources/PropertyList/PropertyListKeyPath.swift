/// Where a value sits inside a property list: the chain of dictionary keys
/// and array indices from the root, printed as `items[3].name`.
///
/// Keys that are empty or contain `.`, `[`, `]`, `"`, `\` or whitespace are
/// printed quoted in brackets (`["com.example.version"]`), so every printed
/// path reads back to exactly one place. See `Specs/value-model.md`, "Key paths".
public struct PropertyListKeyPath: Sendable, Hashable, CustomStringConvertible {
    /// One step from a container to one of its members.
    public enum Component: Sendable, Hashable {
        /// The value under a dictionary key.
        case key(String)
        /// The element at an array (or set) position.
        case index(Int)
    }

    /// The steps from the root, outermost first; empty for the root itself.
    public var components: [Component]

    /// Creates a key path from its components, outermost first.
    public init(_ components: [Component] = []) { self.components = components }

    /// The path of the root value.
    public static let root = PropertyListKeyPath()

    /// True for the root value's path.
    public var isRoot: Bool { components.isEmpty }

    /// Returns this path with `component` added at the outer end.
    /// Decoders build paths inside-out while an error travels up.
    public func prepending(_ component: Component) -> PropertyListKeyPath {
        PropertyListKeyPath([component] + components)
    }

    /// Returns this path with `component` added at the inner end.
    public func appending(_ component: Component) -> PropertyListKeyPath {
        PropertyListKeyPath(components + [component])
    }

    /// The printed path, such as `items[3].name`; `(root)` for the root.
    public var description: String {
        if components.isEmpty { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.printsBare(key) {
                    if !text.isEmpty { text += "." }
                    text += key
                } else {
                    text += "[" + Self.quoted(key) + "]"
                }
            }
        }
        return text
    }

    private static func printsBare(_ key: String) -> Bool {
        guard !key.isEmpty else { return false }
        for scalar in key.unicodeScalars {
            switch scalar {
            case ".", "[", "]", "\"", "\\": return false
            default:
                if scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F { return false }
            }
        }
        return true
    }

    /// A JSON string literal, so that any key reads back unambiguously.
    private static func quoted(_ key: String) -> String {
        var text = ""
        JSONText.appendQuoted(key, to: &text)
        return text
    }
}
