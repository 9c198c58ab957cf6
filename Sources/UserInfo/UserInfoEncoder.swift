package import FoundationEssentials
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
        try UserInfoEncoding(options: self, path: .root).box(value, at: .root)
    }

    /// Encodes `value`, which must encode as a keyed container, as the entries of a userInfo.
    public func encodeDictionary<T: Encodable>(_ value: T) throws -> UserInfoDictionary {
        guard case .dictionary(let dictionary) = try encode(value) else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "a userInfo is a dictionary: \(T.self) did not encode as one"))
        }
        return dictionary
    }
}

/// The coding path of a value being encoded or decoded, kept as links to its parent so
/// that a path is spelled out (an array of keys) only when asked for: by an
/// error, or by an `Encodable` or `Decodable` reading `codingPath`.
@_spi(CodableCore) public indirect enum CodingPathNode {
    case root
    case child(CodingPathNode, any CodingKey)

    @_spi(CodableCore) public var keys: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while case .child(let parent, let key) = node {
            keys.append(key)
            node = parent
        }
        return keys.reversed()
    }

    @inlinable @_spi(CodableCore) public func appending(_ key: any CodingKey) -> CodingPathNode { .child(self, key) }

    /// The keys of `key`'s value under this path.
    @_spi(CodableCore) public func keys(appending key: any CodingKey) -> [any CodingKey] { keys + [key] }
}

/// A keyed container's entries as the `Encodable` writes them: values go
/// straight into the dictionary; a nested container or super encoder leaves a
/// placeholder, filled in when the encoding resolves. A key written twice
/// keeps its last value, as `JSONEncoder` does.
///
/// The storages and encoders are reached only through their own methods, which
/// call out to no `Encodable` while they change a property (a value is boxed
/// before it is stored; resolving reaches other objects): no two accesses to
/// one object overlap, so the dynamic exclusivity check is left out
/// (measured: 8% of encoding the Handoff-sized state).
final class KeyedStorage {
    @exclusivity(unchecked) var entries = UserInfoDictionary()
    /// Placeholders by their position in `entries`.
    @exclusivity(unchecked) var pending: [Int: PendingValue] = [:]

    func set(_ value: UserInfoValue, forKey key: String) {
        let position = entries.updateValue(value, forKey: key)
        if !pending.isEmpty { pending[position] = nil }
    }

    func setPending(_ value: PendingValue, forKey key: String) {
        pending[entries.updateValue(.null, forKey: key)] = value
    }

    func resolve() throws -> UserInfoValue {
        guard !pending.isEmpty else { return .dictionary(entries) }
        var dropped: [String] = []
        // In position order: the first failing placeholder's error, whatever the hash seed.
        for position in pending.keys.sorted() {
            let value = pending[position]!
            if let resolved = try value.resolve() {
                entries.replaceValue(at: position, with: resolved)
            } else {
                // A super encoder that encoded nothing: no entry.
                dropped.append(entries[position].key)
            }
        }
        for key in dropped { entries[key] = nil }
        pending = [:]
        return .dictionary(entries)
    }
}

/// An unkeyed container's elements, with placeholders as in ``KeyedStorage``.
final class UnkeyedStorage {
    @exclusivity(unchecked) var elements: [UserInfoValue] = []
    @exclusivity(unchecked) var pending: [Int: PendingValue] = [:]

    func appendPending(_ value: PendingValue) {
        pending[elements.count] = value
        elements.append(.null)
    }

    func resolve() throws -> UserInfoValue {
        // In position order, as in KeyedStorage.
        for position in pending.keys.sorted() {
            let value = pending[position]!
            // A super encoder that encoded nothing: NSNull keeps the positions.
            elements[position] = try value.resolve() ?? .null
        }
        pending = [:]
        return .array(elements)
    }
}

/// A value whose container is still being written.
enum PendingValue {
    case keyed(KeyedStorage)
    case unkeyed(UnkeyedStorage)
    case encoder(UserInfoEncoding)

    func resolve() throws -> UserInfoValue? {
        switch self {
        case .keyed(let storage): return try storage.resolve()
        case .unkeyed(let storage): return try storage.resolve()
        case .encoder(let encoder): return try encoder.resolve()
        }
    }
}

/// A coding key made from a string or an index.
@_spi(CodableCore) public struct AnyCodingKey: CodingKey {
    /// What the key was made from; its strings are made only when asked for
    /// (a path is built for every array element, and read only in errors).
    private enum Form {
        case string(String)
        case dictionaryKey(String)
        case index(Int)
    }
    private let form: Form

