@_spi(ByteKit) internal import PropertyList
internal import CLibXML2Bridge

/// The C library's `printf("%.17g")` and `strtod`, through the bridge: the
/// reference spelling of reals outside ``RealText``'s fast path (exponent
/// notation, subnormals), and the reference reading of decimal texts outside
/// ``ScalarText/real(_:)``'s.
enum CFormat {
    /// `strtod` in the C locale of all of `text` (a decimal number, checked by
    /// the caller); nil if it did not read all of it. Read in place through
    /// the bridge; a text the bridge cannot take (64 bytes or more: digits no
    /// double needs) goes through a `String` to the same `strtod` (Swift's
    /// `Double(String)`).
    static func parseDouble(_ text: Span<UInt8>) -> Double? {
        var value = 0.0
        let read = unsafe text.withUnsafeBufferPointer { buffer in
            activitycodec_parse_double(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), buffer.count, &value)
        }
        switch read {
        case 1: return value
        case 0: return nil
        default: return Double(text.bytes.decodedString)
        }
    }

    /// Appends `%.17g` of `real`.
    static func appendG17(_ real: Double, to out: inout ByteSink) {
        // "%.17g" needs at most 24 bytes ("-1.2345678901234567e-308" and a NUL).
        var text = InlineArray<32, UInt8>(repeating: 0)
        var span = text.mutableSpan
        let length = unsafe span.withUnsafeMutableBufferPointer { buffer in
            Int(activitycodec_format_g17(UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), 32, real))
        }
        out.append(text.span.extracting(0..<min(max(length, 0), 31)))
    }
}
