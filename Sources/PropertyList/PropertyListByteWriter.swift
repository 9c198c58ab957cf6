public import FoundationEssentials

/// A writer of property-list values in one format (the binary, XML and
/// OpenStep writers): ``writeBytes(_:)`` encodes a value into the format's
/// bytes, and ``write(_:)`` hands the same bytes over as `Data`.
public protocol PropertyListByteWriter: Sendable {
    /// Encodes `value` into the format's bytes.
    ///
    /// - Throws: ``PropertyListError``: the format's rules and the writer's limits.
    func writeBytes(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8]
}

extension PropertyListByteWriter {
    /// Encodes `value` as `Data`: the bytes of ``writeBytes(_:)``.
    ///
    /// - Throws: ``PropertyListError``, as ``writeBytes(_:)``.
    @inlinable public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        Data(try writeBytes(value))
    }
}
