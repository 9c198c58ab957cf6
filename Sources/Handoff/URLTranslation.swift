import FoundationEssentials
public import UserInfo
@_spi(ByteKit) import PropertyList

/// Which URL schemes a payload may carry besides container references.
public struct URLPolicy: Sendable, Hashable {
    /// Schemes allowed (lower case). Default: `http`, `https`.
    public var allowedSchemes: Set<String>

    /// Schemes refused whatever the allowed list says: they run code or embed content.
    public static let alwaysRefused: Set<String> = ["javascript", "vbscript", "data"]

    /// Creates a policy allowing `http`, `https` and the given schemes.
    public init(allowing schemes: Set<String> = []) {
        allowedSchemes = Set(["http", "https"] + schemes.map { $0.lowercased() })
    }

    func allows(_ scheme: String) -> Bool {
        let lower = scheme.lowercased()
        return !Self.alwaysRefused.contains(lower) && allowedSchemes.contains(lower)
    }
}

/// Translates file URLs in synced containers between devices: outgoing, a
/// file URL inside one of the sender's containers becomes a portable
/// container reference (`icloud-container:IDENTIFIER/relative/path`);
/// incoming, a reference becomes the file URL of the same file in the
/// receiver's container. Everything else is refused with the key path.
/// Pure string work: nothing touches the file system.
/// See `Specs/url-translation.md`.
public struct URLTranslator: Sendable {
    /// The scheme of portable container references.
    public static let referenceScheme = "icloud-container"
    /// Longest decoded relative path accepted, in bytes.
    public static let maxPathBytes = 1024
    /// Longest decoded path component accepted, in bytes.
    public static let maxComponentBytes = 255

    public var policy: URLPolicy

    public init(policy: URLPolicy = URLPolicy()) { self.policy = policy }

    // MARK: Outgoing

    /// Rewrites every URL in `value` for sending from `layout` (nil: this device
    /// has no synced containers, so every file URL is refused).
    public func outgoing(_ value: UserInfoValue, from layout: ContainerLayout?) throws(PayloadError) -> UserInfoValue {
        try layout?.validate()
        let walk = Walk(self, layout)
        return try map(value) { (url) throws(PayloadError) in try walk.translator.outgoingURL(url, walk.layout) } ?? value
    }

    /// Rewrites every URL in a userInfo for sending from `layout`, which the
    /// caller (``PayloadCodec``) validated.
    func outgoing(userInfo: UserInfoDictionary, fromValidated layout: ContainerLayout?) throws(PayloadError) -> UserInfoDictionary {
        let walk = Walk(self, layout)
        return try map(entries: userInfo) { (url) throws(PayloadError) in try walk.translator.outgoingURL(url, walk.layout) } ?? userInfo
    }

    func outgoingURL(_ url: UserInfoURL, _ layout: ContainerLayout?) throws(PayloadError) -> UserInfoURL {
        // A reference already made (by this library or another sender) stays as it is, once checked.
        if let body = Self.referenceBody(url.relative) {
            guard url.base == nil else {
                throw PayloadError(.invalidContainerReference, "a container reference cannot have a base")
            }
            _ = try Self.parseReference(body, url.relative)
            return url
        }
        // A plain file URL (`file:///`, then a plain path in a container) at a glance.
        if url.base == nil, let layout, let path = Self.plainFileURLPath(url.relative),
           let plain = Self.plainReference(forPath: path, layout) {
            return UserInfoURL(relative: plain)
        }
        if let path = try FileURLGrammar.resolvedPath(url) {
            guard let layout else {
                throw PayloadError(.fileOutsideContainer, "\(url.text) is a file URL, and this device has no synced containers")
            }
            return UserInfoURL(relative: try reference(forPath: path, url.text, layout))
        }
        guard let absolute = url.url, let scheme = absolute.scheme?.lowercased() else {
            throw PayloadError(.schemeNotAllowed, "\"\(url.relative)\" is not an absolute URL")
        }
        // schemeNotAllowed: only the policy's schemes travel (javascript:, data: never).
        guard policy.allows(scheme) else {
            throw PayloadError(.schemeNotAllowed, "the scheme \"\(scheme)\" is not allowed in a payload")
        }
        // A base can name a file even when the resolved URL does not: translate it too.
        var translated = url
        if let base = url.base { translated.base = try outgoingURL(base, layout) }
        return translated
    }

