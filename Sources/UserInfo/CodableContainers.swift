// The Codable containers of the userInfo coders, written once (Specs/codable.md,
// "One Codable core"): the tree coders (`UserInfoEncoder`, `UserInfoDecoder`)
// and the direct MP coders (`MPUserInfoEncoder`, `MPUserInfoDecoder`) each
// give a container a few operations — its sink (write a value, write an
// `Encodable`) or its source (find a member, read a scalar from it) — and
// every method Swift's container protocols ask for comes from here, built on
// them. So a Swift value maps to the same userInfo value, with the same
// errors and coding paths, whichever coder writes or reads it.
//
// Containers conform in their own module; these bodies are inlined into each
// conformer there (`@inlinable`, SPI-public: an `@inlinable package` body is
// not inlined into another module, and unspecialised, each call would look up
// the conformer's witness tables at run time).
import FoundationEssentials
import PropertyList

// MARK: - Encoding

/// An encoder whose coding path is spelled out only when asked for (by an
/// error, or by an `Encodable` reading `codingPath`).
@_spi(CodableCore) public protocol CodingPathOwner: AnyObject {
    /// The coding path of the encoder's value.
    var path: CodingPathNode { get }
}

/// A keyed encoding container of a userInfo encoder: a sink for the values
/// under its keys.
@_spi(CodableCore) public protocol UserInfoKeyedEncoding: KeyedEncodingContainerProtocol {
    associatedtype Owner: CodingPathOwner
    /// The mapping's strategies.
    var options: UserInfoEncoder { get }
    /// The encoder of the container's value.
    var encoder: Owner { get }
    /// Writes `value`, a value the tree encoder makes, under `key`.
    mutating func write(_ value: UserInfoValue, forKey key: Key) throws
    /// Writes an `Encodable` under `key`: mapped directly, or through its own `encode(to:)`.
    mutating func write<T: Encodable>(encodable value: T, forKey key: Key) throws
    /// The encoder of the value under `key` (any key: `super` too), for it to encode later.
    mutating func superEncoder(forAnyKey key: some CodingKey) -> any Encoder
}

@_spi(CodableCore) extension UserInfoKeyedEncoding {
    @inlinable @inline(__always) public var codingPath: [any CodingKey] { encoder.path.keys }

    @inlinable @inline(__always)
    mutating func writeInteger(_ value: some BinaryInteger, forKey key: Key) throws {
        guard let integer = options.integerValue(value) else { throw options.integerError(value, of: encoder, at: key) }
        try write(integer, forKey: key)
    }

    @inlinable @inline(__always) public mutating func encodeNil(forKey key: Key) throws { try write(.null, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Bool, forKey key: Key) throws { try write(.number(.bool(value)), forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: String, forKey key: Key) throws { try write(.string(value), forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Double, forKey key: Key) throws { try write(.number(.real(value)), forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Float, forKey key: Key) throws { try write(.number(.real(Double(value))), forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int8, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int16, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int32, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int64, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt8, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt16, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt32, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt64, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int128, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt128, forKey key: Key) throws { try writeInteger(value, forKey: key) }
    @inlinable @inline(__always) public mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try write(encodable: value, forKey: key) }

    /// Optionals: absent keys stay absent, or become NSNull under `.null`
    /// (every type through the generic `encode`, as `JSONEncoder` does).
    @inlinable @inline(__always) public mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }
    @inlinable @inline(__always) public mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresentValue(value, key) }

    @inlinable @inline(__always)
    mutating func encodeIfPresentValue<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else if options.nilEncodingStrategy == .null { try encodeNil(forKey: key) }
    }

    /// The super encoder under the key "super", whether or not `Key` has such a case.
    @inlinable @inline(__always) public mutating func superEncoder() -> any Encoder { superEncoder(forAnyKey: AnyCodingKey("super")) }
    @inlinable @inline(__always) public mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forAnyKey: key) }
}

