/// The kit's one growable buffer: a frame stack, a scratch table or an output
/// sink (``ByteSink``), owned by one reader or writer for one call.
///
/// It cannot be copied, so its memory has exactly one owner and is released
/// exactly once, by `deinit`, whatever error ended the call. Elements are
/// initialised in place by ``append(_:)``, mutated in place through the
/// subscript and moved out by ``removeLast()``: never copied, which matters
/// for frames holding collections (measured before this kit: copying and
/// destroying frames held in an `Array` took a sixth of MP and of binary
/// decoding). Every index is checked. Growth doubles; the memory comes from
/// ``ScratchMemory``, so that a large buffer is reused by the next call
/// instead of being faulted in anew.
///
/// All of its raw memory access is in this file (Specs/architecture.md,
/// "Memory").
@_spi(ByteKit) public struct GrowableBuffer<Element: ~Copyable>: ~Copyable {
    @usableFromInline var block: ScratchMemory.Buffer
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// An empty buffer with room for `capacity` elements.
    @inlinable
    @_spi(ByteKit) public init(capacity: Int = 16) {
        let wanted = max(capacity, 1)
        block = ScratchMemory.take(atLeast: wanted * MemoryLayout<Element>.stride)
        self.capacity = block.capacity / MemoryLayout<Element>.stride
        base = block.base.bindMemory(to: Element.self, capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: used)
        ScratchMemory.give(block)
    }

    /// The number of elements.
    @inlinable @_spi(ByteKit) public var count: Int { used }
    /// True when there are no elements.
    @inlinable @_spi(ByteKit) public var isEmpty: Bool { used == 0 }

    /// The element at `index` (below ``count``), read or mutated in place.
    @inlinable
    @_spi(ByteKit) public subscript(index: Int) -> Element {
        _read {
            precondition(index >= 0 && index < used, "index out of range")
            yield base[index]
        }
        _modify {
            precondition(index >= 0 && index < used, "index out of range")
            yield &base[index]
        }
    }

    /// Adds `element` at the end, initialised in place.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(_ element: consuming Element) {
        if used == capacity { grow(toHold: used + 1) }
        (base + used).initialize(to: element)
        used += 1
    }

    /// Removes the last element and returns it (moved, not copied).
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func removeLast() -> Element {
        precondition(used > 0, "removeLast of an empty buffer")
        used -= 1
        return (base + used).move()
    }

    /// Removes every element, keeping the memory.
    @_spi(ByteKit) public mutating func removeAll() {
        base.deinitialize(count: used)
        used = 0
    }

    /// Moves the elements to a block of at least `needed` elements (doubling).
    @usableFromInline
    mutating func grow(toHold needed: Int) {
        var grown = max(capacity * 2, 16)
        while grown < needed { grown *= 2 }
        let larger = ScratchMemory.take(atLeast: grown * MemoryLayout<Element>.stride)
        let moved = larger.base.bindMemory(to: Element.self, capacity: larger.capacity / MemoryLayout<Element>.stride)
        moved.moveInitialize(from: base, count: used)
        ScratchMemory.give(block)
        block = larger
        base = moved
        capacity = larger.capacity / MemoryLayout<Element>.stride
    }
}

extension GrowableBuffer where Element: BitwiseCopyable {
    /// `count` copies of `element`.
    @inlinable
    @_spi(ByteKit) public init(repeating element: Element, count: Int) {
        self.init(capacity: count)
        base.initialize(repeating: element, count: count)
        used = count
    }

    /// Adds `more` copies of `element` at the end.
    @inlinable
    @_spi(ByteKit) public mutating func append(repeating element: Element, count more: Int) {
        precondition(more >= 0)
        if more > capacity - used { grow(toHold: used + more) }
        (base + used).initialize(repeating: element, count: more)
        used += more
    }

    /// The elements, as a span valid while the buffer is not mutated.
    @_spi(ByteKit) public var span: Span<Element> {
        @_lifetime(borrow self)
        borrowing get {
            let elements = unsafe Span(_unsafeStart: base, count: used)
            return unsafe _overrideLifetime(elements, borrowing: self)
        }
    }
}

