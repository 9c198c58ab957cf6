public import FoundationEssentials

/// A reader of one serialised format, with one core: it reads a span of the
/// document's bytes in place, and `Data` and arrays are read by handing it
/// their bytes where they lie, never a copy (Specs/architecture.md,
/// "Memory": one way to read bytes).
public protocol BytesReader {
    /// What a document holds.
    associatedtype Value
    /// The error a document that breaks a rule is refused with.
    associatedtype Failure: Error

    /// Reads a whole document from a span of its bytes.
    ///
    /// - Parameter bytes: The whole document.
    /// - Returns: Its value.
    /// - Throws: `Failure`, naming the rule the document breaks.
    func read(_ bytes: RawSpan) throws(Failure) -> Value
}

extension BytesReader {
    /// Reads a whole document from `Data` (``read(_:)``, over its bytes).
    ///
    /// - Parameter data: The whole document.
    /// - Returns: Its value.
    /// - Throws: `Failure`, naming the rule the document breaks.
    @inlinable
    public func read(_ data: Data) throws(Failure) -> Value {
        try read(data.bytes)
    }

    /// Reads a whole document from an array of its bytes (``read(_:)``, over them).
    ///
    /// - Parameter bytes: The whole document.
    /// - Returns: Its value.
    /// - Throws: `Failure`, naming the rule the document breaks.
    @inlinable
    public func read(_ bytes: [UInt8]) throws(Failure) -> Value {
        try read(bytes.span.bytes)
    }
}
