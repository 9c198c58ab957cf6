import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The text forms of scalar elements (Specs/xml-plist.md, "Values").
enum ScalarText {
    /// The value of a scalar element from its text, read as bytes: only a
    /// `<string>` (and an error message) becomes a `String`.
    static func value(_ kind: PlistGrammar.ScalarKind, _ text: Span<UInt8>, maxDataBytes: Int) throws(PropertyListError) -> PropertyListValue {
        func shown() -> String { text.bytes.decodedString }
        switch kind {
        case .string:
            try checkLeadingByteOrderMark(utf8: text)
            return .string(string(checkedUTF8: text))
        case .trueValue: return .bool(true)
        case .falseValue: return .bool(false)
        case .integer:
            guard let integer = integer(text) else {
                throw PropertyListError(.invalidInteger, "\"\(shown())\" is not an integer in [-2^63, 2^64)")
            }
            return .integer(integer)
        case .real:
            guard let real = real(text) else {
                throw PropertyListError(.invalidReal, "\"\(shown())\" is not a real")
            }
            return .real(real)
        case .date:
            guard let seconds = CivilTime.secondsSinceReference(appleText: text) else {
                throw PropertyListError(.invalidDate, "\"\(shown())\" is not a date YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .data:
            guard let data = StrictBase64.decode(text, skippingWhitespace: true) else {
                throw PropertyListError(.invalidData, "<data> is not padded base64")
            }
            // dataLimitExceeded
            guard data.count <= maxDataBytes else {
                throw PropertyListError(.dataLimitExceeded, "data of \(data.count) bytes, over the limit of \(maxDataBytes)")
            }
            return .data(data)
        case .key:
            preconditionFailure("keys are not values")
        }
    }

    /// A `String` of text libxml2 handed over: UTF-8 that is valid already
    /// (the whole document was validated before parsing, and libxml2 writes
    /// what it decodes as UTF-8), so it is copied without being validated again
    /// (measured: validating each string was 9% of decoding unicode.xml).
    @inline(__always)
    static func string(checkedUTF8 text: Span<UInt8>) -> String {
        text.stringAssumingValidUTF8()
    }

    /// leadingByteOrderMark: Apple's parser drops a U+FEFF at the start of a string
    /// or key (written raw or as `&#xFEFF;`) while libxml2 keeps it, so such text
    /// would read differently; it is refused.
    static func checkLeadingByteOrderMark(utf8 text: Span<UInt8>) throws(PropertyListError) {
        // U+FEFF is EF BB BF in UTF-8 (it has no decomposition, so no other spelling exists).
        guard text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF else { return }
        throw PropertyListError(.leadingByteOrderMark, "text starting with U+FEFF, which Apple's parser drops")
    }

    /// 10^0 … 10^22, every one an exact double. Written out: a table of
    /// literals is laid out when the program is built, so reading it needs no
    /// lazy initialisation check (a `swift_once` call per real, measured).
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// An optional sign, then decimal digits (leading zeros are decimal, not octal)
    /// or `0x`/`0X` and hexadecimal digits; no whitespace.
    static func integer(_ text: Span<UInt8>) -> PropertyListInteger? {
        var i = 0
        var negative = false
        if i < text.count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var radix: UInt64 = 10
        if i + 1 < text.count, text[i] == UInt8(ascii: "0"), text[i + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            i += 2
        }
        guard i < text.count else { return nil }
        var magnitude: UInt64 = 0
        if radix == 10 {
            // The first 18 decimal digits cannot overflow: no checks per digit
            // (any further ones go through the checked loop below).
            let fastEnd = min(text.count, i + 18)
            // Eight digits at a time while eight remain before fastEnd.
            while i &+ 8 <= fastEnd, let eight = WordScan.eightDigits(text.word(at: i)) {
                magnitude = magnitude &* 100_000_000 &+ eight
                i &+= 8
            }
            while i < fastEnd {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                magnitude = magnitude &* 10 &+ UInt64(digit)
                i += 1
            }
        }
        while i < text.count {
            let byte = text[i]
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte &- UInt8(ascii: "A") &+ 10)
            default: return nil
            }
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            magnitude = sum
            i += 1
        }
        if !negative { return PropertyListInteger(magnitude) }
        if magnitude <= UInt64(Int64.max) { return PropertyListInteger(-Int64(magnitude)) }
        return magnitude == UInt64(Int64.max) + 1 ? PropertyListInteger(Int64.min) : nil
    }

