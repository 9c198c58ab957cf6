@_spi(ByteKit) internal import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `printf("%.17g")` of a double, exactly, without printf for the common
/// magnitudes (Specs/xml-plist.md, "Writer speed").
///
/// `%.17g` writes the double's exact binary value rounded (half to even) to
/// 17 significant digits, in fixed notation when the decimal exponent X is in
/// −4…16, trailing zeros and a bare point dropped. For 10⁻⁴ ≤ |v| < 10¹⁶
/// those digits are one 128-bit product and shift: v = m·2ᵉ with m < 2⁵³, so
/// v·10ᵏ = m·5ᵏ·2ᵉ⁺ᵏ, and for the k needed (at most 21) m·5ᵏ < 2¹⁰³. Other
/// magnitudes (exponent notation, subnormals) go to the C library, which is
/// also the reference the tests compare with, on a million values.
/// (Measured: glibc's `snprintf("%.17g")` takes about 220 ns a real here;
/// numbers.xml's 60,000 reals were 70% of writing it.)
enum RealText {
    /// 5⁰ … 5²¹.
    private static let powersOfFive: [UInt64] = {
        var powers: [UInt64] = [1]
        for _ in 1...21 { powers.append(powers.last! * 5) }
        return powers
    }()

    private static let low: UInt64 = 10_000_000_000_000_000   // 10¹⁶: the smallest 17-digit number
    private static let high: UInt64 = 100_000_000_000_000_000 // 10¹⁷

    /// Appends `%.17g` of a finite, non-zero `real`.
    static func appendG17(_ real: Double, to out: inout ByteSink) {
        if !appendFixed(real, to: &out) {
            // Exponent notation and subnormals: the C library's own.
            CFormat.appendG17(real, to: &out)
        }
    }

    /// The fast path: false (nothing written) outside 10⁻⁴ ≤ |v| < 10¹⁶.
    static func appendFixed(_ real: Double, to out: inout ByteSink) -> Bool {
        let magnitude = real.magnitude
        guard magnitude >= 1e-4, magnitude < 1e16 else { return false }
        // Normal here: m·2ᵉ with the implicit bit.
        let m = magnitude.significandBitPattern | 1 << 52
        let e = Int(magnitude.exponent) - 52
        // X, the decimal exponent: estimated, then corrected by the digits' count.
        var exponent = Int(log10(magnitude).rounded(.down))
        var digits: UInt64 = 0
        var settled = false
        for _ in 0..<4 {
            let k = 16 - exponent
            guard k >= 0 && k <= 21 else { return false }
            digits = scaled(m, e, k)
            if digits >= high {
                // Exactly 10¹⁷ after rounding: the value rounds up to the next power of ten.
                if digits == high { digits = low; exponent += 1; settled = true; break }
                exponent += 1
            } else if digits < low {
                exponent -= 1
            } else {
                settled = true
                break
            }
        }
        guard settled else { return false }
        // The 17 digits, most significant first.
        var d = InlineArray<17, UInt8>(repeating: 0)
        var rest = digits
        for i in stride(from: 16, through: 0, by: -1) {
            d[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        // Trailing zeros are not written (%g without #).
        var last = 16
        while last > 0 && d[last] == UInt8(ascii: "0") { last -= 1 }
        if real.sign == .minus { out.append(UInt8(ascii: "-")) }
        let text = d.span
        if exponent >= 0 {
            // X + 1 integer digits, then the fraction if any remains.
            out.append(text.extracting(0..<(exponent + 1)))
            if last > exponent {
                out.append(UInt8(ascii: "."))
                out.append(text.extracting((exponent + 1)...last))
            }
        } else {
            // 0.000ddd: −X − 1 zeros after the point.
            out.append("0.")
            out.append(repeating: UInt8(ascii: "0"), count: -exponent - 1)
            out.append(text.extracting(0...last))
        }
        return true
    }

    /// m·2ᵉ·10ᵏ rounded half to even (k ≤ 21, and small enough a result to fit).
    @inline(__always)
    private static func scaled(_ m: UInt64, _ e: Int, _ k: Int) -> UInt64 {
        let product = UInt128(m) * UInt128(powersOfFive[k])
        let shift = e + k
        if shift >= 0 {
            // An integer already; at most 10¹⁷·2 here, so the shift cannot overflow 128 bits.
            return UInt64(truncatingIfNeeded: product << shift)
        }
        let right = -shift  // 1…127: e ≥ −66 for |v| ≥ 10⁻⁴
        let quotient = product >> right
        let remainder = product & ((1 << right) - 1)
        let half = UInt128(1) << (right - 1)
        let up = remainder > half || (remainder == half && quotient & 1 == 1)
        return UInt64(truncatingIfNeeded: quotient) &+ (up ? 1 : 0)
    }
}
