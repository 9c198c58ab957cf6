internal import CBZip2
@_spi(ByteKit) import PropertyList

/// The one place libbz2 is called (Specs/activity-container.md, "Compression").
/// Package-visible for the fuzz mutators, which build compressed containers
/// from mutated fields (`FuzzChecks`, `ContainerMutation`).
package enum Bzip2 {
    /// Why inflating stopped.
    enum InflateFailure: Error {
        /// The output passed `cap` bytes.
        case tooLarge
        /// Not exactly one whole bzip2 stream: libbz2's error code, or data after its end (0).
        case corrupt(Int32, String)
    }

    /// Inflates one whole bzip2 stream, streaming into the kit's buffer
    /// (``ByteSink``), which never grows past `cap + 1` bytes and of which
    /// libbz2 is never given more: a bomb costs at most `cap` bytes of output
    /// and libbz2's own state (small mode: under 2.5 MB for any block size).
    static func inflate(_ input: RawSpan, cap: Int) -> Result<[UInt8], InflateFailure> {
        unsafe input.withUnsafeBytes { inflate(raw: $0, cap: cap) }
    }

    private static func inflate(raw input: UnsafeRawBufferPointer, cap: Int) -> Result<[UInt8], InflateFailure> {
        var stream = bz_stream()
        // small = 1: libbz2's low-memory decoder, ~2.3 MB at block size 9.
        guard BZ2_bzDecompressInit(&stream, 0, 1) == BZ_OK else {
            return .failure(.corrupt(BZ_MEM_ERROR, "libbz2 could not start"))
        }
        defer { BZ2_bzDecompressEnd(&stream) }
        guard let start = input.baseAddress, input.count > 0 else {
            return .failure(.corrupt(BZ_UNEXPECTED_EOF, "no bzip2 stream"))
        }
        guard input.count <= Int(UInt32.max) else { return .failure(.tooLarge) }
        stream.next_in = UnsafeMutablePointer(mutating: start.assumingMemoryBound(to: CChar.self))
        stream.avail_in = UInt32(input.count)
        // One byte over the cap is enough to refuse.
        let limit = cap + 1
        var output = ByteSink(capacity: min(limit, max(4096, input.count * 4)))
        while true {
            if output.room == 0 {
                guard output.count < limit else { return .failure(.tooLarge) }
                // Doubling, never past the limit.
                output.reserve(room: 1, atMost: limit)
            }
            // libbz2 gets the room there is, up to the limit (a pooled buffer may be larger).
            let room = min(output.room, limit - output.count)
            let inputLeft = stream.avail_in
            var status: Int32 = BZ_OK
            output.append(upTo: room) { target in
                stream.next_out = UnsafeMutableRawPointer(target.baseAddress!).assumingMemoryBound(to: CChar.self)
                stream.avail_out = UInt32(room)
                status = BZ2_bzDecompress(&stream)
                return room - Int(stream.avail_out)
            }
            if output.count > cap { return .failure(.tooLarge) }
            switch status {
            case BZ_STREAM_END:
                // Exactly one stream: nothing after its end.
                guard stream.avail_in == 0 else {
                    return .failure(.corrupt(0, "\(stream.avail_in) bytes follow the bzip2 stream"))
                }
                return .success(output.takeBytes())
            case BZ_OK:
                // Input used up without the end of the stream: it was cut short.
                if stream.avail_in == 0 && stream.avail_out > 0 {
                    return .failure(.corrupt(BZ_UNEXPECTED_EOF, "the bzip2 stream ends early"))
                }
                // No progress at all would loop forever: refuse instead.
                if stream.avail_in == inputLeft && Int(stream.avail_out) == room {
                    return .failure(.corrupt(BZ_DATA_ERROR, "libbz2 made no progress"))
                }
            default:
                return .failure(.corrupt(status, Self.describe(status)))
            }
        }
    }

    /// Compresses as Apple's sender does: block size 1 (`BZh1`), work factor
    /// 200. Nil unless the result is strictly smaller than the input.
    static func deflate(_ input: [UInt8]) -> [UInt8]? {
        guard input.count > 1 else { return nil }
        // BZ_OUTBUFF_FULL: not smaller, so not kept.
        return compress(input, capacity: input.count - 1, blockSize: 1)
    }

    /// `input` compressed at `blockSize` (1–9) whatever the result's size;
    /// nil on a libbz2 error. For the fuzz mutators.
    package static func compressed(_ input: [UInt8], blockSize: Int32 = 1) -> [UInt8]? {
        // libbz2's documented bound: 1% more than the input, plus 600 bytes.
        compress(input, capacity: input.count + input.count / 100 + 600, blockSize: blockSize)
    }

    /// One whole bzip2 stream inflated, at most `cap` bytes; nil otherwise. For the fuzz mutators.
    package static func inflated(_ input: [UInt8], cap: Int) -> [UInt8]? {
        try? input.withUnsafeBytes { inflate(raw: $0, cap: cap) }.get()
    }

    private static func compress(_ input: [UInt8], capacity: Int, blockSize: Int32) -> [UInt8]? {
        guard !input.isEmpty, input.count <= Int(UInt32.max), capacity > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: capacity)
        var length = UInt32(output.count)
        let status = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { destination in
                BZ2_bzBuffToBuffCompress(
                    destination.baseAddress!.assumingMemoryBound(to: CChar.self), &length,
                    UnsafeMutablePointer(mutating: source.baseAddress!.assumingMemoryBound(to: CChar.self)),
                    UInt32(input.count), blockSize, 0, 200)
            }
        }
        guard status == BZ_OK else { return nil }
        output.removeLast(output.count - Int(length))
        return output
    }

    private static func describe(_ status: Int32) -> String {
        switch status {
        case BZ_DATA_ERROR_MAGIC: return "not a bzip2 stream (no BZh header)"
        case BZ_DATA_ERROR: return "the bzip2 stream is corrupt (bad block or checksum)"
        case BZ_MEM_ERROR: return "libbz2 ran out of memory"
        default: return "libbz2 error \(status)"
        }
    }
}
