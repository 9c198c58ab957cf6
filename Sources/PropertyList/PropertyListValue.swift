public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One value of a property list: the tree that every reader of this module
/// produces and every writer consumes.
///
/// Values compare *exactly*: strings by their Unicode scalars (so `"é"` as
/// one scalar differs from `"e\u{301}"`), reals and dates by their bit
/// patterns (so `-0.0 ≠ 0.0` and a NaN equals the same NaN), dictionaries by
/// their entries in any order. Equal values encode to the same bytes and
/// nothing a reader accepts is changed on the way through.
/// See `Specs/value-model.md`.
public enum PropertyListValue: Sendable {
    /// A string of Unicode scalars (any, including NUL; never a lone surrogate).
    case string(String)
    /// An integer in [-2⁶³, 2⁶⁴).
    case integer(PropertyListInteger)
    /// A real number (a binary `float32` widens to it exactly).
    case real(Double)
    /// A boolean.
    case bool(Bool)
    /// An instant; finite, as seconds since 2001-01-01T00:00:00Z.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list.
    case array([PropertyListValue])
    /// String-keyed entries, unique keys, insertion order kept.
    case dictionary(PropertyListDictionary)
    /// A keyed-archive object reference (`CF$UID`), 32 bits as CoreFoundation allows.
    case uid(UInt32)
    /// The binary null object (marker `0x00`). CoreFoundation and Python's
    /// plistlib read it from `bplist00`; XML and JSON cannot carry it.
    case null
}

// MARK: - Typed accessors

extension PropertyListValue {
    /// The string, if this is one.
    @inlinable public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The integer, if this is one.
    @inlinable public var integerValue: PropertyListInteger? { if case .integer(let v) = self { return v }; return nil }
    /// The integer as `Int64`, if this is an integer that fits.
    @inlinable public var int64Value: Int64? { integerValue?.int64Value }
    /// The integer as `Int`, if this is an integer that fits.
    @inlinable public var intValue: Int? { integerValue?.intValue }
    /// The real, if this is one.
    @inlinable public var realValue: Double? { if case .real(let v) = self { return v }; return nil }
    /// The boolean, if this is one.
    @inlinable public var boolValue: Bool? { if case .bool(let v) = self { return v }; return nil }
    /// The date, if this is one.
    @inlinable public var dateValue: Date? { if case .date(let v) = self { return v }; return nil }
    /// The bytes, if this is data.
    @inlinable public var dataValue: Data? { if case .data(let v) = self { return v }; return nil }
    /// The elements, if this is an array.
    @inlinable public var arrayValue: [PropertyListValue]? { if case .array(let v) = self { return v }; return nil }
    /// The entries, if this is a dictionary.
    @inlinable public var dictionaryValue: PropertyListDictionary? { if case .dictionary(let v) = self { return v }; return nil }
    /// The object index, if this is a UID.
    @inlinable public var uidValue: UInt32? { if case .uid(let v) = self { return v }; return nil }
    /// True for the binary null object.
    @inlinable public var isNull: Bool { if case .null = self { return true }; return false }

    /// The payload of a scalar in its expanded size (``ExpandedSize``): a
    /// string's UTF-8 bytes, data's bytes, 0 for other values.
    @usableFromInline package var payloadBytes: Int {
        switch self {
        case .string(let string): return string.utf8.count
        case .data(let data): return data.count
        default: return 0
        }
    }

    /// The type's name as the specs and error messages use it:
    /// `string`, `integer`, `real`, `bool`, `date`, `data`, `array`, `dict`, `uid`, `null`.
    public var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool: return "bool"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dict"
        case .uid: return "uid"
        case .null: return "null"
        }
    }
}

// MARK: - Exact equality and hashing