    /// The container reference of a file URL's path (percent-encoded, as
    /// ``FileURLGrammar`` read it) inside one of `layout`'s containers.
    func reference(forPath encodedPath: Substring, _ text: String, _ layout: ContainerLayout) throws(PayloadError) -> String {
        if let plain = Self.plainReference(forPath: encodedPath, layout) { return plain }
        return try generalReference(forPath: encodedPath, text, layout)
    }

    /// The reference of a path the rules accept at a glance, or nil for any
    /// other (the full rules decide, with their errors): the layout's root
    /// spelled as ``PercentEncoding/encodePath(_:)`` spells it, a container
    /// directory of this layout, then a plain path (``isPlainPath(_:)``),
    /// which the reference carries as it came.
    package static func plainReference(forPath encodedPath: Substring, _ layout: ContainerLayout) -> String? {
        encodedPath.utf8.withContiguousStorageIfAvailable { plainReference(forPath: $0.span, layout) } ?? nil
    }

    private static func plainReference(forPath path: Span<UInt8>, _ layout: ContainerLayout) -> String? {
        let root = layout.encodedRoot
        guard path.count > root.count + 1, path[root.count] == UInt8(ascii: "/") else { return nil }
        for index in root.indices where path[index] != root[index] { return nil }
        // The container directory, its identifier (`~` for `.`), one of this layout's.
        var slash = root.count + 1
        while slash < path.count, path[slash] != UInt8(ascii: "/") { slash += 1 }
        guard slash < path.count else { return nil }
        var reference = Array(referenceScheme.utf8)
        reference.reserveCapacity(reference.count + 1 + path.count - root.count)
        reference.append(UInt8(ascii: ":"))
        let identifierStart = reference.count
        for index in (root.count + 1)..<slash {
            let byte = path[index]
            guard byte != UInt8(ascii: ".") else { return nil }
            reference.append(byte == UInt8(ascii: "~") ? UInt8(ascii: ".") : byte)
        }
        let identifier = String(decoding: reference[identifierStart...], as: UTF8.self)
        guard ContainerLayout.isValidIdentifier(identifier), layout.has(identifier) else { return nil }
        let relative = path.extracting((slash + 1)...)
        guard isPlainPath(relative) else { return nil }
        reference.append(UInt8(ascii: "/"))
        for index in relative.indices { reference.append(relative[index]) }
        return String(decoding: reference, as: UTF8.self)
    }

