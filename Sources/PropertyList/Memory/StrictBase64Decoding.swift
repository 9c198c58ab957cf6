package import FoundationEssentials

// The strict base64 decoder's loop (StrictBase64.swift holds its rules'
// statement and alphabet): in the byte kit, as it writes raw memory
// (Specs/architecture.md, "Memory").

extension StrictBase64 {
    /// Decodes UTF-8 bytes; see ``decode(_:skippingWhitespace:)-(String,_)``.
    ///
    /// Decoded into temporary room for every symbol (on the stack when it is
    /// small), then copied into the `Data` returned: a group of four symbols
    /// with no padding or whitespace in it is three bytes stored at once
    /// (measured: with a growing buffer in between and the bytes stored one by
    /// one, 26 instructions a symbol of the userInfo pack's data).
    package static func decode(_ bytes: Span<UInt8>, skippingWhitespace: Bool) -> Data? {
        // Three bytes per four symbols, and one more for the last group's
        // four-byte store.
        let room = bytes.count / 4 * 3 + 1
        return unsafe bytes.withUnsafeBufferPointer { input in
            unsafe withUnsafeTemporaryAllocation(byteCount: room, alignment: 1) { target in
                guard let written = unsafe Self.decode(input, into: target.baseAddress!, skippingWhitespace: skippingWhitespace) else {
                    return nil
                }
                return unsafe Data(bytes: target.baseAddress!, count: written)
            }
        }
    }

    /// Decodes `input` into `target` (room for `input.count / 4 * 3 + 1`
    /// bytes); returns how many bytes it decoded, or nil when `input` is not
    /// strict base64.
    @inline(__always)
    private static func decode(_ input: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableRawPointer,
                               skippingWhitespace: Bool) -> Int? {
        unsafe sextet.withUnsafeBufferPointer { sextet in
            let count = input.count
            var index = 0
            var written = 0
            var quad: UInt32 = 0
            var symbols = 0
            var padding = 0
            while index < count {
                // A whole group of four symbols, no padding or whitespace in it: three bytes at once.
                if symbols & 3 == 0, index &+ 4 <= count {
                    let a = UInt32(unsafe sextet[Int(input[index])]), b = UInt32(unsafe sextet[Int(input[index &+ 1])])
                    let c = UInt32(unsafe sextet[Int(input[index &+ 2])]), d = UInt32(unsafe sextet[Int(input[index &+ 3])])
                    if a | b | c | d < 64 {
                        // A symbol after padding.
                        guard padding == 0 else { return nil }
                        let group = a &<< 18 | b &<< 12 | c &<< 6 | d
                        unsafe (target + written).storeBytes(of: (group &<< 8).bigEndian, as: UInt32.self)
                        written &+= 3
                        symbols &+= 4
                        index &+= 4
                        continue
                    }
                }
                let digit = unsafe sextet[Int(input[index])]
                index &+= 1
                if digit < 64 {
                    // A symbol after padding.
                    guard padding == 0 else { return nil }
                    quad = quad &<< 6 | UInt32(digit)
                } else if digit == padSymbol {
                    // Padding only in the last two places of a group.
                    padding &+= 1
                    guard symbols & 3 >= 2, padding <= 2 else { return nil }
                    quad &<<= 6
                } else if digit == whitespace && skippingWhitespace {
                    continue
                } else {
                    return nil
                }
                symbols &+= 1
                if symbols & 3 == 0 {
                    unsafe (target + written).storeBytes(of: (quad &<< 8).bigEndian, as: UInt32.self)
                    written &+= 3
                    if padding > 0 {
                        // Zero bits after the last symbol: 4 of them with "==", 2 with "=".
                        let unused: UInt32 = padding == 2 ? 0xFFFF : 0xFF
                        guard quad & unused == 0 else { return nil }
                    }
                    quad = 0
                }
            }
            guard symbols & 3 == 0 else { return nil }
            return written &- padding
        }
    }
}
