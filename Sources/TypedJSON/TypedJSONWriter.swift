public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Writes the typed JSON form: a lossless text form of userInfo values and
/// of property lists, where every value is a JSON object with a `type` and,
/// for most types, a `value`. See `Specs/typed-json.md`.
///
/// ```json
/// {"type":"dict","value":{"id":{"type":"uuid","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}}
/// ```
///
/// Output is deterministic: object keys in UTF-16 order, set members in
/// canonical order (Specs/userinfo-value.md, "Sets").
public struct TypedJSONWriter: Sendable {
    /// Indent nested values (two spaces per level) instead of writing one line.
    public var pretty: Bool
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger, expanded, than a reader with the same limits reads.
    public var limits: WriterLimits

    /// Creates a writer.
    public init(pretty: Bool = false, limits: WriterLimits = .default) {
        self.pretty = pretty
        self.limits = limits
    }

    /// The typed JSON of a userInfo value, as UTF-8.
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/depthLimitExceeded`` or
    ///   ``ErrorCode/expansionLimitExceeded`` with the key path, or
    ///   ``ErrorCode/invalidLimits``.
    public func write(_ value: UserInfoValue) throws(PropertyListError) -> Data {
        try emit { $0.emit(value, indent: 0) }
    }

    /// The typed JSON of a property-list value (UIDs as `uid`, the binary null as `null`).
    ///
    /// - Throws: as ``write(_:)-(UserInfoValue)``.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        try emit { $0.emit(value, indent: 0) }
    }

    /// The text `body` writes, as UTF-8, or the first limit it passed.
    private func emit(_ body: (inout TypedJSONEmitter) -> Void) throws(PropertyListError) -> Data {
        try limits.validate()
        var emitter = TypedJSONEmitter(pretty: pretty, limits: limits)
        body(&emitter)
        if let failure = emitter.failure { throw failure }
        let bytes = Data(emitter.text.utf8)
        try emitter.meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }

    /// The compact typed JSON text of a userInfo value, for messages and
    /// tests: bounded by the deepest nesting any reader supports, past which
    /// the text says so instead of going deeper.
    public static func text(_ value: UserInfoValue) -> String {
        var emitter = TypedJSONEmitter(pretty: false, limits: WriterLimits(maxDepth: PropertyListLimits.maxSupportedDepth, maxExpandedBytes: .max))
        emitter.emit(value, indent: 0)
        if let failure = emitter.failure { return "<\(failure.reason)>" }
        return emitter.text
    }
}

/// Writes typed JSON into `text`, depth first. The first limit passed is kept
/// in `failure`, with its key path, and nothing more is written.
struct TypedJSONEmitter {
    let pretty: Bool
    let limits: WriterLimits
    var text = ""
    var failure: PropertyListError?
    private(set) var meter: ExpansionMeter
    /// The key path of the value being written.
    private var path: [PropertyListKeyPath.Component] = []

    init(pretty: Bool, limits: WriterLimits) {
        self.pretty = pretty
        self.limits = limits
        meter = ExpansionMeter(limit: limits.maxExpandedBytes)
    }

