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
@_spi(ByteKit) public enum ScratchMemory {
    /// One buffer: `capacity` bytes at `base`, uninitialised.
    @_spi(ByteKit) public struct Buffer: @unchecked Sendable {
        @_spi(ByteKit) public let base: UnsafeMutableRawPointer
        @_spi(ByteKit) public let capacity: Int
    }

    /// Buffers at least this large are pooled.
    @_spi(ByteKit) public static let smallestKept = 64 << 10
    /// Buffers larger than this are not.
    @_spi(ByteKit) public static let largestKept = 8 << 20
    /// How many buffers are kept at most.
    static let keptCount = 4

    private static let pool = Mutex<[Buffer]>([])

    /// A buffer of at least `bytes` bytes: the smallest kept one that is large
    /// enough, or a new one.
    @_spi(ByteKit) public static func take(atLeast bytes: Int) -> Buffer {
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
    @_spi(ByteKit) public static func give(_ buffer: Buffer) {
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

    /// Sets `bytes` bytes at `base` to zero.
    @_spi(ByteKit) public static func clear(_ base: UnsafeMutableRawPointer, bytes: Int) {
        memset(base, 0, bytes)
    }

    /// `bytes` zeroed bytes from `calloc`: pages the caller never writes are never committed.
    @_spi(ByteKit) public static func zeroedAllocation(bytes: Int) -> UnsafeMutableRawPointer {
        guard let memory = calloc(max(bytes, 1), 1) else { preconditionFailure("out of memory for \(bytes) bytes") }
        return memory
    }

    /// Frees memory from ``zeroedAllocation(bytes:)``.
    @_spi(ByteKit) public static func freeZeroed(_ memory: UnsafeMutableRawPointer) {
        free(memory)
    }
}
