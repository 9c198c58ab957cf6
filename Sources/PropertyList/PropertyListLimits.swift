/// Bounds on what a property-list reader will accept, so that no input can
/// take unbounded memory or time. Every reader of ActivityCodec checks each
/// bound before it allocates for it, and refuses the input with the matching
/// ``ErrorCode`` when a bound is passed.
///
/// The defaults suit general property lists up to a few hundred megabytes;
/// payload readers use tighter ones. See `Specs/value-model.md`, "Limits".
public struct PropertyListLimits: Sendable, Hashable {
    /// Largest input accepted, in bytes. Default 256 MiB.
    /// Error: ``ErrorCode/inputTooLarge``.
    public var maxInputBytes: Int
    /// Deepest nesting of containers (arrays, dictionaries). Default 512, as
    /// CoreFoundation: 512 nested containers pass, 513 are refused.
    /// Error: ``ErrorCode/depthLimitExceeded``.
    public var maxDepth: Int
    /// Most objects in the input: binary object-table entries, or XML
    /// value elements. Default 2²⁴. Error: ``ErrorCode/objectLimitExceeded``.
    public var maxObjects: Int
    /// Most members in one array or dictionary. Default 2²⁴.
    /// Error: ``ErrorCode/collectionLimitExceeded``.
    public var maxCollectionCount: Int
    /// Longest string, in bytes as stored. Default 64 MiB.
    /// Error: ``ErrorCode/stringLimitExceeded``.
    public var maxStringBytes: Int
    /// Longest data value, in bytes. Default 128 MiB.
    /// Error: ``ErrorCode/dataLimitExceeded``.
    public var maxDataBytes: Int
    /// The largest *expanded size* a decoded value may have, in bytes, whatever
    /// the input: every node of the fully expanded tree (a shared object once
    /// per place it appears) counts 8 + its depth + its string or data bytes
    /// (Specs/value-model.md, "Expanded size"). Default 1 GiB; writers refuse to write more.
    /// Error: ``ErrorCode/expansionLimitExceeded``.
    public var maxExpandedBytes: Int
    /// The expanded size may be at most this many times the input's bytes,
    /// but never less than ``expansionFloor``: the budget is proportional to
    /// the input. Default 64; 0 leaves only ``maxExpandedBytes``.
    /// Error: ``ErrorCode/expansionLimitExceeded``.
    public var expansionFactor: Int

    /// Creates limits; every parameter defaults to the documented default.
    public init(
        maxInputBytes: Int = 256 << 20,
        maxDepth: Int = 512,
        maxObjects: Int = 1 << 24,
        maxCollectionCount: Int = 1 << 24,
        maxStringBytes: Int = 64 << 20,
        maxDataBytes: Int = 128 << 20,
        maxExpandedBytes: Int = 1 << 30,
        expansionFactor: Int = 64
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxCollectionCount = maxCollectionCount
        self.maxStringBytes = maxStringBytes
        self.maxDataBytes = maxDataBytes
        self.maxExpandedBytes = maxExpandedBytes
        self.expansionFactor = expansionFactor
    }

    /// The documented defaults.
    public static let `default` = PropertyListLimits()

    /// The smallest proportional budget: 1 MiB, so that small documents may
    /// still nest to the depth limit.
    public static let expansionFloor = 1 << 20

    /// The expanded size a value read from `inputBytes` bytes may have:
    /// `min(maxExpandedBytes, max(expansionFloor, expansionFactor × inputBytes))`,
    /// or `maxExpandedBytes` alone when the factor is 0.
    public func expansionBudget(inputBytes: Int) -> Int {
        guard expansionFactor > 0 else { return maxExpandedBytes }
        let (proportional, overflow) = expansionFactor.multipliedReportingOverflow(by: max(inputBytes, 0))
        return min(maxExpandedBytes, overflow ? Int.max : max(Self.expansionFloor, proportional))
    }

    /// The deepest nesting any limit or writer may allow (`maxDepth` and the
    /// writers' `maxDepth`): 512, CoreFoundation's own bound, so nothing
    /// deeper would open on Apple's systems anyway. Limits may be lowered,
    /// never raised above it. Readers keep their open containers on a heap
    /// stack, and printing and comparing documents go through the bounded
    /// walk (Specs/architecture.md, "One stack policy", "One bounded walk");
    /// writing a value and the value model's own `==` and `hash(into:)`
    /// recurse once per level, about 7 KB of stack per level in debug builds,
    /// so 512 levels fit a main thread's 8 MiB stack.
    /// See `Specs/value-model.md`, "Limits".
    public static let maxSupportedDepth = 512