    /// A finite decimal number (optional sign, digits, fraction, exponent), or,
    /// in any letter case, `nan` (unsigned) or `inf`, `infinity` with an
    /// optional sign: CoreFoundation's spellings (invalidReal).
    static func real(_ text: Span<UInt8>) -> Double? {
        let count = text.count
        var i = 0
        let negative = count > 0 && text[0] == UInt8(ascii: "-")
        if count > 0, text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") { i = 1 }
        if i < count, text[i] &- UInt8(ascii: "0") > 9, text[i] != UInt8(ascii: ".") {
            switch text.bytes.decodedString.lowercased() {
            case "nan": return .nan
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return nil
            }
        }
        // The digits, as an integer while at most 19 of them are significant
        // (leading zeros are not); `scale` is the power of ten it is to be
        // multiplied by.
        var mantissa: UInt64 = 0
        var significant = 0
        var scale = 0
        let wholeStart = i
        // Leading zeros are not significant.
        while i < count, text[i] == UInt8(ascii: "0") { i &+= 1 }
        let significantStart = i
        // Eight digits at a time while they are among the first 19.
        while i &+ 8 <= count, i &+ 8 &- significantStart <= 19, let eight = WordScan.eightDigits(text.word(at: i)) {
            mantissa = mantissa &* 100_000_000 &+ eight
            i &+= 8
        }
        while i < count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit <= 9 else { break }
            if i &- significantStart < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
            i &+= 1
        }
        significant = i &- significantStart
        let whole = i &- wholeStart
        // Whole digits past the 19th count by their place only.
        if significant > 19 { scale = significant &- 19 }
        var fraction = 0
        if i < count, text[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            if significant == 0 {
                // Zeros before the first significant digit: places only.
                while i < count, text[i] == UInt8(ascii: "0") { i &+= 1; scale &-= 1 }
            }
            while i &+ 8 <= count, significant &+ 8 <= 19, let eight = WordScan.eightDigits(text.word(at: i)) {
                mantissa = mantissa &* 100_000_000 &+ eight
                scale &-= 8
                significant &+= 8
                i &+= 8
            }
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit <= 9 else { break }
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    scale &-= 1
                }
                significant &+= 1
                i &+= 1
            }
            fraction = i &- fractionStart
        }
        guard whole > 0 || fraction > 0 else { return nil }
        func skip(_ a: UInt8, or b: UInt8) -> Bool {
            guard i < count, text[i] == a || text[i] == b else { return false }
            i += 1
            return true
        }
        var exponentIsSmall = true
        if skip(UInt8(ascii: "e"), or: UInt8(ascii: "E")) {
            let exponentNegative = i < text.count && text[i] == UInt8(ascii: "-")
            _ = skip(UInt8(ascii: "+"), or: UInt8(ascii: "-"))
            let start = i
            var exponent = 0
            while i < count, text[i] &- UInt8(ascii: "0") <= 9 {
                if exponent < 10_000 { exponent = exponent * 10 + Int(text[i] &- UInt8(ascii: "0")) } else { exponentIsSmall = false }
                i += 1
            }
            guard i > start else { return nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard i == text.count else { return nil }
        // Clinger's fast path: a mantissa below 2^53 and a power of ten up to
        // 10^22 are both exact doubles, so one multiplication or division
        // rounds correctly. Anything else goes to the C library's strtod.
        if exponentIsSmall, significant <= 19, mantissa < 1 << 53, scale >= -22, scale <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
            return negative ? -value : value
        }
        // Every digit is in the mantissa and the power of ten is at most 10^19:
        // one exact 128-bit product or quotient, rounded once (wideRounded).
        if exponentIsSmall, significant <= 19, scale >= -19, scale <= 19 {
            let value = wideRounded(mantissa, scale: scale)
            return negative ? -value : value
        }
        // The text is a decimal number by the grammar above.
        guard let value = CFormat.parseDouble(text), value.isFinite else { return nil }
        return value
    }

    /// 10^0 … 10^19, every one below 2^64 (literals, as ``exactPowersOfTen``).
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]

    /// `mantissa × 10^scale`, correctly rounded (to nearest, ties to even), for
    /// |scale| ≤ 19: the exact product (below 2^128), or the quotient of the
    /// mantissa shifted to 128 bits by the power of ten, which keeps at least
    /// 64 significant bits, with a sticky bit for a non-zero remainder; then
    /// one rounding from 64 bits to 53 (``rounded(high:low:)``) and an exact
    /// scaling by a power of two (the results are normal: 10^-19 ≤ |v| < 2^128).
    static func wideRounded(_ mantissa: UInt64, scale: Int) -> Double {
        if mantissa == 0 { return 0 }
        if scale >= 0 {
            let product = mantissa.multipliedFullWidth(by: powersOfTen[scale])
            return rounded(high: product.high, low: product.low)
        }
        // N = mantissa · 2^(64 + shift), its top bit set; N / 10^-scale in two word divisions.
        let shift = mantissa.leadingZeroBitCount
        let top = mantissa &<< UInt64(shift)
        let divisor = powersOfTen[-scale]
        let (high, rest) = top.quotientAndRemainder(dividingBy: divisor)
        let (low, remainder) = divisor.dividingFullWidth((rest, 0))
        // The quotient is at least 2^63: its lowest bit lies below the rounding position.
        return rounded(high: high, low: low | (remainder != 0 ? 1 : 0)) * powerOfTwo(-64 &- shift)
    }

    /// The 128-bit integer `high · 2^64 + low`, rounded to a double: its top 64
    /// bits with the rest folded into a sticky lowest bit, which the
    /// conversion of 64 bits to 53 rounds exactly as the whole would round.
    private static func rounded(high: UInt64, low: UInt64) -> Double {
        if high == 0 { return Double(low) }
        let shift = high.leadingZeroBitCount
        var top = shift == 0 ? high : high &<< UInt64(shift) | low &>> UInt64(64 &- shift)
        if low &<< UInt64(shift) != 0 { top |= 1 }
        return Double(top) * powerOfTwo(64 &- shift)
    }

    /// 2^exponent, for -1022 ≤ exponent ≤ 1023 (a normal double, built from its bits).
    @inline(__always)
    private static func powerOfTwo(_ exponent: Int) -> Double {
        Double(bitPattern: UInt64(1023 &+ exponent) &<< 52)
    }
}