extension PropertyListValue: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return ExactString.equal(a, b)
        case let (.integer(a), .integer(b)): return a == b
        case let (.real(a), .real(b)): return a.bitPattern == b.bitPattern
        case let (.bool(a), .bool(b)): return a == b
        case let (.date(a), .date(b)):
            return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.data(a), .data(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.dictionary(a), .dictionary(b)): return a == b
        case let (.uid(a), .uid(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let v): hasher.combine(0 as UInt8); ExactString.hash(v, into: &hasher)
        case .integer(let v): hasher.combine(1 as UInt8); hasher.combine(v)
        case .real(let v): hasher.combine(2 as UInt8); hasher.combine(v.bitPattern)
        case .bool(let v): hasher.combine(3 as UInt8); hasher.combine(v)
        case .date(let v): hasher.combine(4 as UInt8); hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v): hasher.combine(5 as UInt8); hasher.combine(v)
        case .array(let v): hasher.combine(6 as UInt8); hasher.combine(v)
        case .dictionary(let v): hasher.combine(7 as UInt8); hasher.combine(v)
        case .uid(let v): hasher.combine(8 as UInt8); hasher.combine(v)
        case .null: hasher.combine(9 as UInt8)
        }
    }
}

/// String comparison by Unicode scalars, not by Swift's canonical
/// equivalence: a codec must not conflate two spellings a peer keeps apart.
package enum ExactString {
    package static func equal(_ a: String, _ b: String) -> Bool {
        // Equal scalars are equal UTF-8 bytes.
        a.withUTF8Span { x in b.withUTF8Span { y in x.bytes.sameBytes(as: y.bytes) } }
    }

    package static func hash(_ s: String, into hasher: inout Hasher) {
        s.withUTF8Span { hasher.combine(bytes: $0.bytes) }
    }
}

// MARK: - Literals

extension PropertyListValue: ExpressibleByStringLiteral {
    @inlinable public init(stringLiteral value: String) { self = .string(value) }
}

extension PropertyListValue: ExpressibleByIntegerLiteral {
    @inlinable public init(integerLiteral value: Int64) { self = .integer(PropertyListInteger(value)) }
}

extension PropertyListValue: ExpressibleByFloatLiteral {
    @inlinable public init(floatLiteral value: Double) { self = .real(value) }
}

extension PropertyListValue: ExpressibleByBooleanLiteral {
    @inlinable public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PropertyListValue: ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
}

extension PropertyListValue: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary; a literal with a repeated key is a programming error and traps.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(PropertyListDictionary(uniqueKeysWithValues: elements))
    }
}

extension PropertyListValue {
    /// The dates every format of ActivityCodec carries: finite, and within ±10¹⁵
    /// seconds (about ±31.7 million years) of 2001-01-01T00:00:00Z, so that the
    /// text forms (XML, typed JSON) can spell every date the binary forms hold.
    /// Readers and writers refuse others with `invalidDate` (Specs/value-model.md).
    public static let dateRange: ClosedRange<Double> = -1e15...1e15

    /// True when `seconds` since 2001 lies in ``dateRange`` (false for NaN and infinities).
    @inlinable public static func isValidDate(_ seconds: Double) -> Bool { dateRange.contains(seconds) }
}

/// A value tree whose containers include arrays and string-keyed
/// dictionaries (``PropertyListValue``, and the userInfo value built on this
/// module): its subscripts by key and by index, written once.
public protocol StringKeyedTree: Hashable, Sendable {
    /// The elements, if this is an array.
    var arrayValue: [Self]? { get }
    /// The entries, if this is a dictionary.
    var dictionaryValue: StringKeyedDictionary<Self>? { get }
}

extension StringKeyedTree {
    /// The value under `key`, if this is a dictionary that has it.
    @inlinable
    public subscript(key: String) -> Self? { dictionaryValue?[key] }

    /// The element at `index`, if this is an array that long.
    @inlinable
    public subscript(index: Int) -> Self? {
        guard let elements = arrayValue, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

extension PropertyListValue: StringKeyedTree {}
