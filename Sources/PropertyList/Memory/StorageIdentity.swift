/// Which storage a collection's elements live in (Specs/architecture.md, "One
/// bounded walk"): two arrays with the same identity share their elements, so
/// a walk that has met one has met the other, and resolves a shared object
/// once. A decoded shared object (a binary object or an archived object
/// referenced from several places) is one storage wherever it appears.
///
/// An identity names storage only while that storage is alive: whoever keeps
/// identities keeps the collections beside them (``ValueWalk`` does), so that
/// no address can be freed and reused for other elements meanwhile.
@_spi(ByteKit) public struct StorageIdentity: Hashable, Sendable {
    @usableFromInline let first: UInt
    @usableFromInline let second: UInt
    @usableFromInline let count: Int

    /// The storage of an array's elements.
    @inlinable
    public init<Element>(_ array: [Element]) {
        first = array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        second = 0
        count = array.count
    }

    /// The storage of two arrays together (a dictionary's keys and values).
    @inlinable
    public init<First, Second>(_ a: [First], _ b: [Second]) {
        first = a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        second = b.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        count = a.count
    }
}