    /// Checks that every bound can be honoured: none is negative, and
    /// `maxDepth` is at most ``maxSupportedDepth``. Every reader calls this
    /// before it reads a byte.
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/invalidLimits``
    ///   naming the first unusable bound.
    public func validate() throws(PropertyListError) {
        // invalidLimits: a negative bound means nothing; a depth beyond the
        // supported one would overflow the stack instead of being refused.
        // (Every decode checks its limits: the named list is built only for
        // the message, when one is negative.)
        if maxInputBytes | maxDepth | maxObjects | maxCollectionCount | maxStringBytes | maxDataBytes
            | maxExpandedBytes | expansionFactor < 0 {
            try refuseNegativeBound()
        }
        try Self.validate(maxDepth: maxDepth)
    }

    /// invalidLimits for the first negative bound, by name.
    @inline(never)
    private func refuseNegativeBound() throws(PropertyListError) {
        let bounds = [
            ("maxInputBytes", maxInputBytes), ("maxDepth", maxDepth), ("maxObjects", maxObjects),
            ("maxCollectionCount", maxCollectionCount), ("maxStringBytes", maxStringBytes),
            ("maxDataBytes", maxDataBytes), ("maxExpandedBytes", maxExpandedBytes), ("expansionFactor", expansionFactor),
        ]
        for (name, value) in bounds where value < 0 {
            throw PropertyListError(.invalidLimits, "\(name) is \(value); limits are not negative")
        }
    }

    /// Checks a writer's or reader's depth bound: between 0 and ``maxSupportedDepth``.
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/invalidLimits``.
    public static func validate(maxDepth: Int) throws(PropertyListError) {
        // invalidLimits
        guard maxDepth >= 0, maxDepth <= maxSupportedDepth else {
            throw PropertyListError(.invalidLimits, "maxDepth is \(maxDepth); it must be between 0 and \(maxSupportedDepth)")
        }
    }
}

/// The bounds every writer keeps (Specs/value-model.md, "Writer limits"):
/// nothing deeper and nothing larger, expanded, than a reader with the same
/// ``PropertyListLimits`` reads, so that what is written reads back. One
/// value for every writer: binary, XML, OpenStep, plain and typed JSON, MP,
/// keyed archives.
public struct WriterLimits: Sendable, Hashable {
    /// Deepest nesting written (``ErrorCode/depthLimitExceeded``).
    public var maxDepth: Int
    /// The largest expanded size written (``ErrorCode/expansionLimitExceeded``).
    public var maxExpandedBytes: Int
    /// The reader's budget factor (``PropertyListLimits/expansionFactor``):
    /// nothing is written whose expanded size passes the budget a reader with
    /// the same limits allows for the bytes written, so that every output reads
    /// back (``ErrorCode/expansionLimitExceeded``); 0 leaves `maxExpandedBytes` alone.
    public var expansionFactor: Int

    /// Limits with the given bounds (the reader's defaults unless given).
    public init(maxDepth: Int = PropertyListLimits.default.maxDepth,
                maxExpandedBytes: Int = PropertyListLimits.default.maxExpandedBytes,
                expansionFactor: Int = PropertyListLimits.default.expansionFactor) {
        self.maxDepth = maxDepth
        self.maxExpandedBytes = maxExpandedBytes
        self.expansionFactor = expansionFactor
    }

    /// The writer's side of a reader's limits: what `limits` lets a reader read.
    public init(_ limits: PropertyListLimits) {
        self.init(maxDepth: limits.maxDepth, maxExpandedBytes: limits.maxExpandedBytes, expansionFactor: limits.expansionFactor)
    }

    /// The expanded size a reader with these limits allows for `outputBytes` written
    /// (``PropertyListLimits/expansionBudget(inputBytes:)``).
    public func expansionBudget(outputBytes: Int) -> Int {
        PropertyListLimits(maxExpandedBytes: maxExpandedBytes, expansionFactor: expansionFactor).expansionBudget(inputBytes: outputBytes)
    }

