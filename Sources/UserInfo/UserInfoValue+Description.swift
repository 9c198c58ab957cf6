@_spi(ByteKit) public import PropertyList
import FoundationEssentials

/// A readable tree in the shape of `plutil -p` (see `Specs/plistkit.md`,
/// "print"), with the four non-plist types shown as `<null>`,
/// `<uuid …>`, `<url "…" relative to "…">` and `set { … }`. Rendered through
/// the one bounded walk (``ReadableText``), with no bound: `plistkit print`
/// renders the same text within its input's budget.
extension UserInfoValue: CustomStringConvertible {
    public var description: String { ReadableText.unbounded(self, .tree) }
}

@_spi(ByteKit) extension UserInfoValue: WalkableValue {
    @inlinable public var walkShape: WalkShape {
        switch self {
        case .array(let elements): return .container(WalkContainer(kind: .array, count: elements.count, identity: StorageIdentity(elements)))
        case .dictionary(let dictionary): return .container(dictionary.walkContainer)
        case .set(let set): return .container(WalkContainer(kind: .set, count: set.count, identity: nil))
        case .url(let url): return .scalar(payload: Self.urlPayload(url))
        default: return .scalar(payload: payloadBytes)
        }
    }

    public func walkMembers(sorted: Bool) -> WalkMembers<UserInfoValue> {
        switch self {
        case .array(let elements): return WalkMembers(keys: nil, values: elements)
        case .dictionary(let dictionary): return dictionary.walkMembers(sorted: sorted)
        case .set(let set): return WalkMembers(keys: nil, values: sorted ? set.canonicalMembers : set.members)
        default: return WalkMembers(keys: nil, values: [])
        }
    }

    /// A URL and its chain of bases as one node: each base a node of its own
    /// in the expanded size (its 8, the levels below the URL, its relative string).
    @usableFromInline static func urlPayload(_ url: UserInfoURL) -> Int {
        var total = url.relative.utf8.count
        var level = 0
        var next = url.base
        while let base = next {
            level += 1
            total = ExpandedSize.add(total, ExpandedSize.node(depth: level, payload: base.relative.utf8.count))
            next = base.base
        }
        return total
    }
}

@_spi(ByteKit) extension UserInfoValue: ReadableValue {
    public func appendReadableScalar(_ style: ReadableStyle, to out: inout String) {
        switch self {
        case .string(let string): JSONText.appendReadableQuoted(string, to: &out)
        case .number(.integer(let integer)): out += integer.description
        case .number(.real(let real)): out += real.description
        case .number(.bool(let flag)): out += flag ? "true" : "false"
        case .date(let date): PropertyListValue.appendDate(date, style, to: &out)
        case .data(let data): PropertyListValue.appendData(data, style, to: &out)
        case .null: out += style == .tree ? "<null>" : "null"
        case .uuid(let uuid): out += style == .tree ? "<uuid \(uuid.uuidString.uppercased())>" : "uuid(\(uuid.uuidString))"
        case .url(let url):
            switch style {
            case .tree:
                out += "<url "
                Self.appendTreeURL(url, to: &out)
                out += ">"
            case .line: Self.appendLineURL(url, to: &out)
            }
        case .array, .dictionary, .set: preconditionFailure("containers are walked")
        }
    }

    /// `"relative" relative to "base" relative to …`.
    private static func appendTreeURL(_ url: UserInfoURL, to out: inout String) {
        JSONText.appendReadableQuoted(url.relative, to: &out)
        var next = url.base
        while let base = next {
            out += " relative to "
            JSONText.appendReadableQuoted(base.relative, to: &out)
            next = base.base
        }
    }

    /// `url("relative", base: url("base"))`.
    private static func appendLineURL(_ url: UserInfoURL, to out: inout String) {
        var depth = 0
        var next: UserInfoURL? = url
        while let current = next {
            if depth > 0 { out += ", base: " }
            out += "url("
            JSONText.appendReadableQuoted(current.relative, to: &out)
            depth += 1
            next = current.base
        }
        out += String(repeating: ")", count: depth)
    }
}

@_spi(ByteKit) extension UserInfoError: WalkFailure {
    public init(walking error: PropertyListError) { self.init(error) }
}