    @_spi(CodableCore) public var stringValue: String {
        switch form {
        case .string(let string), .dictionaryKey(let string): string
        case .index(let index): "Index \(index)"
        }
    }

    @_spi(CodableCore) public var intValue: Int? {
        switch form {
        case .string: nil
        case .dictionaryKey(let string): Int(string)
        case .index(let index): index
        }
    }

    @_spi(CodableCore) public init(_ string: String) { form = .string(string) }
    /// A `[String: V]` entry's key, as the standard library's dictionary key makes it (an integer value when the string is one).
    @_spi(CodableCore) public init(dictionaryKey: String) { form = .dictionaryKey(dictionaryKey) }
    @_spi(CodableCore) public init(_ index: Int) { form = .index(index) }
    @_spi(CodableCore) public init?(stringValue: String) { self.init(stringValue) }
    @_spi(CodableCore) public init?(intValue: Int) { self.init(intValue) }
}

/// Marks `Set` so the encoder writes `.set` rather than an array.
protocol SetEncodable {
    func encodeMembers(_ encode: (any Encodable, Int) throws -> UserInfoValue) throws -> [UserInfoValue]
}

extension Set: SetEncodable where Element: Encodable {
    func encodeMembers(_ encode: (any Encodable, Int) throws -> UserInfoValue) throws -> [UserInfoValue] {
        try enumerated().map { try encode($0.element, $0.offset) }
    }
}

/// The encoder one `Encodable` value writes itself to (Specs/codable.md).
final class UserInfoEncoding: Encoder, CodingPathOwner {
    /// What the value asked for: nothing yet, a single value, or one kind of container.
    enum Content {
        case empty
        case value(UserInfoValue)
        case keyed(KeyedStorage)
        case unkeyed(UnkeyedStorage)
        /// Two kinds of container, or a container and a single value (no userInfo form).
        case conflicting(String)
    }

    let options: UserInfoEncoder
    let path: CodingPathNode
    /// (No dynamic exclusivity check: see ``KeyedStorage``.)
    @exclusivity(unchecked) var content: Content = .empty

    init(options: UserInfoEncoder, path: CodingPathNode) {
        self.options = options
        self.path = path
    }

    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let storage: KeyedStorage
        if case .keyed(let existing) = content { storage = existing } else {
            storage = KeyedStorage()
            open(.keyed(storage), "a keyed container")
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, storage: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let storage: UnkeyedStorage
        if case .unkeyed(let existing) = content { storage = existing } else {
            storage = UnkeyedStorage()
            open(.unkeyed(storage), "an unkeyed container")
        }
        return UnkeyedContainer(encoder: self, storage: storage)
    }

    /// Makes a new container the content; after another form, the storage
    /// is written to and never resolved, and `resolve` throws.
    private func open(_ container: Content, _ what: String) {
        if case .empty = content { content = container } else { content = .conflicting(what) }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// Sets the single value; a container asked for before makes the encoding conflicting.
    func setSingleValue(_ value: UserInfoValue) {
        switch content {
        case .empty, .value: content = .value(value)
        case .conflicting: break
        case .keyed, .unkeyed: content = .conflicting("a single value")
        }
    }

    /// The value written, or nil when nothing was.
    func resolve() throws -> UserInfoValue? {
        switch content {
        case .empty: return nil
        case .value(let value): return value
        case .keyed(let storage): return try storage.resolve()
        case .unkeyed(let storage): return try storage.resolve()
        case .conflicting(let what):
            throw EncodingError.invalidValue(what, .init(codingPath: codingPath, debugDescription: "the value asked for \(what) after writing another form: it has no userInfo form"))
        }
    }

    /// The userInfo value of an `Encodable` at `path`, with the special types
    /// mapped directly (`path` made only for a value that encodes itself, or an error).
    func box<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPathNode) throws -> UserInfoValue {
        if let special = try options.specialValue(value, at: path()) { return special }
        let path = path()
        let encoder = UserInfoEncoding(options: options, path: path)
        try value.encode(to: encoder)
        guard let result = try encoder.resolve() else {
            throw EncodingError.invalidValue(value, .init(codingPath: path.keys, debugDescription: "\(T.self) encoded no value"))
        }
        return result
    }

    /// `box` for a member under `key` of this encoder's value.
    func box<T: Encodable>(_ value: T, key: some CodingKey) throws -> UserInfoValue {
        try box(value, at: path.appending(key))
    }

    func key(_ key: some CodingKey) -> String { options.dictionaryKey(key) }
}