    /// expansionLimitExceeded: what was written reads back with these limits:
    /// a value of `expandedSize` within the budget of the `outputBytes` written
    /// (Specs/value-model.md, "Writer limits"). Sharing (binary, keyed
    /// archives) and compact forms (MP, JSON) can write a deep value in few
    /// bytes beside its expanded size.
    package func checkReadable(expandedSize: Int, outputBytes: Int) throws(PropertyListError) {
        // unreadableOutput
        let budget = expansionBudget(outputBytes: outputBytes)
        guard expandedSize <= budget else {
            throw PropertyListError(.expansionLimitExceeded, "the value expands to \(expandedSize) bytes, past the \(budget) a reader allows for the \(outputBytes) bytes written (expansionFactor)")
        }
    }

    /// The default reader's bounds.
    public static let `default` = WriterLimits()

    /// Checks that the bounds can be honoured, as ``PropertyListLimits/validate()`` does.
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/invalidLimits``.
    public func validate() throws(PropertyListError) {
        try PropertyListLimits(maxDepth: maxDepth, maxExpandedBytes: maxExpandedBytes, expansionFactor: expansionFactor).validate()
    }
}

/// The expanded size of values (Specs/value-model.md, "Expanded size"): every
/// node of the fully expanded tree counts 8 + its container depth + its payload
/// (string, key and URL bytes in UTF-8, data bytes, 16 for a UUID).
///
/// A subtree is measured once at relative depth 0 as its `base` and its node
/// count; placed at depth `d` it weighs `base + nodes × d`, so a shared object
/// is measured once and charged at every place it is used.
@_spi(ByteKit) public enum ExpandedSize {
    /// The size of one node at `depth` with `payload` bytes.
    @inlinable @inline(__always)
    public static func node(depth: Int, payload: Int) -> Int { 8 &+ depth &+ payload }

    /// A subtree measured at relative depth 0, placed one level deeper: what it
    /// adds to its container's base.
    @inlinable @inline(__always)
    public static func child(base: Int, nodes: Int) -> (base: Int, nodes: Int) {
        let (sum, overflow) = base.addingReportingOverflow(nodes)
        return (overflow ? Int.max : sum, nodes)
    }

    /// `total + more`, saturating (callers compare against a budget).
    @inlinable @inline(__always)
    public static func add(_ total: Int, _ more: Int) -> Int {
        let (sum, overflow) = total.addingReportingOverflow(more)
        return overflow ? Int.max : sum
    }

    /// `base + nodes × depth`, saturating.
    @inlinable @inline(__always)
    public static func placed(base: Int, nodes: Int, depth: Int) -> Int {
        let (product, overflow) = nodes.multipliedReportingOverflow(by: depth)
        return overflow ? Int.max : add(base, product)
    }
}

/// What a writer has written, in expanded size, against its `maxExpandedBytes`
/// (Specs/value-model.md, "Expanded size": writers apply the readers' measure,
/// since a value built in memory can share storage too).
@_spi(ByteKit) public struct ExpansionMeter: Sendable {
    @usableFromInline var remaining: Int
    @usableFromInline let limit: Int

    @inlinable public init(limit: Int) {
        self.limit = limit
        remaining = limit
    }

    /// The expanded size charged so far.
    @inlinable public var charged: Int { limit &- remaining }

    /// expansionLimitExceeded: what was written reads back with `limits`
    /// (``WriterLimits/checkReadable(expandedSize:outputBytes:)``).
    package func checkReadable(outputBytes: Int, _ limits: WriterLimits) throws(PropertyListError) {
        try limits.checkReadable(expandedSize: charged, outputBytes: outputBytes)
    }

    /// Charges one node at `depth` with `payload` bytes.
    @inlinable @inline(__always)
    public mutating func charge(depth: Int, payload: Int) throws(PropertyListError) {
        remaining &-= ExpandedSize.node(depth: depth, payload: payload)
        // expansionLimitExceeded: never write more than the limit, expanded.
        guard remaining >= 0 else { throw exceeded() }
    }

    @usableFromInline func exceeded() -> PropertyListError {
        PropertyListError(.expansionLimitExceeded, "the value expands past \(limit) bytes (maxExpandedBytes)")
    }
}
