import FoundationEssentials
import PropertyList

/// Decodes `Decodable` values from userInfo values, the inverse of
/// ``UserInfoEncoder`` with the matching strategies.
///
/// Strict by type: an integer property needs an integer that fits its type,
/// a `Bool` needs a boolean, a `String` a string, a `UUID` a UUID, a `URL` a
/// URL, a `Date` a date (under `.date`); a `Double` or `Float` also takes an
/// integer that it represents exactly. A missing key is `keyNotFound` unless
/// the property is optional; `NSNull` reads as nil for optionals. Errors are
/// `DecodingError`s carrying the coding path. See `Specs/codable.md`.
///
/// ```swift
/// let state = try UserInfoDecoder().decode(State.self, from: userInfo)
/// ```
public struct UserInfoDecoder: Sendable {
    /// How `Date` values are read (the counterpart of the encoder's strategies).
    public var dateDecodingStrategy: UserInfoEncoder.DateEncodingStrategy = .date
    /// How `Data` values are read.
    public var dataDecodingStrategy: UserInfoEncoder.DataEncodingStrategy = .data
    /// How dictionary keys map to coding keys.
    public var keyDecodingStrategy: UserInfoEncoder.KeyEncodingStrategy = .useDefaultKeys
    /// Values handed to `Decodable` implementations as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default strategies.
    public init() {}

    /// Decodes a value of `type` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: UserInfoValue) throws -> T {
        try UserInfoDecoding(context: DecodingContext(self), value: value, path: .root).unbox(value, as: type, at: .root)
    }
}

/// Marks `Set` so the decoder can require and read `.set` values.
protocol SetDecodable {
    static func decodeMembers(_ members: [UserInfoValue], with decoder: UserInfoDecoding) throws -> Self
}

extension Set: SetDecodable where Element: Decodable {
    static func decodeMembers(_ members: [UserInfoValue], with decoder: UserInfoDecoding) throws -> Set<Element> {
        var result = Set<Element>()
        for (position, member) in members.enumerated() {
            let path = decoder.path.appending(AnyCodingKey(position))
            // Members equal as userInfo values are never equal Swift values twice;
            // distinct members decoding to one Element would be lost, so refuse them.
            guard result.insert(try decoder.unbox(member, as: Element.self, at: path)).inserted else {
                throw DecodingError.dataCorrupted(.init(codingPath: path.keys, debugDescription: "two set members decode to the same \(Element.self)"))
            }
        }
        return result
    }
}

/// The decoder of one value: the value and its coding path, spelled out only
/// when asked for (by an error, or by a `Decodable` reading `codingPath`).
/// The options of one decoding, shared by reference: every decoder and
/// container holds one pointer to them, not a copy.
package final class DecodingContext {
    package let options: UserInfoDecoder
    package init(_ options: UserInfoDecoder) { self.options = options }
}

/// The tree's values, read by the shared containers (CodableContainers.swift).
extension DecodingContext: UserInfoDecodingSource {
    package func isNull(_ member: UserInfoValue) -> Bool { member.isNull }

    // A member under `key` of the container at `path`, by the tree decoder's own reads.
    @inline(__always) package func bool(_ member: UserInfoValue, in path: CodingPathNode, at key: some CodingKey) throws -> Bool { try UserInfoDecoding.bool(member, path.appending(key)) }
    @inline(__always) package func string(_ member: UserInfoValue, in path: CodingPathNode, at key: some CodingKey) throws -> String { try UserInfoDecoding.string(member, path.appending(key)) }
    @inline(__always) package func double(_ member: UserInfoValue, in path: CodingPathNode, at key: some CodingKey) throws -> Double { try UserInfoDecoding.double(member, path.appending(key)) }
    @inline(__always) package func float(_ member: UserInfoValue, in path: CodingPathNode, at key: some CodingKey) throws -> Float { try UserInfoDecoding.float(member, path.appending(key)) }

    @inline(__always)
    package func integer<T: FixedWidthInteger>(_ type: T.Type, _ member: UserInfoValue, in path: CodingPathNode, at key: some CodingKey) throws -> T {
        try UserInfoDecoding.integer(type, member, path.appending(key))
    }

    @inline(__always)
    package func unbox<T: Decodable>(_ member: UserInfoValue, as type: T.Type, in path: CodingPathNode, at key: some CodingKey) throws -> T {
        try UserInfoDecoding.unbox(member, as: type, at: path.appending(key), in: self)
    }

