public import PropertyList

/// The size budget of an encoded userInfo. See `Specs/payload.md`, "Size budget".
public struct SizeBudget: Sendable, Hashable {
    /// Above this many bytes the encoder warns. Default 3 KB (3,072), Apple's advice.
    public var softLimit: Int
    /// Above this many bytes encoding fails with ``ErrorCode/overBudget``; nil for none.
    public var hardLimit: Int?

    public init(softLimit: Int = 3072, hardLimit: Int? = nil) {
        (self.softLimit, self.hardLimit) = (softLimit, hardLimit)
    }

    /// Checks the budget itself: no negative limit.
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/invalidBudget``.
    public func validate() throws(PayloadError) {
        // invalidBudget
        guard softLimit >= 0, (hardLimit ?? 0) >= 0 else {
            throw PayloadError(.invalidBudget, "a size budget's limits are not negative (soft \(softLimit), hard \(hardLimit.map(String.init) ?? "none"))")
        }
    }

    /// Checks an encoded userInfo's size against the hard limit: the one place
    /// the budget is enforced (``PayloadCodec/encode(_:)``, `plistkit payload check`).
    ///
    /// - Throws: ``PayloadError`` ``ErrorCode/overBudget``.
    public func check(_ size: Int) throws(PayloadError) {
        // overBudget(size:limit:)
        if let hardLimit, size > hardLimit {
            throw PayloadError(.overBudget, "overBudget(size: \(size), limit: \(hardLimit))")
        }
    }

    /// The warnings for a size: one when it is over the soft limit.
    public func warnings(for size: Int) -> [String] {
        size > softLimit ? ["userInfo is \(size) bytes, over the advised \(softLimit)"] : []
    }
}

/// What a userInfo costs, from its real encoded form.
public struct CostReport: Sendable, Hashable {
    /// One key path and the bytes removing it saves.
    public struct Entry: Sendable, Hashable {
        public var keyPath: PropertyListKeyPath
        public var bytes: Int
    }

    /// Bytes of the encoded userInfo, in the form it travels in (MP or keyed archive).
    public var total: Int
    /// Every dictionary key path, largest cost first (ties in key-path order);
    /// empty unless requested (``PayloadCodec/reportsCostPerKeyPath``).
    public var entries: [Entry]
    /// Human warnings (over the soft limit).
    public var warnings: [String]
}
