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
/// It is the one owner of its memory (Specs/architecture.md, "Memory"):
/// only the code in this file allocates, grows, initialises, moves and frees
/// it; anything else (``ByteSink``'s appends, an adapter's C call) writes its
/// spare room only through ``append(upTo:initializingWith:)`` and reads its
/// elements in bulk only through ``withElements(in:_:)``.
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
            precondition(UInt(bitPattern: index) < UInt(bitPattern: used), "index out of range")
            yield base[index]
        }
        _modify {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: used), "index out of range")
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

    /// Adds the element `make` returns at the end, built in its place.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(building make: () -> Element) {
        if used == capacity { grow(toHold: used + 1) }
        (base + used).initialize(to: make())
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
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func removeAll() {
        base.deinitialize(count: used)
        used = 0
    }

    /// Moves the elements to a block of at least `needed` elements
    /// (doubling, but to no more than `limit` when one is given, which must
    /// hold `needed`).
    @usableFromInline
    mutating func grow(toHold needed: Int, atMost limit: Int = .max) {
        precondition(needed <= limit, "growth past the limit")
        var grown = max(capacity * 2, 16)
        while grown < needed { grown *= 2 }
        grown = min(grown, limit)
        let larger = ScratchMemory.take(atLeast: grown * MemoryLayout<Element>.stride)
        let moved = larger.base.bindMemory(to: Element.self, capacity: larger.capacity / MemoryLayout<Element>.stride)
        moved.moveInitialize(from: base, count: used)
        ScratchMemory.give(block)
        block = larger
        base = moved
        capacity = larger.capacity / MemoryLayout<Element>.stride
    }
}

extension GrowableBuffer {
    /// The elements, as a span valid while the buffer is not mutated.
    @inlinable
    @_spi(ByteKit) public var span: Span<Element> {
        @_lifetime(borrow self)
        @inline(__always) borrowing get {
            let elements = unsafe Span(_unsafeStart: base, count: used)
            return unsafe _overrideLifetime(elements, borrowing: self)
        }
    }

    /// Removes the elements from `index` on, destroying them.
    @inlinable
    @_spi(ByteKit) public mutating func removeAll(from index: Int) {
        precondition(index >= 0 && index <= used, "index out of range")
        (base + index).deinitialize(count: used - index)
        used = index
    }

    /// Moves the elements from `index` on into a new array of exactly their
    /// count, and removes them here.
    @inlinable
    @_spi(ByteKit) public mutating func moveOut(from index: Int) -> [Element] {
        precondition(index >= 0 && index <= used, "index out of range")
        let moved = used - index
        guard moved > 0 else { return [] }
        let source = base + index
        used = index
        if moved >= 64 {
            // Many: one block move (`Array(unsafeUninitializedCapacity:)` looks
            // the array's storage type up at run time, measured on every call:
            // worth it only here).
            return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
                buffer.baseAddress!.moveInitialize(from: source, count: moved)
                initialized = moved
            }
        }
        // One to four: an array literal (allocated at its size at once, without
        // reserveCapacity's general path).
        switch moved {
        case 1: return [source.move()]
        case 2: return [source.move(), (source + 1).move()]
        case 3: return [source.move(), (source + 1).move(), (source + 2).move()]
        case 4: return [source.move(), (source + 1).move(), (source + 2).move(), (source + 3).move()]
        default: break
        }
        // Few: reserved, then appended one by one, specialised for the element type.
        var array: [Element] = []
        array.reserveCapacity(moved)
        for offset in 0..<moved { array.append((source + offset).move()) }
        return array
    }
}

extension GrowableBuffer where Element: BitwiseCopyable {
    /// How many more elements fit before the buffer grows.
    @inlinable @_spi(ByteKit) public var room: Int { capacity - used }

    /// Makes room for `more` elements after the current ones: grown by
    /// doubling, to hold at most `limit` elements in all when a limit is
    /// given (a caller that must not hold more than a cap, as a decompressor
    /// bounding its output).
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func reserve(room more: Int, atMost limit: Int = .max) {
        precondition(more >= 0)
        if more > capacity - used { grow(toHold: used + more, atMost: limit) }
    }

    /// Appends what `initialize` writes into room for `count` elements after
    /// the current ones (made first, by ``reserve(room:atMost:)``): it gets
    /// that room, uninitialised, and returns how many elements it wrote there,
    /// from the start, at most `count`. The one way the buffer's spare memory
    /// is written: the writers' appends and the adapters' C calls use it.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(upTo count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) -> Int) {
        // A negative count grows nothing and fails the check of what was written.
        if count > capacity &- used { grow(toHold: used &+ count) }
        let written = initialize(UnsafeMutableBufferPointer(start: base + used, count: count))
        precondition(written >= 0 && written <= count, "wrote past the room given")
        used += written
    }

    /// Calls `body` with the elements at `range` (within ``count``), valid during the call.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func withElements<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<Element>) -> R) -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= used, "range out of the buffer")
        return body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Forgets the elements after the first `count`.
    @inlinable
    @_spi(ByteKit) public mutating func removeLast(from count: Int) {
        precondition(count >= 0 && count <= used)
        used = count
    }

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
}