    package func decoder(for member: UserInfoValue, at path: CodingPathNode) -> UserInfoDecoding {
        UserInfoDecoding(context: self, value: member, path: path)
    }
}

package struct UserInfoDecoding: Decoder {
    package let context: DecodingContext
    package let value: UserInfoValue
    package let path: CodingPathNode

    package init(context: DecodingContext, value: UserInfoValue, path: CodingPathNode) {
        (self.context, self.value, self.path) = (context, value, path)
    }

    var options: UserInfoDecoder { context.options }

    package var codingPath: [any CodingKey] { path.keys }
    package var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let dictionary) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedDecoder<Key>(decoder: self, dictionary: dictionary))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements): return UnkeyedDecoder(decoder: self, elements: elements)
        case .set(let set): return UnkeyedDecoder(decoder: self, elements: set.members)
        default: throw mismatch([Any].self)
        }
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueDecoder(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        Self.mismatch(type, value, path)
    }

    package static func mismatch(_ type: Any.Type, _ value: UserInfoValue, _ path: CodingPathNode) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path.keys, debugDescription: "expected \(type), found a \(value.typeName)"))
    }

    /// Decodes `type` from `value` at `path`, mapping the special types directly.
    package func unbox<T: Decodable>(_ value: UserInfoValue, as type: T.Type, at path: CodingPathNode) throws -> T {
        try Self.unbox(value, as: type, at: path, in: context)
    }

    /// ``unbox(_:as:at:)`` in `context`.
    static func unbox<T: Decodable>(_ value: UserInfoValue, as type: T.Type, at path: CodingPathNode, in context: DecodingContext) throws -> T {
        let options = context.options
        if type == String.self {
            guard case .string(let string) = value else { throw Self.mismatch(String.self, value, path) }
            return _identityCast(string, to: T.self)
        }
        // The scalars that decode themselves from one number, read as their
        // `init(from:)` would read them, without a decoder for each.
        if type == Bool.self { return _identityCast(try Self.bool(value, path), to: T.self) }
        if type == Int.self { return _identityCast(try Self.integer(Int.self, value, path), to: T.self) }
        if type == Int64.self { return _identityCast(try Self.integer(Int64.self, value, path), to: T.self) }
        if type == Double.self { return _identityCast(try Self.double(value, path), to: T.self) }
        let decoder = UserInfoDecoding(context: context, value: value, path: path)
        // _identityCast: the types are equal, so no runtime cast is needed.
        if type == Date.self { return _identityCast(try decoder.date(), to: T.self) }
        if type == Data.self { return _identityCast(try decoder.data(), to: T.self) }
        if type == UUID.self {
            guard case .uuid(let uuid) = value else { throw decoder.mismatch(UUID.self) }
            return _identityCast(uuid, to: T.self)
        }
        if type == URL.self {
            guard case .url(let url) = value else { throw decoder.mismatch(URL.self) }
            guard let resolved = url.url else {
                throw DecodingError.dataCorrupted(.init(codingPath: path.keys, debugDescription: "\"\(url.relative)\" is not a URL"))
            }
            return _identityCast(resolved, to: T.self)
        }
        switch CollectionKinds.kind(type) {
        case .other:
            break
        case .array:
            // As `Array.init(from:)` reads it: an unkeyed container's elements (an array's, or a set's members).
            if let arrayType = type as? any ArrayDecodable.Type {
                switch value {
                case .array(let elements): return try arrayType.decodeElements(elements, with: decoder) as! T
                case .set(let set): return try arrayType.decodeElements(set.members, with: decoder) as! T
                default: throw decoder.mismatch([Any].self)
                }
            }
        case .set:
            if let setType = type as? any SetDecodable.Type {
                guard case .set(let set) = value else { throw decoder.mismatch(type) }
                return try setType.decodeMembers(set.members, with: decoder) as! T
            }
        case .stringDictionary:
            // As `Dictionary.init(from:)` reads it (a keyed container's keys and values), but
            // for converted keys, which only the keyed container applies.
            if options.keyDecodingStrategy == .useDefaultKeys, let dictionaryType = type as? any StringDictionaryDecodable.Type {
                guard case .dictionary(let dictionary) = value else { throw decoder.mismatch([String: Any].self) }
                return try dictionaryType.decodeEntries(dictionary, with: decoder) as! T
            }
        }
        return try T(from: decoder)
    }

    func date() throws -> Date {
        switch (options.dateDecodingStrategy, value) {
        case (.date, .date(let date)): return date
        case (.secondsSince1970, .number(let number)): return Date(timeIntervalSince1970: try real(number, Date.self))
        case (.millisecondsSince1970, .number(let number)): return Date(timeIntervalSince1970: try real(number, Date.self) / 1000)
        case (.iso8601, .string(let text)):
            guard let date = ISO8601Text.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 UTC date"))
            }
            return date
        default: throw mismatch(Date.self)
        }
    }

    func data() throws -> Data {
        switch (options.dataDecodingStrategy, value) {
        case (.data, .data(let data)): return data
        case (.base64, .string(let text)):
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the string is not base64"))
            }
            return data
        default: throw mismatch(Data.self)
        }
    }

    func real(_ number: UserInfoNumber, _ type: Any.Type) throws -> Double {
        try Self.real(number, type, value, path)
    }

    static func real(_ number: UserInfoNumber, _ type: Any.Type, _ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> Double {
        switch number {
        case .real(let real): return real
        case .integer(let integer):
            // An integer a Double represents exactly.
            if let signed = integer.int64Value, let exact = Double(exactly: signed) { return exact }
            if let unsigned = integer.uint64Value, let exact = Double(exactly: unsigned) { return exact }
            throw DecodingError.dataCorrupted(.init(codingPath: path().keys, debugDescription: "\(integer) has no exact \(type) value"))
        case .bool: throw mismatch(type, value, path())
        }
    }

    package func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T { try Self.integer(type, value, path) }
    package func bool() throws -> Bool { try Self.bool(value, path) }
    package func string() throws -> String { try Self.string(value, path) }
    package func double() throws -> Double { try Self.double(value, path) }
    package func float() throws -> Float { try Self.float(value, path) }

    // The scalar reads, on a value and its path (no decoder made for a member).

    package static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> T {
        guard case .number(.integer(let integer)) = value else { throw mismatch(type, value, path()) }
        let fitted: T?
        if let signed = integer.int64Value { fitted = T(exactly: signed) } else { fitted = integer.uint64Value.flatMap { T(exactly: $0) } }
        guard let fitted else {
            throw DecodingError.dataCorrupted(.init(codingPath: path().keys, debugDescription: "\(integer) does not fit in \(type)"))
        }
        return fitted
    }

    package static func bool(_ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> Bool {
        guard case .number(.bool(let flag)) = value else { throw mismatch(Bool.self, value, path()) }
        return flag
    }

    package static func string(_ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path()) }
        return string
    }

    package static func double(_ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, value, path()) }
        return try real(number, Double.self, value, path())
    }

    package static func float(_ value: UserInfoValue, _ path: @autoclosure () -> CodingPathNode) throws -> Float {
        let double = try double(value, path())
        guard let float = Float(exactly: double) ?? (double.isNaN ? Float.nan : nil) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path().keys, debugDescription: "\(double) has no exact Float value"))
        }
        return float
    }
}

