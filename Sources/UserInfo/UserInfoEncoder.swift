import FoundationEssentials
public import PropertyList

/// Encodes `Encodable` values as userInfo values: the Swift side of a
/// Handoff payload.
///
/// Mapping (see `Specs/codable.md`): integers of every width to `.number(.integer)`
/// (exact, including `UInt64`; `Int128` values outside the range are refused),
/// `Float`/`Double` to `.number(.real)`, `Bool` to `.number(.bool)`, `String`,
/// `Date` to `.date`, `Data` to `.data`, `UUID` to `.uuid`, `URL` to `.url`
/// (relative string and base kept), `Set` to `.set`, keyed containers to
/// `.dictionary`, unkeyed to `.array`, and `nil` to `.null` when
/// ``nilEncodingStrategy`` is `.null` (by default absent keys stay absent).
/// Errors are `EncodingError`s carrying the coding path.
///
/// ```swift
/// struct State: Codable { var page: Int; var document: URL; var selection: Set<UUID> }
/// let userInfo = try UserInfoEncoder().encode(state)
/// ```
public struct UserInfoEncoder: Sendable {
    /// How `nil` optionals are written.
    public enum NilEncodingStrategy: Sendable {
        /// Keys whose value is nil are left out (as `JSONEncoder` does). Default.
        case omit
        /// Keys whose value is nil get `NSNull`.
        case null
    }

    /// How `Date` values are written.
    public enum DateEncodingStrategy: Sendable {
        /// As `NSDate` (`.date`). Default.
        case date
        /// As a real number of seconds since 1970-01-01.
        case secondsSince1970
        /// As a real number of milliseconds since 1970-01-01.
        case millisecondsSince1970
        /// As an ISO 8601 string (`YYYY-MM-DDTHH:MM:SSZ`, fractions when present).
        case iso8601
    }

    /// How `Data` values are written.
    public enum DataEncodingStrategy: Sendable {
        /// As `NSData` (`.data`). Default.
        case data
        /// As a base64 string.
        case base64
    }

    /// How coding keys become dictionary keys.
    public enum KeyEncodingStrategy: Sendable {
        /// The keys as declared. Default.
        case useDefaultKeys
        /// `camelCase` keys become `snake_case`.
        case convertToSnakeCase
    }

    public var nilEncodingStrategy: NilEncodingStrategy = .omit
    public var dateEncodingStrategy: DateEncodingStrategy = .date
    public var dataEncodingStrategy: DataEncodingStrategy = .data
    public var keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys
    /// Values handed to `Encodable` implementations as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with the default strategies.
    public init() {}

    /// Encodes `value` as a userInfo value.
    ///
    /// - Throws: `EncodingError.invalidValue` with the coding path, for a value
    ///   that has no userInfo form (a non-finite date, an integer out of range,
    ///   a set whose members encode equal, or a type that encodes nothing).
    public func encode<T: Encodable>(_ value: T) throws -> UserInfoValue {
        let encoder = UserInfoEncoding(options: self, codingPath: [])
        return try encoder.box(value, codingPath: [])
    }

    /// Encodes `value`, which must encode as a keyed container, as the entries of a userInfo.
    public func encodeDictionary<T: Encodable>(_ value: T) throws -> UserInfoDictionary {
        guard case .dictionary(let dictionary) = try encode(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "a userInfo is a dictionary: \(T.self) did not encode as one"))
        }
        return dictionary
    }
}

/// The shared state of one encoding: a tree of references filled in as containers are used.
final class EncodingNode {
    enum Content {
        case empty
        case value(UserInfoValue)
        case keyed([(String, EncodingNode)])
        case unkeyed([EncodingNode])
    }
    var content: Content = .empty

    func resolve(codingPath: [any CodingKey]) throws -> UserInfoValue? {
        switch content {
        case .empty: return nil
        case .value(let value): return value
        case .keyed(let entries):
            var dictionary = UserInfoDictionary(minimumCapacity: entries.count)
            for (key, node) in entries {
                guard let value = try node.resolve(codingPath: codingPath + [AnyCodingKey(key)]) else { continue }
                // Two coding keys mapping to one dictionary key (e.g. after snake_case).
                guard dictionary.insertNew(value, forKey: key) else {
                    throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "two values for the key \"\(key)\""))
                }
            }
            return .dictionary(dictionary)
        case .unkeyed(let elements):
            var array: [UserInfoValue] = []
            array.reserveCapacity(elements.count)
            for (position, node) in elements.enumerated() {
                array.append(try node.resolve(codingPath: codingPath + [AnyCodingKey(position)]) ?? .null)
            }
            return .array(array)
        }
    }
}

