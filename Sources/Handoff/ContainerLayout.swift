/// Where a device keeps its iCloud synced containers ("Mobile Documents"),
/// and which containers it has. Translation between layouts is pure string
/// work: nothing here touches the file system. See `Specs/url-translation.md`.
///
/// ```swift
/// let mac = ContainerLayout.macOS(home: "/Users/ada", containers: ["iCloud.com.example.App"])
/// let phone = ContainerLayout.iOS(containers: ["iCloud.com.example.App"])
/// ```
public struct ContainerLayout: Sendable, Hashable {
    /// The absolute directory holding one directory per container, without a trailing slash.
    public let root: String
    /// The container identifiers this device has (`iCloud.com.example.App`,
    /// `com.apple.CloudDocs` for iCloud Drive). Empty means any container
    /// directory under ``root`` (acceptable for a sender, never matching for a receiver).
    public let containers: Set<String>

    /// A layout with a custom root (Linux, tests). A trailing slash is removed;
    /// the root is checked where the layout is used (``validate()``).
    public init(root: String, containers: Set<String> = []) {
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
        self.containers = containers
        isValid = Self.problem(root: trimmed, containers: containers) == nil
        encodedRoot = trimmed == "/" ? [] : Array(PercentEncoding.encodePath(trimmed).utf8)
    }

    /// The root as a file URL's path spells it (``PercentEncoding/encodePath(_:)``;
    /// empty for `/`), made once for the translation of every file URL.
    let encodedRoot: [UInt8]

    /// Whether ``validate()`` passes, found once when the layout is made (a
    /// codec validates its layout on every encode and decode); the reason is
    /// found again when it does not. A flag, not the reason: an optional
    /// string here made every copy of a `ContainerLayout?` go through the
    /// runtime's value witnesses (measured).
    private let isValid: Bool

    /// macOS: `HOME/Library/Mobile Documents` (`HOME` absolute, checked by ``validate()``).
    public static func macOS(home: String, containers: Set<String> = []) -> ContainerLayout {
        // A relative home, the empty one included, gives a relative root, which
        // validate() refuses (`macos:` once mapped containers under /Library).
        guard home.hasPrefix("/") else {
            return ContainerLayout(root: (home.isEmpty ? "." : home) + "/Library/Mobile Documents", containers: containers)
        }
        var trimmed = home
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return ContainerLayout(root: trimmed + "/Library/Mobile Documents", containers: containers)
    }

    /// iOS: `/private/var/mobile/Library/Mobile Documents`.
    public static func iOS(containers: Set<String> = []) -> ContainerLayout {
        ContainerLayout(root: "/private/var/mobile/Library/Mobile Documents", containers: containers)
    }

    /// Parses `macos:HOME`, `ios` or `root:PATH` (the CLI's `--layout` forms);
    /// nil for anything else, or for a root ``validate()`` refuses.
    public static func parse(_ text: String, containers: Set<String> = []) -> ContainerLayout? {
        let layout: ContainerLayout
        if text == "ios" {
            layout = .iOS(containers: containers)
        } else if text.hasPrefix("macos:") {
            layout = .macOS(home: String(text.dropFirst(6)), containers: containers)
        } else if text.hasPrefix("root:") {
            layout = ContainerLayout(root: String(text.dropFirst(5)), containers: containers)
        } else {
            return nil
        }
        return (try? layout.validate()) == nil ? nil : layout
    }

    /// Checks the layout: the root is a normalised absolute path and every
    /// container is a valid identifier (Specs/url-translation.md, "Layouts").
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/invalidLayout``.
    public func validate() throws(PayloadError) {
        if !isValid, let problem = Self.problem(root: root, containers: containers) { throw PayloadError(.invalidLayout, problem) }
    }

    private static func problem(root: String, containers: Set<String>) -> String? {
        // invalidLayout: "/" then components that are neither empty, ".", "..", nor hold a control character.
        guard root.hasPrefix("/") else {
            return "the layout root \"\(root)\" is not an absolute path"
        }
        if root != "/" {
            for component in root.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                guard !component.isEmpty, !component.elementsEqual(".".utf8), !component.elementsEqual("..".utf8) else {
                    return "the layout root \"\(root)\" is not normalised (an empty, \".\" or \"..\" component)"
                }
            }
            guard !root.unicodeScalars.contains(where: URLTranslator.isControl) else {
                return "the layout root \"\(root)\" holds a control character"
            }
        }
        // The first invalid identifier in sorted order, so that the message does not depend on hashing.
        if let invalid = containers.filter({ !isValidIdentifier($0) }).min() {
            return "\"\(invalid)\" is not a container identifier (dot-separated labels of letters, digits, '-', '_')"
        }
        return nil
    }

    /// The directory name of a container: its identifier with `.` replaced by `~`
    /// (`iCloud.com.example.App` → `iCloud~com~example~App`); nil for an invalid identifier.
    public static func directoryName(forIdentifier identifier: String) -> String? {
        guard isValidIdentifier(identifier) else { return nil }
        return String(decoding: identifier.utf8.map { $0 == UInt8(ascii: ".") ? UInt8(ascii: "~") : $0 }, as: UTF8.self)
    }

    /// The identifier of a container directory (`iCloud~com~example~App` → `iCloud.com.example.App`);
    /// nil for a name that no identifier maps to.
    public static func identifier(forDirectoryName name: String) -> String? {
        guard !name.utf8.contains(UInt8(ascii: ".")) else { return nil }
        let identifier = String(decoding: name.utf8.map { $0 == UInt8(ascii: "~") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
        return isValidIdentifier(identifier) ? identifier : nil
    }

    /// Identifiers are dot-separated labels of ASCII letters, digits, `-` and `_`,
    /// with at least two labels and none empty.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        (ReverseDNS.labelCount(identifier) ?? 0) >= 2
    }

    func has(_ identifier: String) -> Bool {
        containers.isEmpty || containers.contains(identifier)
    }

    /// The root's path components (split by bytes, as paths are).
    var rootComponents: [String] { root.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) } }
}
