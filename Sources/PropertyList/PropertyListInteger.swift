/// An integer held by a property list: any value in `Int64` ∪ `UInt64`,
/// that is the range [-2⁶³, 2⁶⁴), kept exactly.
///
/// Property lists carry signed 64-bit integers, and Apple writes unsigned
/// 64-bit values above `Int64.max` as 16-byte integers. This type holds
/// both without truncation: a value that fits `Int64` is always stored
/// as one, so equal numbers compare and hash equal however they were read.
///
/// See `Specs/value-model.md`, "Integers".
public struct PropertyListInteger: Sendable, Hashable, Comparable {
    @usableFromInline
    internal enum Storage: Sendable, Hashable {
        /// Any value in `Int64`.
        case signed(Int64)
        /// A value above `Int64.max` (never used for smaller values).
        case large(UInt64)
    }

    @usableFromInline
    internal let storage: Storage

    /// Creates an integer from a signed 64-bit value.
    @inlinable
    public init(_ value: Int64) { storage = .signed(value) }

    /// Creates an integer from an unsigned 64-bit value.
    @inlinable
    public init(_ value: UInt64) {
        storage = value <= UInt64(Int64.max) ? .signed(Int64(value)) : .large(value)
    }

    /// Creates an integer from a platform `Int`.
    @inlinable
    public init(_ value: Int) { storage = .signed(Int64(value)) }

    /// Creates an integer from any binary integer, or returns nil when the
    /// value lies outside [-2⁶³, 2⁶⁴).
    @inlinable
    public init?(exactly value: some BinaryInteger) {
        if let signed = Int64(exactly: value) {
            storage = .signed(signed)
        } else if let unsigned = UInt64(exactly: value) {
            storage = .large(unsigned)
        } else {
            return nil
        }
    }

    /// Parses a decimal integer with an optional leading `-` or `+`,
    /// returning nil for anything else or a value out of range.
    public init?(decimal text: some StringProtocol) {
        if let signed = Int64(text, radix: 10) {
            storage = .signed(signed)
        } else if let unsigned = UInt64(text, radix: 10) {
            storage = .large(unsigned)
        } else {
            return nil
        }
    }

    /// The value as `Int64`, or nil when it is above `Int64.max`.
    @inlinable
    public var int64Value: Int64? {
        if case .signed(let value) = storage { return value }
        return nil
    }

    /// The value as `UInt64`, or nil when it is negative.
    @inlinable
    public var uint64Value: UInt64? {
        switch storage {
        case .signed(let value): return value >= 0 ? UInt64(value) : nil
        case .large(let value): return value
        }
    }

    /// The value as `Int`, or nil when it does not fit.
    @inlinable
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }

    /// True when the value is below zero.
    @inlinable
    public var isNegative: Bool {
        if case .signed(let value) = storage { return value < 0 }
        return false
    }

    /// The low 64 bits in two's complement, as binary property lists store them.
    @inlinable
    public var bitPattern: UInt64 {
        switch storage {
        case .signed(let value): return UInt64(bitPattern: value)
        case .large(let value): return value
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.signed(a), .signed(b)): return a < b
        case (.signed, .large): return true
        case (.large, .signed): return false
        case let (.large(a), .large(b)): return a < b
        }
    }
}

extension PropertyListInteger: ExpressibleByIntegerLiteral {
    /// Creates an integer from a literal; literals must fit `Int64`.
    @inlinable
    public init(integerLiteral value: Int64) { self.init(value) }
}

extension PropertyListInteger: CustomStringConvertible {
    /// The decimal form, such as `-5` or `18446744073709551615`.
    public var description: String {
        switch storage {
        case .signed(let value): return String(value)
        case .large(let value): return String(value)
        }
    }
}

extension GrowableBuffer where Element == UInt8 {
    /// Appends the decimal digits of `integer`, as its `description` spells
    /// them (the XML writer's `<integer>`): a sign, then at most 20 digits,
    /// written backwards into a small array and appended at once.
    @_spi(ByteKit) public mutating func append(decimal integer: PropertyListInteger) {
        var magnitude: UInt64
        if let value = integer.int64Value {
            if value < 0 { append(UInt8(ascii: "-")) }
            magnitude = value.magnitude
        } else {
            magnitude = integer.uint64Value!
        }
        var digits = InlineArray<20, UInt8>(repeating: 0)
        var at = digits.count
        repeat {
            at -= 1
            digits[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        append(digits.span.extracting(at...))
    }
}