/// An unkeyed or single-value encoding container of a userInfo encoder: a
/// sink for the values written one at a time (its elements, or its one value).
@_spi(CodableCore) public protocol UserInfoValueEncoding {
    associatedtype Owner: CodingPathOwner
    /// The mapping's strategies.
    var options: UserInfoEncoder { get }
    /// The encoder of the container's value.
    var encoder: Owner { get }
    /// The index of the next element, for an unkeyed container (nil: the value itself).
    var nextIndex: Int? { get }
    /// Writes `value`, a value the tree encoder makes.
    mutating func write(_ value: UserInfoValue) throws
    /// Writes an `Encodable`: mapped directly, or through its own `encode(to:)`.
    mutating func write<T: Encodable>(encodable value: T) throws
}

@_spi(CodableCore) extension UserInfoValueEncoding {
    @inlinable @inline(__always)
    mutating func writeInteger(_ value: some BinaryInteger) throws {
        guard let integer = options.integerValue(value) else { throw options.integerError(value, of: encoder, at: nextIndex.map(AnyCodingKey.init)) }
        try write(integer)
    }

    @inlinable @inline(__always) public mutating func encodeNil() throws { try write(.null) }
    @inlinable @inline(__always) public mutating func encode(_ value: Bool) throws { try write(.number(.bool(value))) }
    @inlinable @inline(__always) public mutating func encode(_ value: String) throws { try write(.string(value)) }
    @inlinable @inline(__always) public mutating func encode(_ value: Double) throws { try write(.number(.real(value))) }
    @inlinable @inline(__always) public mutating func encode(_ value: Float) throws { try write(.number(.real(Double(value)))) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int8) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int16) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int32) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: Int64) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt8) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt16) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt32) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt64) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode<T: Encodable>(_ value: T) throws { try write(encodable: value) }
}

// The 128-bit integers: over the container protocols' own defaults (which
// encode them as any `Encodable`), for each protocol.
@_spi(CodableCore) extension UserInfoValueEncoding where Self: UnkeyedEncodingContainer {
    @inlinable @inline(__always) public mutating func encode(_ value: Int128) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt128) throws { try writeInteger(value) }
}

@_spi(CodableCore) extension UserInfoValueEncoding where Self: SingleValueEncodingContainer {
    @inlinable @inline(__always) public mutating func encode(_ value: Int128) throws { try writeInteger(value) }
    @inlinable @inline(__always) public mutating func encode(_ value: UInt128) throws { try writeInteger(value) }
}

// MARK: - Decoding

/// What a userInfo decoder's containers read values from (the tree's values,
/// the MP tape's nodes): a member's scalars, read with the tree decoder's own
/// mapping and errors, and the decoder of a member.
@_spi(CodableCore) public protocol UserInfoDecodingSource {
    /// A value of the representation (a tree value, a tape node).
    associatedtype Member
    /// The decoder of one member.
    associatedtype MemberDecoder: Decoder
    /// The strategies and `userInfo` of the decoding.
    var options: UserInfoDecoder { get }
    func isNull(_ member: Member) -> Bool
    // The scalars of a member under `key` in the container at `path` (the
    // path spelled out only for an error: no closure is made here, which in
    // the containers' generic code would look up their conformances at run time).
    func bool(_ member: Member, in path: CodingPathNode, at key: some CodingKey) throws -> Bool
    func string(_ member: Member, in path: CodingPathNode, at key: some CodingKey) throws -> String
    func double(_ member: Member, in path: CodingPathNode, at key: some CodingKey) throws -> Double
    func float(_ member: Member, in path: CodingPathNode, at key: some CodingKey) throws -> Float
    func integer<T: FixedWidthInteger>(_ type: T.Type, _ member: Member, in path: CodingPathNode, at key: some CodingKey) throws -> T
    /// Decodes `type` from `member`, the special types mapped directly.
    func unbox<T: Decodable>(_ member: Member, as type: T.Type, in path: CodingPathNode, at key: some CodingKey) throws -> T
    /// The decoder of `member` at `path` (for nested containers and super decoders).
    func decoder(for member: Member, at path: CodingPathNode) -> MemberDecoder
}