    /// The path of a file URL string spelled `file:///…` (the path from its
    /// `/`), or nil for any other spelling (the full rules read those).
    static func plainFileURLPath(_ text: String) -> Substring? {
        let prefix = "file:///".utf8
        guard text.utf8.starts(with: prefix) else { return nil }
        return Substring(text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: prefix.count - 1)...])
    }

    /// The container reference of a file URL's path, by the full rules.
    package func generalReference(forPath encodedPath: Substring, _ text: String, _ layout: ContainerLayout) throws(PayloadError) -> String {
        let isDirectory = encodedPath.utf8.last == UInt8(ascii: "/")
        // Normalise: decode each component, drop "." and empty ones, let ".." climb.
        // (Split by bytes: the path is percent-encoded, so every "/" in it separates.)
        var components: [String] = []
        for raw in encodedPath.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            guard let name = PercentEncoding.decode(Substring(raw)) else {
                throw PayloadError(.fileOutsideContainer, "\(text) has a malformed path")
            }
            switch name {
            case ".": continue
            case "..":
                // pathEscapesContainer: ".." above the file-system root.
                guard !components.isEmpty else {
                    throw PayloadError(.pathEscapesContainer, "\(text) climbs above the root")
                }
                components.removeLast()
            default: components.append(name)
            }
        }
        let root = layout.rootComponents
        // fileOutsideContainer: ROOT/CONTAINER/something.
        guard components.count > root.count + 1, zip(components, root).allSatisfy({ $0 == $1 }),
              let identifier = ContainerLayout.identifier(forDirectoryName: components[root.count]), layout.has(identifier) else {
            throw PayloadError(.fileOutsideContainer, "\(text) is not inside a synced container of \(layout.root)")
        }
        let relative = Array(components.dropFirst(root.count + 1))
        for name in relative {
            try Self.checkComponent(name, in: text)
        }
        let path = relative.map(PercentEncoding.encode).joined(separator: "/") + (isDirectory ? "/" : "")
        try Self.checkLength(relative, in: text)
        return "\(Self.referenceScheme):\(identifier)/\(path)"
    }

    // MARK: Incoming

    /// Resolves every container reference in `value` against `layout` (nil: no
    /// containers, so every reference is unknown), refusing raw file URLs,
    /// unknown containers, escapes and disallowed schemes.
    public func incoming(_ value: UserInfoValue, to layout: ContainerLayout?) throws(PayloadError) -> UserInfoValue {
        try layout?.validate()
        let walk = Walk(self, layout)
        return try map(value) { (url) throws(PayloadError) in try walk.translator.incomingURL(url, walk.layout, isBase: false) } ?? value
    }

    /// Resolves every container reference in a userInfo against `layout`,
    /// which the caller (``PayloadCodec``) validated.
    func incoming(userInfo: UserInfoDictionary, toValidated layout: ContainerLayout?) throws(PayloadError) -> UserInfoDictionary {
        let walk = Walk(self, layout)
        return try map(entries: userInfo) { (url) throws(PayloadError) in try walk.translator.incomingURL(url, walk.layout, isBase: false) } ?? userInfo
    }

    func incomingURL(_ url: UserInfoURL, _ layout: ContainerLayout?, isBase: Bool) throws(PayloadError) -> UserInfoURL {
        if let reference = Self.referenceBody(url.relative) {
            // invalidContainerReference: references are absolute and nothing is relative to one.
            guard url.base == nil, !isBase else {
                throw PayloadError(.invalidContainerReference, "a container reference cannot have or be a base")
            }
            return UserInfoURL(relative: try fileURL(forReference: reference, url.relative, layout))
        }
        let base = try url.base.map { (base) throws(PayloadError) in try incomingURL(base, layout, isBase: true) }
        // rawFileURL: the sender's file paths mean nothing here (as our parser reads the scheme).
        guard FileURLGrammar.resolvedScheme(UserInfoURL(relative: url.relative, base: base)) != "file" else {
            throw PayloadError(.rawFileURL, "a raw file URL from the sender (\(url.text)) is refused; send a container reference")
        }
        guard let absolute = UserInfoURL(relative: url.relative, base: base).url, let scheme = absolute.scheme?.lowercased() else {
            throw PayloadError(.schemeNotAllowed, "\"\(url.relative)\" is not an absolute URL")
        }
        // rawFileURL: the same, as Foundation resolves it.
        guard scheme != "file" else {
            throw PayloadError(.rawFileURL, "a raw file URL from the sender (\(absolute.absoluteString)) is refused; send a container reference")
        }
        guard policy.allows(scheme) else {
            throw PayloadError(.schemeNotAllowed, "the scheme \"\(scheme)\" is not allowed in a payload")
        }
        return UserInfoURL(relative: url.relative, base: base)
    }

    /// The part after `icloud-container:` (scheme compared case-insensitively), or nil.
    static func referenceBody(_ text: String) -> Substring? {
        let prefix = referenceScheme + ":"
        guard text.utf8.count >= prefix.utf8.count, text.prefix(prefix.count).lowercased() == prefix else { return nil }
        return text.dropFirst(prefix.count)
    }

    /// The receiver's file URL for a container reference.
    func fileURL(forReference body: Substring, _ text: String, _ layout: ContainerLayout?) throws(PayloadError) -> String {
        if let plain = Self.plainFileURL(forReference: body, layout) { return plain }
        return try generalFileURL(forReference: body, text, layout)
    }

    /// The receiver's file URL for a container reference, by the full rules.
    package func generalFileURL(forReference body: Substring, _ text: String, _ layout: ContainerLayout?) throws(PayloadError) -> String {
        let (identifier, components, isDirectory) = try Self.parseReference(body, text)
        // unknownContainer: only containers the receiver has.
        guard let layout, layout.containers.contains(identifier) else {
            throw PayloadError(.unknownContainer, "the container \(identifier) is not one of this device's")
        }
        let directory = ContainerLayout.directoryName(forIdentifier: identifier)!
        let fullPath = layout.root + "/" + directory + "/" + components.joined(separator: "/") + (isDirectory ? "/" : "")
        return "file://" + PercentEncoding.encodePath(fullPath)
    }

    /// The file URL of a reference whose path the rules accept at a glance,
    /// or nil for any other (the full rules below decide, with their errors):
    /// a known container, then components of unreserved characters and `%20`
    /// (so each decodes to itself with spaces, re-encodes to itself, and holds
    /// no separator, control or escape), none empty, `.` or `..`, within the
    /// lengths. Its file URL is the container directory's, encoded, then the
    /// path as it came (measured: a third of decoding a small payload went to
    /// the general rules).
    package static func plainFileURL(forReference body: Substring, _ layout: ContainerLayout?) -> String? {
        guard let layout, let slash = body.utf8.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let identifier = String(body[..<slash])
        guard layout.containers.contains(identifier), ContainerLayout.isValidIdentifier(identifier),
              let directory = ContainerLayout.directoryName(forIdentifier: identifier) else { return nil }
        let path = body.utf8[body.utf8.index(after: slash)...]
        guard path.withContiguousStorageIfAvailable({ isPlainPath($0.span) }) == true else { return nil }
        return "file://" + PercentEncoding.encodePath(layout.root + "/" + directory + "/") + String(Substring(path))
    }

    /// True when a relative path (components joined by `/`, perhaps ending in
    /// one) is plain: components of unreserved characters and `%20` (each
    /// decodes to itself with spaces and re-encodes to itself, holding no
    /// separator, control or escape), none empty, `.` or `..`, at least one,
    /// within the component and path lengths. The full rules accept such a
    /// path as it is.
    static func isPlainPath(_ path: Span<UInt8>) -> Bool {
        var (components, pathBytes) = (0, 0)
        // The component being read: its decoded length, and whether it is all dots.
        var (length, dots) = (0, true)
        var escape = 0  // bytes of a "%20" still to come
        for index in path.indices {
            let byte = path[index]
            if escape > 0 {
                guard byte == (escape == 2 ? UInt8(ascii: "2") : UInt8(ascii: "0")) else { return false }
                escape -= 1
                continue
            }
            switch byte {
            case UInt8(ascii: "/"):
                guard length > 0, !(dots && length <= 2), length <= maxComponentBytes else { return false }
                (components, pathBytes, length, dots) = (components + 1, pathBytes + length, 0, true)
            case UInt8(ascii: "%"):
                (escape, length, dots) = (2, length + 1, false)
            default:
                guard PercentEncoding.isUnreserved(byte) else { return false }
                (length, dots) = (length + 1, dots && byte == UInt8(ascii: "."))
            }
        }
        guard escape == 0 else { return false }
        if length > 0 {
            // The last component (no "/" after it: a file).
            guard !(dots && length <= 2), length <= maxComponentBytes else { return false }
            (components, pathBytes) = (components + 1, pathBytes + length)
        }
        return components > 0 && pathBytes + components - 1 <= maxPathBytes
    }

    /// Splits and checks a reference's body (after `icloud-container:`): the
    /// identifier, the decoded path components, and whether it names a directory.
    static func parseReference(_ body: Substring, _ text: String) throws(PayloadError) -> (identifier: String, components: [String], isDirectory: Bool) {
        // By bytes: every "/" separates (a combining mark after one does not hide it).
        guard let slash = body.utf8.firstIndex(of: UInt8(ascii: "/")) else {
            throw PayloadError(.invalidContainerReference, "\(text) names no file in its container")
        }
        let identifier = String(body[..<slash])
        guard ContainerLayout.isValidIdentifier(identifier) else {
            throw PayloadError(.invalidContainerReference, "\(text) has an invalid container identifier")
        }
        var path = body[body.utf8.index(after: slash)...]
        let isDirectory = path.utf8.last == UInt8(ascii: "/")
        if isDirectory { path = path[..<path.utf8.index(before: path.endIndex)] }
        // invalidContainerReference: a non-empty path without empty components (no "//", no leading "/").
        guard !path.isEmpty else {
            throw PayloadError(.invalidContainerReference, "\(text) names no file in its container")
        }
        var components: [String] = []
        for bytes in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let raw = Substring(bytes)
            guard !raw.isEmpty else {
                throw PayloadError(.pathEscapesContainer, "\(text) has an empty or absolute path component")
            }
            // Only unreserved characters and %HH escapes, as our writer encodes.
            guard raw.utf8.allSatisfy(PercentEncoding.isUnreservedOrPercent), let name = PercentEncoding.decode(raw) else {
                throw PayloadError(.invalidContainerReference, "\(text) has a malformed percent-encoded component")
            }
            try checkComponent(name, in: text)
            components.append(name)
        }
        try checkLength(components, in: text)
        return (identifier, components, isDirectory)
    }

    /// The rules every decoded path component obeys, on both sides.
    static func checkComponent(_ name: String, in url: String) throws(PayloadError) {
        // pathEscapesContainer: no ".", "..", or separators hidden by encoding.
        guard name != "." && name != ".." else {
            throw PayloadError(.pathEscapesContainer, "\(url) has a \"\(name)\" component")
        }
        // By bytes: a separator followed by a combining mark is one Character, and still a separator.
        guard !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(UInt8(ascii: "\\")) else {
            throw PayloadError(.pathEscapesContainer, "\(url) has a path separator inside a component")
        }
        // invalidContainerReference: no control character (C0 with NUL, DEL, C1), no line
        // or paragraph separator (log and terminal injection), no second layer of encoding.
        guard !name.unicodeScalars.contains(where: Self.isControl) else {
            throw PayloadError(.invalidContainerReference, "\(url) has a control character in a component")
        }
        guard !PercentEncoding.containsEscape(name) else {
            throw PayloadError(.invalidContainerReference, "\(url) is percent-encoded twice")
        }
        guard name.utf8.count <= maxComponentBytes else {
            throw PayloadError(.invalidContainerReference, "\(url) has a component over \(maxComponentBytes) bytes")
        }
    }

    /// C0 controls (NUL included), DEL, C1 controls (U+0080–U+009F), and the line
    /// and paragraph separators U+2028 and U+2029.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    static func checkLength(_ components: [String], in url: String) throws(PayloadError) {
        let bytes = components.reduce(0) { $0 + $1.utf8.count } + max(0, components.count - 1)
        guard bytes <= maxPathBytes else {
            throw PayloadError(.invalidContainerReference, "\(url) has a path over \(maxPathBytes) bytes")
        }
    }

    // MARK: Walking the value

    /// What a walk's transform needs, held once by reference: a closure that
    /// captures the translator and the layout by value copies both (their
    /// sets and strings) at every level of the walk (measured: a fifth of a
    /// Handoff-sized payload's encode).
    private final class Walk {
        let translator: URLTranslator
        let layout: ContainerLayout?
        init(_ translator: URLTranslator, _ layout: ContainerLayout?) { (self.translator, self.layout) = (translator, layout) }
    }

    /// Applies `transform` to every URL in `value` (nested in arrays, sets,
    /// dictionaries), keeping the key path in errors; nil when no URL changed,
    /// so that a subtree without one is neither copied nor rebuilt. Through the
    /// one bounded walk (Specs/architecture.md, "One bounded walk"): a shared
    /// object is translated once and stays shared.
    func map(_ value: UserInfoValue, _ transform: (UserInfoURL) throws(PayloadError) -> UserInfoURL) throws(PayloadError) -> UserInfoValue? {
        // The value was read within its budget; the walk adds none of its own.
        var meter = ExpansionMeter(limit: Int.max)
        return try withoutActuallyEscaping(transform) { (transform) throws(PayloadError) -> UserInfoValue? in
            var mapping = URLMapping(transform: transform)
            try ValueWalk.walk(value, meter: &meter, visitor: &mapping)
            return mapping.result
        }
    }

    /// `map` over a dictionary's values; nil when no URL changed.
    func map(entries dictionary: UserInfoDictionary, _ transform: (UserInfoURL) throws(PayloadError) -> UserInfoURL) throws(PayloadError) -> UserInfoDictionary? {
        guard case .dictionary(let mapped)? = try map(.dictionary(dictionary), transform) else { return nil }
        return mapped
    }
}