/// What the direct writers (MPUserInfo's `MPUserInfoEncoder`) share with the
/// tree encoder, so that both map every Swift value the same way.
extension UserInfoEncoder {
    /// The userInfo value of `value` when its type maps directly (`String`,
    /// `Bool`, `Date`, `Data`, `UUID`, `URL`, `Set`); nil for a type that
    /// encodes itself through containers.
    package func specialValue<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPathNode) throws -> UserInfoValue? {
        guard case .value(let special)? = try mapping(value, at: path(), streamingEntries: false) else { return nil }
        return special
    }

    /// How a value maps without encoding itself (see ``specialValue(_:at:)``).
    package enum DirectMapping {
        /// Its userInfo value.
        case value(UserInfoValue)
        /// A `[String: V]`, whose entries the caller writes as a dictionary (its
        /// own order, the keys as they are); only with `streamingEntries`.
        case entries(any StringDictionaryEntries)
    }

    /// The mapping of ``specialValue(_:at:)``; with `streamingEntries`, a
    /// `[String: V]` under the default keys is given as its entries instead of
    /// its value (a writer that streams them builds no dictionary).
    package func mapping<T: Encodable>(_ value: T, at path: @autoclosure () -> CodingPathNode, streamingEntries: Bool) throws -> DirectMapping? {
        // Metatypes compared first: a pointer comparison each, where a cast
        // (`value as? String`) asks the runtime in unspecialised generic code.
        let type = T.self
        if type == String.self { return .value(.string(_identityCast(value, to: String.self))) }
        if type == Bool.self { return .value(.number(.bool(_identityCast(value, to: Bool.self)))) }
        // The scalars that encode themselves as one number, mapped as their
        // `encode(to:)` would map them, without an encoder for each.
        if type == Int.self { return .value(.number(.integer(PropertyListInteger(_identityCast(value, to: Int.self))))) }
        if type == Int64.self { return .value(.number(.integer(PropertyListInteger(_identityCast(value, to: Int64.self))))) }
        if type == Double.self { return .value(.number(.real(_identityCast(value, to: Double.self)))) }
        if type == Date.self { return .value(try dateValue(_identityCast(value, to: Date.self), path())) }
        if type == Data.self {
            let data = _identityCast(value, to: Data.self)
            switch dataEncodingStrategy {
            case .data: return .value(.data(data))
            case .base64: return .value(.string(data.base64EncodedString()))
            }
        }
        if type == UUID.self { return .value(.uuid(_identityCast(value, to: UUID.self))) }
        if type == URL.self { return .value(.url(UserInfoURL(_identityCast(value, to: URL.self)))) }
        switch CollectionKinds.kind(type) {
        case .other:
            return nil
        case .array:
            // Arrays write themselves through an unkeyed container (measured: a marker
            // like the decoder's costs more than it saves here).
            return nil
        case .stringDictionary:
            // As `Dictionary.encode(to:)` writes it (a keyed container, its order), but for
            // converted keys, which only the keyed container applies.
            guard keyEncodingStrategy == .useDefaultKeys else { return nil }
            if streamingEntries {
                guard let dictionary = value as? any StringDictionaryEntries else { return nil }
                return .entries(dictionary)
            }
            guard let dictionary = value as? any StringDictionaryEncodable else { return nil }
            let path = path()
            return .value(try dictionary.encodeEntries(with: UserInfoEncoding(options: self, path: path), at: path))
        case .set:
            break
        }
        guard let set = value as? any SetEncodable else { return nil }
        let path = path()
        let encoding = UserInfoEncoding(options: self, path: path)
        var members = UserInfoSet()
        for (position, member) in try set.encodeMembers({ try encoding.box($0, at: path.appending(AnyCodingKey($1))) }).enumerated() {
            guard members.insert(member) else {
                throw EncodingError.invalidValue(value, .init(codingPath: path.keys(appending: AnyCodingKey(position)),
                                                              debugDescription: "two members of the set encode to the same value"))
            }
        }
        return .value(.set(members))
    }

    /// A `Date` under the date strategy.
    package func dateValue(_ date: Date, _ path: @autoclosure () -> CodingPathNode) throws -> UserInfoValue {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else {
            // The seconds, not the Date: FoundationEssentials traps describing a non-finite Date.
            throw EncodingError.invalidValue(seconds, .init(codingPath: path().keys, debugDescription: "a date must be finite, not \(seconds)"))
        }
        switch dateEncodingStrategy {
        case .date: return .date(date)
        case .secondsSince1970: return .number(.real(date.timeIntervalSince1970))
        case .millisecondsSince1970: return .number(.real(date.timeIntervalSince1970 * 1000))
        case .iso8601:
            guard let text = ISO8601Text.format(date) else {
                throw EncodingError.invalidValue(seconds, .init(codingPath: path().keys, debugDescription: "an ISO 8601 date must lie within ±10^15 seconds of 2001, not \(seconds)"))
            }
            return .string(text)
        }
    }

    /// An integer of any width as a userInfo value; nil outside [-2⁶³, 2⁶⁴)
    /// (the containers then throw ``integerError(_:of:at:)``).
    @inlinable
    @_spi(CodableCore) public func integerValue<T: BinaryInteger>(_ value: T) -> UserInfoValue? {
        PropertyListInteger(exactly: value).map { .number(.integer($0)) }
    }

    /// The error for an integer outside [-2⁶³, 2⁶⁴) under `key` (nil: the
    /// value itself) in `encoder`'s container.
    @_spi(CodableCore) public func integerError<T: BinaryInteger>(_ value: T, of encoder: some CodingPathOwner, at key: (any CodingKey)?) -> EncodingError {
        let path = key.map { encoder.path.keys(appending: $0) } ?? encoder.path.keys
        return EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) is outside [-2^63, 2^64)"))
    }

    /// The dictionary key of a coding key, under the key strategy.
    package func dictionaryKey(_ key: some CodingKey) -> String {
        switch keyEncodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.convert(key.stringValue)
        }
    }
}