/// A dictionary's members, for the shared keyed container (CodableContainers.swift).
struct KeyedDecoder<Key: CodingKey>: UserInfoKeyedDecoding {
    let source: DecodingContext
    let path: CodingPathNode
    let dictionary: UserInfoDictionary

    init(decoder: UserInfoDecoding, dictionary: UserInfoDictionary) {
        source = decoder.context
        path = decoder.path
        self.dictionary = dictionary
    }

    var keyNames: [String] { dictionary.keys }
    func member(named name: String) -> UserInfoValue? { dictionary[name] }
}

/// An array's elements (or a set's members), for the shared unkeyed container.
struct UnkeyedDecoder: UserInfoUnkeyedDecoding {
    let source: DecodingContext
    let path: CodingPathNode
    let elements: [UserInfoValue]
    var currentIndex = 0

    init(decoder: UserInfoDecoding, elements: [UserInfoValue]) {
        source = decoder.context
        path = decoder.path
        self.elements = elements
    }

    var count: Int? { elements.count }
    var current: UserInfoValue { elements[currentIndex] }
    mutating func advance() { currentIndex += 1 }
}

/// One value, for the shared single-value container.
struct SingleValueDecoder: UserInfoSingleValueDecoding {
    let decoder: UserInfoDecoding
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }
    func bool() throws -> Bool { try decoder.bool() }
    func string() throws -> String { try decoder.string() }
    func double() throws -> Double { try decoder.double() }
    func float() throws -> Float { try decoder.float() }
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unbox(decoder.value, as: type, at: decoder.path) }
}