/// The walk's visitor of ``URLTranslator/map(_:_:)-(UserInfoValue,_)``: each
/// member's replacement (nil: unchanged) collected per open container; a
/// container is rebuilt only when a member changed, once per storage.
private struct URLMapping: ValueVisitor {
    typealias Value = UserInfoValue
    typealias Failure = PayloadError
    let transform: (UserInfoURL) throws(PayloadError) -> UserInfoURL
    private var frames: [(changed: [(Int, UserInfoValue)], position: Int, known: UserInfoValue??)] = []
    /// Containers mapped before, by storage, beside the value (which keeps the storage alive).
    private var mapped: [StorageIdentity: (keepAlive: UserInfoValue, result: UserInfoValue?)] = [:]
    var result: UserInfoValue?

    init(transform: @escaping (UserInfoURL) throws(PayloadError) -> UserInfoURL) { self.transform = transform }

    private mutating func deliver(_ replacement: UserInfoValue?) {
        guard let last = frames.indices.last else { return result = replacement }
        if let replacement { frames[last].changed.append((frames[last].position, replacement)) }
        frames[last].position += 1
    }

    mutating func visit(scalar value: UserInfoValue, at place: WalkPlace, depth: Int) throws(PayloadError) {
        guard case .url(let url) = value else { return deliver(nil) }
        let translated = try transform(url)
        deliver(translated == url ? nil : .url(translated))
    }

