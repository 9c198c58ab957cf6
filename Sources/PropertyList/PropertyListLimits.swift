/// Bounds on what a property-list reader will accept, so that no input can
/// take unbounded memory or time. Every reader of ActivityCodec checks each
/// bound before it allocates for it, and refuses the input with the matching
/// ``PropertyListError/Code`` when a bound is passed.
///
/// The defaults suit general property lists up to a few hundred megabytes;
/// payload readers use tighter ones. See `Specs/value-model.md`, "Limits".
public struct PropertyListLimits: Sendable, Hashable {
    /// Largest input accepted, in bytes. Default 256 MiB.
    /// Error: ``PropertyListError/Code/inputTooLarge``.
    public var maxInputBytes: Int
    /// Deepest nesting of containers (arrays, dictionaries). Default 512, as
    /// CoreFoundation: 512 nested containers pass, 513 are refused.
    /// Error: ``PropertyListError/Code/depthLimitExceeded``.
    public var maxDepth: Int
    /// Most objects in the input: binary object-table entries, or XML
    /// value elements. Default 2²⁴. Error: ``PropertyListError/Code/objectLimitExceeded``.
    public var maxObjects: Int
    /// Most members in one array or dictionary. Default 2²⁴.
    /// Error: ``PropertyListError/Code/collectionLimitExceeded``.
    public var maxCollectionCount: Int
    /// Longest string, in bytes as stored. Default 64 MiB.
    /// Error: ``PropertyListError/Code/stringLimitExceeded``.
    public var maxStringBytes: Int
    /// Longest data value, in bytes. Default 128 MiB.
    /// Error: ``PropertyListError/Code/dataLimitExceeded``.
    public var maxDataBytes: Int
    /// Most values in the decoded tree, counting every shared object once per
    /// place it appears (and dictionary keys). This is the guard against a
    /// small file whose shared references describe an exponential tree.
    /// Default 2²⁴. Error: ``PropertyListError/Code/expansionLimitExceeded``.
    /// (The binary reader caps this at 2⁴² − 1 and the depth at 2²⁰ − 2.)
    public var maxMaterializedNodes: Int

    /// Creates limits; every parameter defaults to the documented default.
    public init(
        maxInputBytes: Int = 256 << 20,
        maxDepth: Int = 512,
        maxObjects: Int = 1 << 24,
        maxCollectionCount: Int = 1 << 24,
        maxStringBytes: Int = 64 << 20,
        maxDataBytes: Int = 128 << 20,
        maxMaterializedNodes: Int = 1 << 24
    ) {
        self.maxInputBytes = maxInputBytes
        self.maxDepth = maxDepth
        self.maxObjects = maxObjects
        self.maxCollectionCount = maxCollectionCount
        self.maxStringBytes = maxStringBytes
        self.maxDataBytes = maxDataBytes
        self.maxMaterializedNodes = maxMaterializedNodes
    }

    /// The documented defaults.
    public static let `default` = PropertyListLimits()

    /// The deepest nesting any limit or writer may allow (`maxDepth` and the
    /// writers' `maxDepth`): 512, CoreFoundation's own bound, so nothing
    /// deeper would open on Apple's systems anyway. Limits may be lowered,
    /// never raised above it. Reading, comparing, printing and writing a value
    /// recurse once per level; the deepest paths measured take under 8 KB of
    /// stack per level in debug builds (under 2 KB in release), so 512 levels
    /// fit a main thread's 8 MiB stack with room to spare.
    /// See `Specs/value-model.md`, "Limits".
    public static let maxSupportedDepth = 512

    /// Checks that every bound can be honoured: none is negative, and
    /// `maxDepth` is at most ``maxSupportedDepth``. Every reader calls this
    /// before it reads a byte.
    ///
    /// - Throws: ``PropertyListError`` ``PropertyListError/Code/invalidLimits``
    ///   naming the first unusable bound.
    public func validate() throws(PropertyListError) {
        // invalidLimits: a negative bound means nothing; a depth beyond the
        // supported one would overflow the stack instead of being refused.
        let bounds = [
            ("maxInputBytes", maxInputBytes), ("maxDepth", maxDepth), ("maxObjects", maxObjects),
            ("maxCollectionCount", maxCollectionCount), ("maxStringBytes", maxStringBytes),
            ("maxDataBytes", maxDataBytes), ("maxMaterializedNodes", maxMaterializedNodes),
        ]
        for (name, value) in bounds where value < 0 {
            throw PropertyListError(.invalidLimits, "\(name) is \(value); limits are not negative")
        }
        try Self.validate(maxDepth: maxDepth)
    }

    /// Checks a writer's or reader's depth bound: between 0 and ``maxSupportedDepth``.
    ///
    /// - Throws: ``PropertyListError`` ``PropertyListError/Code/invalidLimits``.
    public static func validate(maxDepth: Int) throws(PropertyListError) {
        // invalidLimits
        guard maxDepth >= 0, maxDepth <= maxSupportedDepth else {
            throw PropertyListError(.invalidLimits, "maxDepth is \(maxDepth); it must be between 0 and \(maxSupportedDepth)")
        }
    }
}
