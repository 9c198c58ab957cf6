/// The one writer of what a consumer of decoded values prints or reports —
/// `print`'s tree, `diff`'s lines and JSON, summaries — counting its bytes
/// against a budget set by the input (Specs/architecture.md, "One counted
/// output"): **`outputLimitExceeded`** past it, before the text grows further.
/// Together with ``ValueWalk``, it makes every such output linear in the
/// input's bytes, whatever the value's shape.
@_spi(ByteKit) public struct CountedOutput: Sendable {
    /// What was written.
    public var text: String { written }
    @usableFromInline var written = ""
    /// The most bytes (UTF-8) the text may hold.
    public let budget: Int
    @usableFromInline var remaining: Int

    /// A writer holding at most `budget` bytes.
    public init(budget: Int) {
        self.budget = max(budget, 0)
        remaining = self.budget
    }

    /// A writer whose budget follows from the input (``budget(forExpansionBudget:)``).
    public init(expansionBudget: Int) {
        self.init(budget: Self.budget(forExpansionBudget: expansionBudget))
    }

    /// No bound: for `description`, which a program asks for, of a value it holds.
    @inlinable public static var unbounded: CountedOutput { CountedOutput(budget: Int.max) }

    /// The output budget of a value whose walk may charge `expansionBudget`:
    /// 32 bytes per byte of expanded size and 4 KiB (Specs/value-model.md,
    /// "Expanded size": every output is at most a fixed multiple of it, beyond
    /// a few KB of headers; the fuzz targets check the same bound).
    public static func budget(forExpansionBudget expansionBudget: Int) -> Int {
        let (product, overflow) = max(expansionBudget, 0).multipliedReportingOverflow(by: 32)
        return overflow ? Int.max : ExpandedSize.add(product, 4096)
    }

    /// The bytes written so far.
    @inlinable public var count: Int { budget - remaining }

    /// Appends `piece`.
    ///
    /// - Throws: ``ErrorCode/outputLimitExceeded`` when the text would pass the budget.
    @inlinable public mutating func append(_ piece: String) throws(PropertyListError) {
        let size = piece.utf8.count
        // outputLimitExceeded: no output grows past the budget its input sets.
        guard size <= remaining else { throw exceeded() }
        remaining -= size
        written += piece
    }

    @usableFromInline func exceeded() -> PropertyListError {
        PropertyListError(.outputLimitExceeded, "the output passes \(budget) bytes, the most its input allows")
    }

    /// Appends what `build` writes (one member's text), in place: the budget
    /// is checked once it is written, so the text passes it by one piece at
    /// most before the refusal, and is then dropped with the output.
    @inlinable public mutating func append(_ build: (inout String) -> Void) throws(PropertyListError) {
        let before = written.utf8.count
        build(&written)
        remaining -= written.utf8.count - before
        // outputLimitExceeded
        guard remaining >= 0 else { throw exceeded() }
    }
}