    mutating func enter(_ value: UserInfoValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool {
        if let identity = container.identity, let known = mapped[identity] {
            frames.append(([], 0, .some(known.result)))
            return false
        }
        frames.append(([], 0, nil))
        return true
    }

    mutating func leave(_ value: UserInfoValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PayloadError) {
        let frame = frames.removeLast()
        if let known = frame.known { return deliver(known) }
        var rebuilt: UserInfoValue?
        if !frame.changed.isEmpty {
            switch value {
            case .array(var elements):
                for (position, member) in frame.changed { elements[position] = member }
                rebuilt = .array(elements)
            case .dictionary(var dictionary):
                for (position, member) in frame.changed { dictionary.replaceValue(at: position, with: member) }
                rebuilt = .dictionary(dictionary)
            case .set(let set):
                // Every member is checked; the set is rebuilt only when one changed.
                var members = set.members
                for (position, member) in frame.changed { members[position] = member }
                var result = UserInfoSet()
                for (position, member) in members.enumerated() where !result.insert(member) {
                    throw PayloadError(.invalidEnvelope, "two set members translate to the same URL", keyPath: PropertyListKeyPath([.index(position)]))
                }
                rebuilt = .set(result)
            default:
                preconditionFailure("only containers are entered")
            }
        }
        if let identity = container.identity { mapped[identity] = (value, rebuilt) }
        deliver(rebuilt)
    }
}

/// Percent-encoding for container references and file URLs (RFC 3986).
enum PercentEncoding {
    /// ALPHA / DIGIT / "-" / "." / "_" / "~"
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
    }

    static func isUnreservedOrPercent(_ byte: UInt8) -> Bool { isUnreserved(byte) || byte == 0x25 }

    /// Every byte but the unreserved ones as %HH (upper case).
    static func encode(_ text: String) -> String { encode(text, keepingSlash: false) }

    /// Like `encode`, keeping `/` (every `/` byte: a path's separators).
    static func encodePath(_ path: String) -> String { encode(path, keepingSlash: true) }

    private static func encode(_ text: String, keepingSlash: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(contentsOf: Hex.upper(byte).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes %HH escapes; nil for a malformed escape or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == 0x25 {
                guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// True when `text` holds a `%HH` sequence (a second layer of encoding).
    static func containsEscape(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        // The last two bytes: a %HH ends at the current one.
        var (twoBack, oneBack): (UInt8?, UInt8?) = (nil, nil)
        while let byte = utf8.next() {
            if twoBack == 0x25, let high = oneBack, Hex.value(high) != nil, Hex.value(byte) != nil { return true }
            (twoBack, oneBack) = (oneBack, byte)
        }
        return false
    }
}