/// A keyed container's sink: its values go into the container's storage
/// (the methods themselves: CodableContainers.swift).
struct KeyedContainer<Key: CodingKey>: UserInfoKeyedEncoding {
    let encoder: UserInfoEncoding
    let storage: KeyedStorage
    var options: UserInfoEncoder { encoder.options }

    mutating func write(_ value: UserInfoValue, forKey key: Key) throws {
        storage.set(value, forKey: encoder.key(key))
    }

    mutating func write<T: Encodable>(encodable value: T, forKey key: Key) throws {
        storage.set(try encoder.box(value, key: key), forKey: encoder.key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        storage.setPending(.keyed(nested), forKey: encoder.key(key))
        let child = UserInfoEncoding(options: encoder.options, path: encoder.path.appending(key))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: child, storage: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        storage.setPending(.unkeyed(nested), forKey: encoder.key(key))
        return UnkeyedContainer(encoder: UserInfoEncoding(options: encoder.options, path: encoder.path.appending(key)), storage: nested)
    }

    mutating func superEncoder(forAnyKey key: some CodingKey) -> any Encoder {
        let child = UserInfoEncoding(options: encoder.options, path: encoder.path.appending(key))
        storage.setPending(.encoder(child), forKey: encoder.key(key))
        return child
    }
}

/// An unkeyed container's sink: its elements go into the container's storage.
struct UnkeyedContainer: UnkeyedEncodingContainer, UserInfoValueEncoding {
    let encoder: UserInfoEncoding
    let storage: UnkeyedStorage
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { storage.elements.count }
    var options: UserInfoEncoder { encoder.options }
    var nextIndex: Int? { count }

    private var nextKey: AnyCodingKey { AnyCodingKey(count) }

    mutating func write(_ value: UserInfoValue) throws { storage.elements.append(value) }

    mutating func write<T: Encodable>(encodable value: T) throws {
        storage.elements.append(try encoder.box(value, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = KeyedStorage()
        let child = UserInfoEncoding(options: encoder.options, path: encoder.path.appending(nextKey))
        storage.appendPending(.keyed(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: child, storage: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = UnkeyedStorage()
        let child = UserInfoEncoding(options: encoder.options, path: encoder.path.appending(nextKey))
        storage.appendPending(.unkeyed(nested))
        return UnkeyedContainer(encoder: child, storage: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let child = UserInfoEncoding(options: encoder.options, path: encoder.path.appending(nextKey))
        storage.appendPending(.encoder(child))
        return child
    }
}

/// A single-value container's sink: the encoder's one value.
struct SingleValueContainer: SingleValueEncodingContainer, UserInfoValueEncoding {
    let encoder: UserInfoEncoding
    var codingPath: [any CodingKey] { encoder.codingPath }
    var options: UserInfoEncoder { encoder.options }
    var nextIndex: Int? { nil }

    mutating func write(_ value: UserInfoValue) throws { encoder.setSingleValue(value) }

    mutating func write<T: Encodable>(encodable value: T) throws {
        encoder.setSingleValue(try encoder.box(value, at: encoder.path))
    }
}

/// `camelCase` → `snake_case`, as JSONEncoder converts.
@_spi(CodableCore) public enum SnakeCase {
    @_spi(CodableCore) public static func convert(_ key: String) -> String {
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
    @_spi(CodableCore) public static func camel(_ key: String) -> String {
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
