// The floor of any Codable path: an encoder that walks every value and keeps
// nothing, and a decoder that answers every request with a constant (a fixed
// number of elements and entries), so that what they cost is Swift's Codable
// dispatch alone (containers boxed as existentials, a call per value, generic
// metadata). No coder that goes through `Encodable`/`Decodable` costs less.
import FoundationEssentials

/// Walks a value through `encode(to:)`, writing nothing.
final class FloorEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var visited = 0

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> { KeyedEncodingContainer(Keyed<Key>(encoder: self)) }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(encoder: self) }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    /// A value: the special types (as every userInfo coder maps them) counted, the rest walked.
    func visit<T: Encodable>(_ value: T) throws {
        visited &+= 1
        // Leaves: the special types, and the scalars (whose `encode(to:)` hands themselves back to the container).
        if T.self == String.self || T.self == Date.self || T.self == Data.self || T.self == UUID.self || T.self == URL.self
            || T.self == Bool.self || T.self == Int.self || T.self == Double.self || T.self == Float.self || T.self == Int8.self
            || T.self == Int16.self || T.self == Int32.self || T.self == Int64.self || T.self == UInt.self || T.self == UInt8.self
            || T.self == UInt16.self || T.self == UInt32.self || T.self == UInt64.self { return }
        try value.encode(to: self)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: FloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { encoder.visited &+= 1 }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.visit(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: FloorEncoder
        var codingPath: [any CodingKey] { [] }
        var count = 0
        mutating func encodeNil() throws { count += 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { count += 1; try encoder.visit(value) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: FloorEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() throws { encoder.visited &+= 1 }
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.visit(value) }
    }
}

/// Answers `init(from:)` with constants: every keyed container has every key,
/// every unkeyed container `elements` elements, every `[String: V]` `elements`
/// entries; the special types are constants, as every userInfo coder maps them.
final class FloorDecoder: Decoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    let elements: Int
    static let url = URL(string: "https://example.com/a")!
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    init(elements: Int) { self.elements = elements }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { KeyedDecodingContainer(Keyed<Key>(decoder: self)) }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(decoder: self) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    func constant<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return _identityCast("x", to: T.self) }
        if T.self == Date.self { return _identityCast(Date(timeIntervalSinceReferenceDate: 0), to: T.self) }
        if T.self == Data.self { return _identityCast(Data(), to: T.self) }
        if T.self == UUID.self { return _identityCast(Self.uuid, to: T.self) }
        if T.self == URL.self { return _identityCast(Self.url, to: T.self) }
        if T.self == Bool.self { return _identityCast(false, to: T.self) }
        if T.self == Int.self { return _identityCast(0, to: T.self) }
        if T.self == Double.self { return _identityCast(0.0, to: T.self) }
        if T.self == Int8.self { return _identityCast(Int8(0), to: T.self) }
        if T.self == Float.self { return _identityCast(Float(0), to: T.self) }
        return try T(from: self)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: FloorDecoder
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { (0..<decoder.elements).compactMap { Key(stringValue: "k\($0)") } }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.constant(type) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.container(keyedBy: type)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder.unkeyedContainer() }
        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let decoder: FloorDecoder
        var codingPath: [any CodingKey] { [] }
        var currentIndex = 0
        var count: Int? { decoder.elements }
        var isAtEnd: Bool { currentIndex >= decoder.elements }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try decoder.constant(type)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return try decoder.container(keyedBy: type)
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return try decoder.unkeyedContainer()
        }
        mutating func superDecoder() throws -> any Decoder { decoder }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: FloorDecoder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.constant(type) }
    }
}