/// A keyed decoding container of a userInfo decoder: a map's members by key.
@_spi(CodableCore) public protocol UserInfoKeyedDecoding: KeyedDecodingContainerProtocol {
    associatedtype Source: UserInfoDecodingSource
    var source: Source { get }
    /// The coding path of the map.
    var path: CodingPathNode { get }
    /// The map's keys, in order.
    var keyNames: [String] { get }
    /// The member under dictionary key `name`, or nil.
    func member(named name: String) -> Source.Member?
}

@_spi(CodableCore) extension UserInfoKeyedDecoding {
    @inlinable @inline(__always) public var codingPath: [any CodingKey] { path.keys }

    /// The dictionary key of a coding key, under the key strategy.
    @inlinable @inline(__always)
    func name(_ key: some CodingKey) -> String {
        switch source.options.keyDecodingStrategy {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return SnakeCase.convert(key.stringValue)
        }
    }

    @inlinable @inline(__always)
    public var allKeys: [Key] {
        keyNames.compactMap { key in
            switch source.options.keyDecodingStrategy {
            case .useDefaultKeys: return Key(stringValue: key)
            case .convertToSnakeCase: return Key(stringValue: SnakeCase.camel(key))
            }
        }
    }

    @inlinable @inline(__always) public func contains(_ key: Key) -> Bool { member(named: name(key)) != nil }

    /// The member under `key`, or `keyNotFound`.
    @inlinable @inline(__always)
    func member(_ key: some CodingKey) throws -> Source.Member {
        guard let member = member(named: name(key)) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(name(key))\""))
        }
        return member
    }

    @inlinable @inline(__always)
    func child(_ key: some CodingKey) throws -> Source.MemberDecoder {
        source.decoder(for: try member(key), at: path.appending(key))
    }

    @inlinable @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        try source.integer(type, try member(key), in: path, at: key)
    }

    @inlinable @inline(__always) public func decodeNil(forKey key: Key) throws -> Bool { source.isNull(try member(key)) }
    @inlinable @inline(__always) public func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try source.bool(try member(key), in: path, at: key) }
    @inlinable @inline(__always) public func decode(_ type: String.Type, forKey key: Key) throws -> String { try source.string(try member(key), in: path, at: key) }
    @inlinable @inline(__always) public func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try source.double(try member(key), in: path, at: key) }
    @inlinable @inline(__always) public func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try source.float(try member(key), in: path, at: key) }
    @inlinable @inline(__always) public func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, key) }
    @inlinable @inline(__always) public func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, key) }
    @inlinable @inline(__always)
    public func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try source.unbox(try member(key), as: type, in: path, at: key)
    }

    /// Optionals: nil for a missing key or NSNull, found with one lookup.
    @inlinable @inline(__always)
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let member = member(named: name(key)), !source.isNull(member) else { return nil }
        return try source.unbox(member, as: type, in: path, at: key)
    }

    @inlinable @inline(__always)
    public func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    @inlinable @inline(__always) public func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    /// The super decoder under the key "super", whether or not `Key` has such a case.
    @inlinable @inline(__always) public func superDecoder() throws -> any Decoder { try child(AnyCodingKey("super")) }
    @inlinable @inline(__always) public func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// An unkeyed decoding container of a userInfo decoder: elements read in turn.
@_spi(CodableCore) public protocol UserInfoUnkeyedDecoding: UnkeyedDecodingContainer {
    associatedtype Source: UserInfoDecodingSource
    var source: Source { get }
    /// The coding path of the array.
    var path: CodingPathNode { get }
    /// The element at `currentIndex` (which is below `count`).
    var current: Source.Member { get }
    /// Moves past the current element.
    mutating func advance()
}