/// A coding key made from a string or an index.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) { stringValue = string; intValue = nil }
    init(_ index: Int) { stringValue = "Index \(index)"; intValue = index }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}

/// Marks `Set` so the encoder writes `.set` rather than an array.
protocol SetEncodable {
    func encodeMembers(_ encode: (any Encodable) throws -> UserInfoValue) throws -> [UserInfoValue]
}

extension Set: SetEncodable where Element: Encodable {
    func encodeMembers(_ encode: (any Encodable) throws -> UserInfoValue) throws -> [UserInfoValue] {
        try map { try encode($0) }
    }
}

struct UserInfoEncoding: Encoder {
    let options: UserInfoEncoder
    let codingPath: [any CodingKey]
    let node: EncodingNode

    init(options: UserInfoEncoder, codingPath: [any CodingKey], node: EncodingNode = EncodingNode()) {
        self.options = options
        self.codingPath = codingPath
        self.node = node
    }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .empty = node.content { node.content = .keyed([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .empty = node.content { node.content = .unkeyed([]) }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// The userInfo value of an `Encodable`, with the special types mapped directly.
    func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> UserInfoValue {
        switch value {
        case let date as Date: return try boxDate(date, codingPath)
        case let data as Data:
            switch options.dataEncodingStrategy {
            case .data: return .data(data)
            case .base64: return .string(data.base64EncodedString())
            }
        case let uuid as UUID: return .uuid(uuid)
        case let url as URL: return .url(UserInfoURL(url))
        case let set as any SetEncodable:
            var members = UserInfoSet()
            for (position, member) in try set.encodeMembers({ try box($0, codingPath: codingPath + [AnyCodingKey(0)]) }).enumerated() {
                guard members.insert(member) else {
                    throw EncodingError.invalidValue(value, .init(codingPath: codingPath + [AnyCodingKey(position)],
                                                                  debugDescription: "two members of the set encode to the same value"))
                }
            }
            return .set(members)
        case let string as String: return .string(string)
        case let flag as Bool: return .number(.bool(flag))
        default:
            let encoder = UserInfoEncoding(options: options, codingPath: codingPath)
            try value.encode(to: encoder)
            guard let result = try encoder.node.resolve(codingPath: codingPath) else {
                throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(T.self) encoded no value"))
            }
            return result
        }
    }

    func boxDate(_ date: Date, _ codingPath: [any CodingKey]) throws -> UserInfoValue {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else {
            // The seconds, not the Date: FoundationEssentials traps describing a non-finite Date.
            throw EncodingError.invalidValue(seconds, .init(codingPath: codingPath, debugDescription: "a date must be finite, not \(seconds)"))
        }
        switch options.dateEncodingStrategy {
        case .date: return .date(date)
        case .secondsSince1970: return .number(.real(date.timeIntervalSince1970))
        case .millisecondsSince1970: return .number(.real(date.timeIntervalSince1970 * 1000))
        case .iso8601:
            guard let text = ISO8601Text.format(date) else {
                throw EncodingError.invalidValue(seconds, .init(codingPath: codingPath, debugDescription: "an ISO 8601 date must lie within ±10^15 seconds of 2001, not \(seconds)"))
            }
            return .string(text)
        }
    }

    func boxInteger<T: BinaryInteger>(_ value: T, _ codingPath: [any CodingKey]) throws -> UserInfoValue {
        guard let integer = PropertyListInteger(exactly: value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) is outside [-2^63, 2^64)"))
        }
        return .number(.integer(integer))
    }

    func key(_ key: some CodingKey) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.convert(key.stringValue)
        }
    }
}

struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: UserInfoEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: UserInfoValue, for key: Key) {
        child(for: key).content = .value(value)
    }

    private func child(for key: Key) -> EncodingNode {
        guard case .keyed(var entries) = encoder.node.content else { preconditionFailure("keyed container on a non-keyed node") }
        let name = encoder.key(key)
        if let existing = entries.first(where: { $0.0 == name }) { return existing.1 }
        let node = EncodingNode()
        entries.append((name, node))
        encoder.node.content = .keyed(entries)
        return node
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.number(.bool(value)), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.number(.real(value)), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.number(.real(Double(value))), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { set(try encoder.boxInteger(value, codingPath + [key]), for: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.box(value, codingPath: codingPath + [key]), for: key)
    }

    /// Optionals: absent keys stay absent, or become NSNull under `.null`.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.options.nilEncodingStrategy == .null { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }

    private mutating func encodeIfPresentValue<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.options.nilEncodingStrategy == .null { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let node = child(for: key)
        return UserInfoEncoding(options: encoder.options, codingPath: codingPath + [key], node: node).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UserInfoEncoding(options: encoder.options, codingPath: codingPath + [key], node: child(for: key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        UserInfoEncoding(options: encoder.options, codingPath: codingPath + [key], node: child(for: key))
    }
}

struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: UserInfoEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    var count: Int {
        guard case .unkeyed(let elements) = encoder.node.content else { return 0 }
        return elements.count
    }

    private func appendNode() -> EncodingNode {
        guard case .unkeyed(var elements) = encoder.node.content else { preconditionFailure("unkeyed container on another node") }
        let node = EncodingNode()
        elements.append(node)
        encoder.node.content = .unkeyed(elements)
        return node
    }

    private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(count)] }

    mutating func encodeNil() throws { appendNode().content = .value(.null) }
    mutating func encode(_ value: Bool) throws { appendNode().content = .value(.number(.bool(value))) }
    mutating func encode(_ value: String) throws { appendNode().content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { appendNode().content = .value(.number(.real(value))) }
    mutating func encode(_ value: Float) throws { appendNode().content = .value(.number(.real(Double(value)))) }
    mutating func encode(_ value: Int) throws { try integer(value) }
    mutating func encode(_ value: Int8) throws { try integer(value) }
    mutating func encode(_ value: Int16) throws { try integer(value) }
    mutating func encode(_ value: Int32) throws { try integer(value) }
    mutating func encode(_ value: Int64) throws { try integer(value) }
    mutating func encode(_ value: UInt) throws { try integer(value) }
    mutating func encode(_ value: UInt8) throws { try integer(value) }
    mutating func encode(_ value: UInt16) throws { try integer(value) }
    mutating func encode(_ value: UInt32) throws { try integer(value) }
    mutating func encode(_ value: UInt64) throws { try integer(value) }
    mutating func encode(_ value: Int128) throws { try integer(value) }
    mutating func encode(_ value: UInt128) throws { try integer(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        let boxed = try encoder.box(value, codingPath: path)
        appendNode().content = .value(boxed)
    }

    private mutating func integer<T: BinaryInteger>(_ value: T) throws {
        let boxed = try encoder.boxInteger(value, nextPath)
        appendNode().content = .value(boxed)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return UserInfoEncoding(options: encoder.options, codingPath: path, node: appendNode()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return UserInfoEncoding(options: encoder.options, codingPath: path, node: appendNode()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return UserInfoEncoding(options: encoder.options, codingPath: path, node: appendNode())
    }
}

struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: UserInfoEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: UserInfoValue) { encoder.node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.number(.bool(value))) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.number(.real(value))) }
    mutating func encode(_ value: Float) throws { set(.number(.real(Double(value)))) }
    mutating func encode(_ value: Int) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: Int8) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: Int16) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: Int32) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: Int64) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt16) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt32) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt64) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: Int128) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode(_ value: UInt128) throws { set(try encoder.boxInteger(value, codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try encoder.box(value, codingPath: codingPath)) }
}

/// `camelCase` → `snake_case`, as JSONEncoder converts.
enum SnakeCase {
    static func convert(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        var words: [Substring] = []
        var wordStart = key.startIndex
        var index = key.index(after: key.startIndex)
        while index < key.endIndex {
            let character = key[index]
            if character.isUppercase {
                let previous = key[key.index(before: index)]
                let next = key.index(after: index) < key.endIndex ? key[key.index(after: index)] : nil
                if previous.isLowercase || (next?.isLowercase ?? false) && previous.isUppercase {
                    words.append(key[wordStart..<index])
                    wordStart = index
                }
            }
            index = key.index(after: index)
        }
        words.append(key[wordStart...])
        return words.map { $0.lowercased() }.joined(separator: "_")
    }

    /// `snake_case` → `camelCase`, as JSONDecoder converts.
    static func camel(_ key: String) -> String {
        let parts = key.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1, let first = parts.first else { return key }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// ISO 8601 text for the `.iso8601` date strategies: `CivilTime`'s text form
/// (UTC, the shortest exact fraction when there is one).
enum ISO8601Text {
    static func format(_ date: Date) -> String? {
        CivilTime.iso8601(secondsSinceReference: date.timeIntervalSinceReferenceDate)
    }

    static func parse(_ text: String) -> Date? {
        CivilTime.secondsSinceReference(iso8601: text).map(Date.init(timeIntervalSinceReferenceDate:))
    }
}