/// A table of `count` slots whose elements are initialised one by one, in
/// any order, and released by `deinit`: the binary reader's decoded values,
/// one slot per object, filled only for the objects reached.
///
/// Which slots hold an element is the table's own record (one bit per slot),
/// so that releasing the table can never miss or double-free an element.
@_spi(ByteKit) public struct SlotTable<Element: ~Copyable>: ~Copyable {
    @usableFromInline let block: ScratchMemory.Buffer?
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline var filled: GrowableBuffer<UInt64>
    /// The number of slots.
    @_spi(ByteKit) public let count: Int

    /// `count` empty slots. Up to ``ScratchMemory/largestKept`` their memory is
    /// reused from an earlier call; beyond it, memory is committed only for
    /// the slots used.
    @_spi(ByteKit) public init(count: Int) {
        self.count = count
        let bytes = max(count, 1) * MemoryLayout<Element>.stride
        if bytes <= ScratchMemory.largestKept {
            let taken = ScratchMemory.take(atLeast: bytes)
            block = taken
            base = taken.base.bindMemory(to: Element.self, capacity: max(count, 1))
        } else {
            block = nil
            base = .allocate(capacity: count)
        }
        filled = GrowableBuffer(repeating: 0, count: (count + 63) / 64)
    }

    deinit {
        for word in 0..<filled.count where filled[word] != 0 {
            var bits = filled[word]
            while bits != 0 {
                (base + word * 64 + bits.trailingZeroBitCount).deinitialize(count: 1)
                bits &= bits - 1
            }
        }
        if let block { ScratchMemory.give(block) } else { base.deallocate() }
    }

    /// True when slot `index` holds an element.
    @inlinable
    @_spi(ByteKit) public func isFilled(_ index: Int) -> Bool {
        precondition(index >= 0 && index < count, "slot out of range")
        return filled[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Puts `element` in the empty slot `index`.
    @inlinable
    @_spi(ByteKit) public mutating func fill(_ index: Int, with element: consuming Element) {
        precondition(!isFilled(index), "slot already filled")
        (base + index).initialize(to: element)
        filled[index >> 6] |= 1 << UInt64(index & 63)
    }

    /// The element in the filled slot `index`.
    @inlinable
    @_spi(ByteKit) public subscript(index: Int) -> Element {
        _read {
            precondition(isFilled(index), "slot not filled")
            yield base[index]
        }
    }
}

/// A table of `count` plain values, all zero at first: the binary reader's
/// per-object facts. Up to ``ScratchMemory/largestKept`` the memory is
/// reused from an earlier call and cleared; beyond it, it is `calloc`'d, so
/// that the system commits pages only as slots are written.
@_spi(ByteKit) public struct ZeroedTable<Element: BitwiseCopyable>: ~Copyable {
    @usableFromInline let block: ScratchMemory.Buffer?
    @usableFromInline let base: UnsafeMutablePointer<Element>
    /// The number of slots.
    @_spi(ByteKit) public let count: Int

    /// `count` slots of all-zero bits (which the element type must read as its empty value).
    @_spi(ByteKit) public init(count: Int) {
        self.count = count
        let bytes = max(count, 1) * MemoryLayout<Element>.stride
        if bytes <= ScratchMemory.largestKept {
            let taken = ScratchMemory.take(atLeast: bytes)
            block = taken
            ScratchMemory.clear(taken.base, bytes: bytes)
            base = taken.base.bindMemory(to: Element.self, capacity: max(count, 1))
        } else {
            block = nil
            base = ScratchMemory.zeroedAllocation(bytes: bytes).bindMemory(to: Element.self, capacity: count)
        }
    }

    deinit {
        if let block { ScratchMemory.give(block) } else { ScratchMemory.freeZeroed(UnsafeMutableRawPointer(base)) }
    }

    /// The value in slot `index`.
    @inlinable
    @_spi(ByteKit) public subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "slot out of range")
            return base[index]
        }
        @inline(__always) nonmutating set {
            precondition(index >= 0 && index < count, "slot out of range")
            base[index] = newValue
        }
    }
}
