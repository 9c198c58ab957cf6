public import FoundationEssentials
public import PropertyList

/// Writes the typed JSON form: a lossless text form of userInfo values and
/// of property lists, where every value is a JSON object with a `type` and,
/// for most types, a `value`. See `Specs/typed-json.md`.
///
/// ```json
/// {"type":"dict","value":{"id":{"type":"uuid","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}}
/// ```
///
/// Output is deterministic: object keys in UTF-16 order, set members in
/// the order of their compact typed-JSON text.
public struct TypedJSONWriter: Sendable {
    /// Indent nested values (two spaces per level) instead of writing one line.
    public var pretty: Bool

    /// Creates a writer.
    public init(pretty: Bool = false) { self.pretty = pretty }

    /// The typed JSON of a userInfo value, as UTF-8.
    public func write(_ value: UserInfoValue) -> Data {
        var emitter = TypedJSONEmitter(pretty: pretty)
        emitter.emit(value, indent: 0)
        return Data(emitter.text.utf8)
    }

    /// The typed JSON of a property-list value (UIDs as `uid`, the binary null as `null`).
    public func write(_ value: PropertyListValue) -> Data {
        var emitter = TypedJSONEmitter(pretty: pretty)
        emitter.emit(value, indent: 0)
        return Data(emitter.text.utf8)
    }

    /// The compact typed JSON text of a userInfo value.
    public static func text(_ value: UserInfoValue) -> String {
        var emitter = TypedJSONEmitter(pretty: false)
        emitter.emit(value, indent: 0)
        return emitter.text
    }
}

struct TypedJSONEmitter {
    let pretty: Bool
    var text = ""

    mutating func emit(_ value: UserInfoValue, indent: Int) {
        switch value {
        case .string(let string): scalar("string") { PlainJSONWriter.appendQuoted(string, to: &$0) }
        case .number(.integer(let integer)): scalar("integer") { $0 += "\"\(integer)\"" }
        case .number(.real(let real)): scalar("real") { $0 += "\"\(TypedJSONText.real(real))\"" }
        case .number(.bool(let flag)): scalar("bool") { $0 += flag ? "true" : "false" }
        case .date(let date): scalar("date") { $0 += "\"\(TypedJSONText.date(date))\"" }
        case .data(let data): scalar("data") { $0 += "\"\(data.base64EncodedString())\"" }
        case .null: text += #"{"type":"null"}"#
        case .uuid(let uuid): scalar("uuid") { $0 += "\"\(uuid.uuidString.uppercased())\"" }
        case .url(let url): emitURL(url)
        case .array(let elements):
            list("array", elements.count, indent: indent) { emitter, position, inner in emitter.emit(elements[position], indent: inner) }
        case .set(let set):
            let members = CanonicalOrder.sorted(set)
            list("set", members.count, indent: indent) { emitter, position, inner in emitter.emit(members[position], indent: inner) }
        case .dictionary(let dictionary):
            let keys = dictionary.sortedKeys
            object(keys, indent: indent) { emitter, key, inner in emitter.emit(dictionary[key]!, indent: inner) }
        }
    }

    mutating func emit(_ value: PropertyListValue, indent: Int) {
        switch value {
        case .string(let string): scalar("string") { PlainJSONWriter.appendQuoted(string, to: &$0) }
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
        PlainJSONWriter.appendQuoted(url.relative, to: &text)
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
            if position > 0 { text += "," }
            newline(indent + 1)
            element(&self, position, indent + 1)
        }
        if count > 0 { newline(indent) }
        text += "]}"
    }

