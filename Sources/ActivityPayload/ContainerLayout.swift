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

    /// A layout with a custom root (Linux, tests).
    ///
    /// - Precondition: `root` is absolute; a trailing slash is removed.
    public init(root: String, containers: Set<String> = []) {
        precondition(root.hasPrefix("/"), "a layout root is an absolute path")
        var trimmed = root
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.root = trimmed
        self.containers = containers
    }

    /// macOS: `HOME/Library/Mobile Documents`.
    public static func macOS(home: String, containers: Set<String> = []) -> ContainerLayout {
        let trimmed = home.hasSuffix("/") ? String(home.dropLast()) : home
        return ContainerLayout(root: trimmed + "/Library/Mobile Documents", containers: containers)
    }

    /// iOS: `/private/var/mobile/Library/Mobile Documents`.
    public static func iOS(containers: Set<String> = []) -> ContainerLayout {
        ContainerLayout(root: "/private/var/mobile/Library/Mobile Documents", containers: containers)
    }

    /// Parses `macos:HOME`, `ios` or `root:PATH` (the CLI's `--layout` forms).
    public static func parse(_ text: String, containers: Set<String> = []) -> ContainerLayout? {
        if text == "ios" { return .iOS(containers: containers) }
        if text.hasPrefix("macos:"), text.dropFirst(6).hasPrefix("/") { return .macOS(home: String(text.dropFirst(6)), containers: containers) }
        if text.hasPrefix("root:"), text.dropFirst(5).hasPrefix("/") { return ContainerLayout(root: String(text.dropFirst(5)), containers: containers) }
        return nil
    }

    /// The directory name of a container: its identifier with `.` replaced by `~`
    /// (`iCloud.com.example.App` → `iCloud~com~example~App`); nil for an invalid identifier.
    public static func directoryName(forIdentifier identifier: String) -> String? {
        guard isValidIdentifier(identifier) else { return nil }
        return String(identifier.map { $0 == "." ? "~" : $0 })
    }

    /// The identifier of a container directory (`iCloud~com~example~App` → `iCloud.com.example.App`);
    /// nil for a name that no identifier maps to.
    public static func identifier(forDirectoryName name: String) -> String? {
        guard !name.contains(".") else { return nil }
        let identifier = String(name.map { $0 == "~" ? "." : $0 })
        return isValidIdentifier(identifier) ? identifier : nil
    }

    /// Identifiers are dot-separated labels of ASCII letters, digits, `-` and `_`,
    /// with at least two labels and none empty.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        let labels = identifier.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && identifier.utf8.count <= 255 && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
        }
    }

    /// True when this layout accepts `identifier` as one of its containers.
    func has(_ identifier: String) -> Bool {
        containers.isEmpty || containers.contains(identifier)
    }

    /// The root's path components.
    var rootComponents: [Substring] { root.split(separator: "/") }
}
