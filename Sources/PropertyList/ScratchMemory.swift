#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Large scratch buffers kept from one call to the next: the binary reader's
/// per-object tables and the writers' growing output (Specs/value-model.md,
/// "Memory").
///
/// Memory the process has not touched before costs a page fault on every 4 KiB
/// of it, and the C allocator hands large blocks back to the system when they
/// are freed, so a reader or writer that allocates a few megabytes of scratch
/// per call pays those faults again on every call (measured: 1,284 faults, a
/// third of the time, per decode of numbers.bplist; 2,070 per binary encode of
/// unicode.bplist). Buffers from 64 KiB to 8 MiB are kept here instead, at most
/// four (32 MiB in all), and reused by whichever thread asks next. Smaller
/// buffers are the allocator's own fast path; larger ones are not kept.
package enum ScratchMemory {
    /// One buffer: `capacity` bytes at `base`, uninitialised.
    package struct Buffer: @unchecked Sendable {
        package let base: UnsafeMutableRawPointer
        package let capacity: Int
    }

    /// Buffers at least this large are pooled.
    package static let smallestKept = 64 << 10
    /// Buffers larger than this are not.
    package static let largestKept = 8 << 20
    /// How many buffers are kept at most.
    static let keptCount = 4

    private static let pool = Mutex<[Buffer]>([])

    /// A buffer of at least `bytes` bytes: the smallest kept one that is large
    /// enough, or a new one.
    package static func take(atLeast bytes: Int) -> Buffer {
        let wanted = max(bytes, 1)
        if wanted >= smallestKept / 2 && wanted <= largestKept {
            let kept: Buffer? = pool.withLock { buffers in
                var best: Int? = nil
                for (i, buffer) in buffers.enumerated() where buffer.capacity >= wanted {
                    if best == nil || buffer.capacity < buffers[best!].capacity { best = i }
                }
                guard let best else { return nil }
                return buffers.remove(at: best)
            }
            if let kept { return kept }
        }
        guard let base = malloc(wanted) else { preconditionFailure("out of memory for \(wanted) bytes of scratch") }
        return Buffer(base: base, capacity: wanted)
    }

    /// Returns a buffer from ``take(atLeast:)``: kept for the next caller when
    /// its size is in the kept range and there is room (replacing a smaller
    /// one when there is not), freed otherwise.
    package static func give(_ buffer: Buffer) {
        guard buffer.capacity >= smallestKept && buffer.capacity <= largestKept else {
            free(buffer.base)
            return
        }
        let freed: Buffer? = pool.withLock { buffers in
            if buffers.count < keptCount {
                buffers.append(buffer)
                return nil
            }
            // Full: keep the larger of this one and the smallest kept.
            var smallest = 0
            for i in buffers.indices where buffers[i].capacity < buffers[smallest].capacity { smallest = i }
            guard buffers[smallest].capacity < buffer.capacity else { return buffer }
            let dropped = buffers[smallest]
            buffers[smallest] = buffer
            return dropped
        }
        if let freed { free(freed.base) }
    }
}

/// A growable array of plain values in ``ScratchMemory``: a writer's tables
/// (objects, references, the scalar index) that live for one call. Indexes
/// are checked; growth doubles, moving the elements to a larger buffer.
package struct ScratchArray<Element: BitwiseCopyable>: ~Copyable {
    private var buffer: ScratchMemory.Buffer
    private var elements: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    package private(set) var count = 0

    /// An empty array with room for `capacity` elements.
    package init(capacity: Int = 16) {
        let wanted = max(capacity, 1)
        buffer = ScratchMemory.take(atLeast: wanted * MemoryLayout<Element>.stride)
        self.capacity = buffer.capacity / MemoryLayout<Element>.stride
        elements = buffer.base.bindMemory(to: Element.self, capacity: self.capacity)
    }

    /// `count` copies of `element`.
    package init(repeating element: Element, count: Int) {
        self.init(capacity: count)
        elements.initialize(repeating: element, count: count)
        self.count = count
    }

    deinit { ScratchMemory.give(buffer) }

    package subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "index out of range")
            return elements[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "index out of range")
            elements[index] = newValue
        }
    }

    @inline(__always)
    package mutating func append(_ element: Element) {
        if count == capacity { grow(toHold: count + 1) }
        elements[count] = element
        count += 1
    }

    package mutating func append(repeating element: Element, count more: Int) {
        precondition(more >= 0)
        if more > capacity - count { grow(toHold: count + more) }
        (elements + count).initialize(repeating: element, count: more)
        count += more
    }

    private mutating func grow(toHold needed: Int) {
        var grown = max(capacity * 2, 16)
        while grown < needed { grown *= 2 }
        let larger = ScratchMemory.take(atLeast: grown * MemoryLayout<Element>.stride)
        let moved = larger.base.bindMemory(to: Element.self, capacity: larger.capacity / MemoryLayout<Element>.stride)
        moved.initialize(from: elements, count: count)
        ScratchMemory.give(buffer)
        buffer = larger
        elements = moved
        capacity = larger.capacity / MemoryLayout<Element>.stride
    }
}