    /// Charges one node; false (and `failure` set) when a limit is passed or was before.
    private mutating func enter(payload: Int, container: Bool) -> Bool {
        guard failure == nil else { return false }
        do throws(PropertyListError) {
            try meter.charge(depth: path.count, payload: payload)
            // depthLimitExceeded: never deeper than the reader reads.
            if container, path.count >= limits.maxDepth {
                throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)")
            }
        } catch {
            var located = error
            located.keyPath = PropertyListKeyPath(path)
            failure = located
            return false
        }
        return true
    }

    mutating func emit(_ value: UserInfoValue, indent: Int) {
        if let scalar = value.propertyListScalar { return emit(scalar, indent: indent) }
        switch value {
        case .null:
            guard enter(payload: 0, container: false) else { return }
            text += #"{"type":"null"}"#
        case .uuid(let uuid):
            guard enter(payload: 16, container: false) else { return }
            scalar("uuid") { $0 += "\"\(uuid.uuidString.uppercased())\"" }
        case .url(let url):
            guard enter(payload: url.relative.utf8.count, container: false) else { return }
            emitURL(url)
        case .array(let elements):
            guard enter(payload: 0, container: true) else { return }
            list("array", elements.count, indent: indent) { emitter, position, inner in emitter.emit(elements[position], indent: inner) }
        case .set(let set):
            guard enter(payload: 0, container: true) else { return }
            let members = set.canonicalMembers
            list("set", members.count, indent: indent) { emitter, position, inner in emitter.emit(members[position], indent: inner) }
        case .dictionary(let dictionary):
            guard enter(payload: 0, container: true) else { return }
            let keys = dictionary.sortedKeys
            object(keys, indent: indent) { emitter, key, inner in emitter.emit(dictionary[key]!, indent: inner) }
        case .string, .number, .data, .date: preconditionFailure("a property-list scalar")
        }
    }

    mutating func emit(_ value: PropertyListValue, indent: Int) {
        let isContainer: Bool
        switch value {
        case .array, .dictionary: isContainer = true
        default: isContainer = false
        }
        guard enter(payload: value.payloadBytes, container: isContainer) else { return }
        switch value {
        case .string(let string): scalar("string") { JSONText.appendQuoted(string, to: &$0) }
        case .integer(let integer): scalar("integer") { $0 += "\"\(integer)\"" }
        case .real(let real): scalar("real") { $0 += "\"\(TypedJSONText.real(real))\"" }
        case .bool(let flag): scalar("bool") { $0 += flag ? "true" : "false" }
        case .date(let date): scalar("date") { $0 += "\"\(TypedJSONText.date(date))\"" }
        case .data(let data): scalar("data") { $0 += "\"\(data.base64EncodedString())\"" }
        case .uid(let uid): scalar("uid") { $0 += "\"\(uid)\"" }
        case .null: text += #"{"type":"null"}"#
        case .array(let elements):
            list("array", elements.count, indent: indent) { emitter, position, inner in emitter.emit(elements[position], indent: inner) }
        case .dictionary(let dictionary):
            let keys = dictionary.sortedKeys
            object(keys, indent: indent) { emitter, key, inner in emitter.emit(dictionary[key]!, indent: inner) }
        }
    }

    private mutating func emitURL(_ url: UserInfoURL) {
        text += #"{"type":"url","relative":"#
        JSONText.appendQuoted(url.relative, to: &text)
        text += #","base":"#
        if let base = url.base { emitURL(base) } else { text += "null" }
        text += "}"
    }

    private mutating func scalar(_ type: String, _ value: (inout String) -> Void) {
        text += #"{"type":""# + type + #"","value":"#
        value(&text)
        text += "}"
    }

    private mutating func list(_ type: String, _ count: Int, indent: Int, _ element: (inout TypedJSONEmitter, Int, Int) -> Void) {
        text += #"{"type":""# + type + #"","value":["#
        for position in 0..<count {
            guard failure == nil else { return }
            if position > 0 { text += "," }
            newline(indent + 1)
            path.append(.index(position))
            element(&self, position, indent + 1)
            path.removeLast()
        }
        if count > 0 { newline(indent) }
        text += "]}"
    }

    private mutating func object(_ keys: [String], indent: Int, _ member: (inout TypedJSONEmitter, String, Int) -> Void) {
        text += #"{"type":"dict","value":{"#
        for (position, key) in keys.enumerated() {
            guard failure == nil else { return }
            if position > 0 { text += "," }
            newline(indent + 1)
            JSONText.appendQuoted(key, to: &text)
            text += pretty ? ": " : ":"
            path.append(.key(key))
            guard enter(payload: key.utf8.count, container: false) else { return }
            member(&self, key, indent + 1)
            path.removeLast()
        }
        if !keys.isEmpty { newline(indent) }
        text += "}}"
    }

    private mutating func newline(_ indent: Int) {
        guard pretty else { return }
        text += "\n" + String(repeating: "  ", count: indent)
    }
}

/// The text forms of reals and dates in typed JSON (Specs/typed-json.md).
enum TypedJSONText {
    /// Shortest decimal that reads back to the same double; `nan`, `inf`, `-inf`.
    static func real(_ real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-inf" : "inf" }
        return real.description
    }

    /// ISO 8601 (`CivilTime.iso8601`). A date outside `PropertyListValue.dateRange`,
    /// which no reader accepts and every other writer refuses (`invalidDate`),
    /// is written as `out of range: <seconds> s`, which the typed-JSON reader
    /// refuses too.
    static func date(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        return CivilTime.iso8601(secondsSinceReference: seconds) ?? "out of range: \(seconds) s"
    }
}