    private mutating func object(_ keys: [String], indent: Int, _ member: (inout TypedJSONEmitter, String, Int) -> Void) {
        text += #"{"type":"dict","value":{"#
        for (position, key) in keys.enumerated() {
            if position > 0 { text += "," }
            newline(indent + 1)
            PlainJSONWriter.appendQuoted(key, to: &text)
            text += pretty ? ": " : ":"
            member(&self, key, indent + 1)
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

    /// `YYYY-MM-DDTHH:MM:SS[.F]Z` in UTC, with the shortest fraction that reads back
    /// to the same instant (none when the seconds are whole). Years outside
    /// 0000…9999 use ISO 8601's expanded form (`+12345-…`, `-0001-…`).
    /// A date outside `PropertyListValue.dateRange`, which no reader accepts and
    /// every other writer refuses (`invalidDate`), is written as
    /// `out of range: <seconds> s`, which the typed-JSON reader refuses too.
    static func date(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        guard PropertyListValue.isValidDate(seconds) else { return "out of range: \(seconds) s" }
        let (whole, fraction) = ExactDecimal.split(seconds)
        let civil = CivilTime(secondsSinceReference: Double(whole))
        var text = civil.iso8601
        if civil.year > 9999 { text = "+" + text }
        if !fraction.isEmpty { text.insert(contentsOf: "." + fraction, at: text.index(before: text.endIndex)) }
        return text
    }
}

/// Exact decimal digits of a double, from its shortest round-trip form.
enum ExactDecimal {
    /// Splits a finite value into ⌊value⌋ and the decimal digits of value − ⌊value⌋
    /// (empty when zero), exactly as the shortest round-trip decimal of `value` says.
    static func split(_ value: Double) -> (whole: Int64, fraction: String) {
        precondition(value.isFinite)
        let (negative, digits, exponent) = decompose(value)
        // value = ±0.d1d2… × 10^exponent
        var integerDigits = ""
        var fractionDigits = ""
        for (index, digit) in digits.enumerated() {
            if index < exponent { integerDigits.append(digit) } else { fractionDigits.append(digit) }
        }
        if exponent > digits.count { integerDigits += String(repeating: "0", count: exponent - digits.count) }
        if exponent < 0 { fractionDigits = String(repeating: "0", count: -exponent) + fractionDigits }
        while fractionDigits.last == "0" { fractionDigits.removeLast() }
        let integer = Int64(integerDigits.isEmpty ? "0" : integerDigits)!
        if !negative || fractionDigits.isEmpty {
            return (negative ? -integer : integer, fractionDigits)
        }
        // -(I + 0.F) = -(I + 1) + (1 - 0.F)
        return (-integer - 1, complement(fractionDigits))
    }

    /// The digits of 1 − 0.F, with as many digits as F (trailing zeros dropped).
    private static func complement(_ fraction: String) -> String {
        var digits = fraction.map { Int(String($0))! }
        // 10^k - F: subtract from 9…9 and add 1.
        for i in digits.indices { digits[i] = 9 - digits[i] }
        var i = digits.count - 1
        while i >= 0 {
            if digits[i] == 9 { digits[i] = 0; i -= 1 } else { digits[i] += 1; break }
        }
        var text = digits.map(String.init).joined()
        while text.last == "0" { text.removeLast() }
        return text
    }

    /// (sign, significant digits, decimal exponent) with value = ±0.digits × 10^exponent.
    private static func decompose(_ value: Double) -> (Bool, [Character], Int) {
        var text = value.description
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...])!
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = Array(integerPart + fractionPart)
        exponent += integerPart.count
        while digits.first == "0" { digits.removeFirst(); exponent -= 1 }
        while digits.last == "0" { digits.removeLast() }
        if digits.isEmpty { return (false, [], 0) }
        return (negative, digits, exponent)
    }

    /// The double nearest to `whole` + 0.`fraction`, correctly rounded.
    static func join(whole: Int64, fraction: String) -> Double? {
        if fraction.isEmpty { return Double(whole) }
        if whole >= 0 { return Double("\(whole).\(fraction)") }
        // whole + 0.F = -((-whole - 1) + (1 - 0.F))
        let complemented = complement(fraction)
        if complemented.isEmpty { return Double(whole + 1) }
        return Double("-\(-whole - 1).\(complemented)")
    }
}