@_spi(CodableCore) extension UserInfoUnkeyedDecoding {
    @inlinable @inline(__always) public var codingPath: [any CodingKey] { path.keys }
    @inlinable @inline(__always) public var isAtEnd: Bool { currentIndex >= count! }

    @inlinable @inline(__always)
    var currentPath: CodingPathNode { path.appending(AnyCodingKey(currentIndex)) }

    /// The current element, or `valueNotFound` past the end.
    @inlinable @inline(__always)
    func next() throws -> Source.Member {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: currentPath.keys, debugDescription: "no more elements"))
        }
        return current
    }

    @inlinable @inline(__always)
    mutating func nextDecoder() throws -> Source.MemberDecoder {
        let decoder = source.decoder(for: try next(), at: currentPath)
        advance()
        return decoder
    }

    @inlinable @inline(__always)
    mutating func nextInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        advancing(try source.integer(type, try next(), in: path, at: AnyCodingKey(currentIndex)))
    }

    /// `value`, read from the current element, after moving past the element.
    @inlinable @inline(__always)
    mutating func advancing<T>(_ value: T) -> T {
        advance()
        return value
    }

    @inlinable @inline(__always)
    public mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, source.isNull(current) else { return false }
        advance()
        return true
    }

    @inlinable @inline(__always)
    public mutating func decode(_ type: Bool.Type) throws -> Bool { advancing(try source.bool(try next(), in: path, at: AnyCodingKey(currentIndex))) }

    @inlinable @inline(__always)
    public mutating func decode(_ type: String.Type) throws -> String { advancing(try source.string(try next(), in: path, at: AnyCodingKey(currentIndex))) }

    @inlinable @inline(__always)
    public mutating func decode(_ type: Double.Type) throws -> Double { advancing(try source.double(try next(), in: path, at: AnyCodingKey(currentIndex))) }

    @inlinable @inline(__always)
    public mutating func decode(_ type: Float.Type) throws -> Float { advancing(try source.float(try next(), in: path, at: AnyCodingKey(currentIndex))) }

    @inlinable @inline(__always) public mutating func decode(_ type: Int.Type) throws -> Int { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: Int8.Type) throws -> Int8 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: Int16.Type) throws -> Int16 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: Int32.Type) throws -> Int32 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: Int64.Type) throws -> Int64 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt.Type) throws -> UInt { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: Int128.Type) throws -> Int128 { try nextInteger(type) }
    @inlinable @inline(__always) public mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try nextInteger(type) }

    @inlinable @inline(__always)
    public mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        advancing(try source.unbox(try next(), as: type, in: path, at: AnyCodingKey(currentIndex)))
    }

    @inlinable @inline(__always)
    public mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    @inlinable @inline(__always) public mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try nextDecoder().unkeyedContainer() }
    @inlinable @inline(__always) public mutating func superDecoder() throws -> any Decoder { try nextDecoder() }
}

/// A single-value decoding container of a userInfo decoder: one value's scalars.
@_spi(CodableCore) public protocol UserInfoSingleValueDecoding: SingleValueDecodingContainer {
    func bool() throws -> Bool
    func string() throws -> String
    func double() throws -> Double
    func float() throws -> Float
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T
}

@_spi(CodableCore) extension UserInfoSingleValueDecoding {
    @inlinable @inline(__always) public func decode(_ type: Bool.Type) throws -> Bool { try bool() }
    @inlinable @inline(__always) public func decode(_ type: String.Type) throws -> String { try string() }
    @inlinable @inline(__always) public func decode(_ type: Double.Type) throws -> Double { try double() }
    @inlinable @inline(__always) public func decode(_ type: Float.Type) throws -> Float { try float() }
    @inlinable @inline(__always) public func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: Int128.Type) throws -> Int128 { try integer(type) }
    @inlinable @inline(__always) public func decode(_ type: UInt128.Type) throws -> UInt128 { try integer(type) }
}