/// The per-object tables of a decoder that numbers its objects (the binary
/// reader): for each of `count` objects a plain fact, all zero at first, a
/// plain measure, written before it is read, and a slot for its value,
/// filled at most once, in any order, and released by `deinit`.
///
/// One block holds the facts, a bitmap of the filled slots, the measures and
/// the slots, reused from an earlier call up to ``ScratchMemory/largestKept``
/// (only the facts and the bitmap are cleared); beyond it, the facts and the
/// bitmap are `calloc`'d, so that the system commits their pages only as
/// objects are reached, and the rest is never touched before it is written.
/// The bitmap is the table's own record of which slots hold a value, so
/// releasing the table can never miss or double-free one. Writes go through
/// the table's memory (the methods are nonmutating), so that a decoder can
/// hold it as a constant.
@_spi(ByteKit) public struct ObjectTable<Fact: BitwiseCopyable, Measure: BitwiseCopyable, Value: ~Copyable>: ~Copyable {
    @usableFromInline let facts: UnsafeMutablePointer<Fact>
    @usableFromInline let filled: UnsafeMutablePointer<UInt64>
    @usableFromInline let measures: UnsafeMutablePointer<Measure>
    @usableFromInline let values: UnsafeMutablePointer<Value>
    /// The pooled block holding all of them, or nil when they were allocated apart.
    @usableFromInline let block: ScratchMemory.Buffer?
    /// The number of objects.
    @_spi(ByteKit) public let count: Int

    /// Tables for `count` objects: every fact zero, every slot empty.
    @_spi(ByteKit) public init(count: Int) {
        precondition(count >= 0)
        self.count = count
        let slots = max(count, 1)
        let factBytes = Self.rounded(slots * MemoryLayout<Fact>.stride)
        let bitmapBytes = Self.rounded((slots + 63) / 64 * 8)
        let measureBytes = Self.rounded(slots * MemoryLayout<Measure>.stride)
        let valueBytes = slots * MemoryLayout<Value>.stride
        let cleared = factBytes + bitmapBytes
        if cleared + measureBytes + valueBytes <= ScratchMemory.largestKept {
            let taken = ScratchMemory.take(atLeast: cleared + measureBytes + valueBytes)
            ScratchMemory.clear(taken.base, bytes: cleared)
            block = taken
            facts = taken.base.bindMemory(to: Fact.self, capacity: slots)
            filled = (taken.base + factBytes).bindMemory(to: UInt64.self, capacity: bitmapBytes / 8)
            measures = (taken.base + cleared).bindMemory(to: Measure.self, capacity: slots)
            values = (taken.base + cleared + measureBytes).bindMemory(to: Value.self, capacity: slots)
        } else {
            let zeroed = ScratchMemory.zeroedAllocation(bytes: cleared)
            block = nil
            facts = zeroed.bindMemory(to: Fact.self, capacity: slots)
            filled = (zeroed + factBytes).bindMemory(to: UInt64.self, capacity: bitmapBytes / 8)
            measures = .allocate(capacity: slots)
            values = .allocate(capacity: slots)
        }
    }

    /// `bytes` rounded up to a multiple of 16 (the alignment of every part).
    private static func rounded(_ bytes: Int) -> Int { (bytes + 15) & ~15 }

    deinit {
        for word in 0..<((count + 63) / 64) where filled[word] != 0 {
            var bits = filled[word]
            while bits != 0 {
                (values + word * 64 + bits.trailingZeroBitCount).deinitialize(count: 1)
                bits &= bits - 1
            }
        }
        if let block {
            ScratchMemory.give(block)
        } else {
            values.deallocate()
            measures.deallocate()
            ScratchMemory.freeZeroed(UnsafeMutableRawPointer(facts))
        }
    }

    /// `index`, checked to number an object of the table.
    @inlinable @inline(__always)
    func checked(_ index: Int) -> Int {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "object out of range")
        return index
    }

    /// Object `index`'s fact.
    @inlinable
    @_spi(ByteKit) public subscript(fact index: Int) -> Fact {
        @inline(__always) get { facts[checked(index)] }
        @inline(__always) nonmutating set { facts[checked(index)] = newValue }
    }

    /// Object `index`'s measure (meaningful once written).
    @inlinable
    @_spi(ByteKit) public subscript(measure index: Int) -> Measure {
        @inline(__always) get { measures[checked(index)] }
        @inline(__always) nonmutating set { measures[checked(index)] = newValue }
    }

    /// True when object `index`'s slot holds a value.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func isFilled(_ index: Int) -> Bool {
        filled[checked(index) &>> 6] & (1 &<< UInt64(index & 63)) != 0
    }

    /// Puts `value` in object `index`'s empty slot.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func fill(_ index: Int, with value: consuming Value) {
        precondition(!isFilled(index), "slot filled twice")
        (values + index).initialize(to: value)
        filled[index &>> 6] |= 1 &<< UInt64(index & 63)
    }

    /// The value in object `index`'s filled slot.
    @inlinable
    @_spi(ByteKit) public subscript(value index: Int) -> Value {
        @inline(__always) _read {
            precondition(isFilled(index), "slot not filled")
            yield values[index]
        }
    }
}
