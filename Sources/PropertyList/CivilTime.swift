/// Calendar arithmetic in UTC for property-list dates, without time zones or
/// locales: proleptic Gregorian calendar, seconds since 2001-01-01T00:00:00Z;
/// and every text form of a date the package reads or writes (ISO 8601 for
/// typed JSON and Codable, Apple's XML form, descriptions), defined here once.
package struct CivilTime: Sendable, Hashable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    /// Seconds from 1970-01-01 to 2001-01-01.
    package static let referenceOffset: Int64 = 978_307_200

    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// The civil time of the whole second at or before `secondsSinceReference`
    /// (which must be finite and within ±2⁵³).
    package init(secondsSinceReference: Double) {
        let whole = Int64(secondsSinceReference.rounded(.down))
        let unix = whole + Self.referenceOffset
        let days = Self.floorDivide(unix, 86_400)
        let secondOfDay = Int(unix - days * 86_400)
        (year, month, day) = Self.civil(fromDays: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
    }

    /// Seconds since 2001-01-01T00:00:00Z of this civil time (``isValid`` first:
    /// a year outside ``computableYears`` would overflow).
    package var secondsSinceReference: Int64 {
        Self.days(fromCivil: year, month, day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second) - Self.referenceOffset
    }

    /// Years whose dates ``secondsSinceReference`` can compute without overflow;
    /// far beyond the ±10¹⁵ seconds any property-list date may lie from 2001
    /// (±31.7 million years), which callers check next.
    package static let computableYears = -100_000_000...100_000_000

    /// True when the year is in ``computableYears``, month and day name a real
    /// date and the time of day is valid (no leap seconds). Check it before
    /// ``secondsSinceReference``.
    package var isValid: Bool {
        guard Self.computableYears.contains(year), (1...12).contains(month), (0...23).contains(hour),
              (0...59).contains(minute), (0...59).contains(second) else { return false }
        return (1...Self.daysIn(month: month, year: year)).contains(day)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Days since 1970-01-01 to (year, month, day); Howard Hinnant's algorithm.
    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

// MARK: - Date text (Specs/value-model.md, "Dates")

extension CivilTime {
    /// `YYYY-MM-DDTHH:MM:SS[.F]Z` in UTC (typed JSON, Codable's `.iso8601`), with
    /// the shortest fraction that reads back to the same instant (none when the
    /// seconds are whole). Years outside 0000…9999 use ISO 8601's expanded form
    /// (`+12345-…`, `-0001-…`). Nil for a date outside `PropertyListValue.dateRange`.
    package static func iso8601(secondsSinceReference seconds: Double) -> String? {
        guard PropertyListValue.isValidDate(seconds) else { return nil }
        let (whole, fraction) = ExactDecimal.split(seconds)
        let civil = CivilTime(secondsSinceReference: Double(whole))
        var text = civil.year > 9999 ? "+" : ""
        text += pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2)
        text += "T" + pad(civil.hour, 2) + ":" + pad(civil.minute, 2) + ":" + pad(civil.second, 2)
        if !fraction.isEmpty { text += "." + fraction }
        return text + "Z"
    }

    /// The instant of ``iso8601(secondsSinceReference:)`` text: years as four
    /// digits, or `-` and four to nine, or `+` and five to nine; a fraction of
    /// at least one digit and no trailing zero; a real calendar date within
    /// `PropertyListValue.dateRange`. Nil for anything else.
    package static func secondsSinceReference(iso8601 text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "Z") else { return nil }
        var i = 0
        let sign = bytes.first == UInt8(ascii: "-") ? -1 : 1
        let signed = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+")
        if signed { i = 1 }
        let yearStart = i
        while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        switch (signed ? bytes[0] : 0, i - yearStart) {
        case (UInt8(ascii: "+"), 5...9), (UInt8(ascii: "-"), 4...9): break
        case (0, 4): break
        default: return nil
        }
        guard let year = number(bytes.span, yearStart, i - yearStart) else { return nil }
        // -MM-DDTHH:MM:SS, then [.F] and Z
        let rest = Array(bytes[i..<(bytes.count - 1)])
        guard rest.count >= 15, rest[0] == UInt8(ascii: "-"), rest[3] == UInt8(ascii: "-"), rest[6] == UInt8(ascii: "T"),
              rest[9] == UInt8(ascii: ":"), rest[12] == UInt8(ascii: ":"),
              let month = number(rest.span, 1, 2), let day = number(rest.span, 4, 2), let hour = number(rest.span, 7, 2),
              let minute = number(rest.span, 10, 2), let second = number(rest.span, 13, 2) else { return nil }
        var fraction = ""
        if rest.count > 15 {
            let digits = rest[16...]
            guard rest[15] == UInt8(ascii: "."), !digits.isEmpty, digits.allSatisfy(isDigit),
                  digits.last != UInt8(ascii: "0") else { return nil }
            fraction = String(decoding: digits, as: UTF8.self)
        }
        let civil = CivilTime(year: sign * year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard civil.isValid, let seconds = ExactDecimal.join(whole: civil.secondsSinceReference, fraction: fraction),
              PropertyListValue.isValidDate(seconds) else { return nil }
        return seconds
    }

    /// Apple's XML date, `YYYY-MM-DDTHH:MM:SSZ` with the year as C's `%04d`
    /// prints it (what CoreFoundation writes: `0001`, `10000`, `-001`, the sign
    /// taking a digit's place), written straight into `out`.
    package func appendAppleText(to out: inout ByteSink) {
        if year >= 0 && year <= 9999 {
            Self.appendDigits(year, 4, &out)
        } else {
            out.append(string: Self.appleYear(year))
        }
        out.append(UInt8(ascii: "-"))
        Self.appendDigits(month, 2, &out)
        out.append(UInt8(ascii: "-"))
        Self.appendDigits(day, 2, &out)
        out.append(UInt8(ascii: "T"))
        Self.appendDigits(hour, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.appendDigits(minute, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.appendDigits(second, 2, &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// The instant of Apple's XML date text (``appendAppleText(to:)``), exactly
    /// as CoreFoundation writes it, a real calendar date within
    /// `PropertyListValue.dateRange`; nil for anything else.
    package static func secondsSinceReference(appleText bytes: Span<UInt8>) -> Double? {
        // The part after the year: -MM-DDTHH:MM:SSZ, 16 bytes.
        guard bytes.count >= 20, bytes.count <= 32 else { return nil }
        let rest = bytes.extracting((bytes.count - 16)...)
        guard rest[0] == UInt8(ascii: "-"), rest[3] == UInt8(ascii: "-"), rest[6] == UInt8(ascii: "T"),
              rest[9] == UInt8(ascii: ":"), rest[12] == UInt8(ascii: ":"), rest[15] == UInt8(ascii: "Z"),
              let year = appleYear(text: bytes.extracting(..<(bytes.count - 16))),
              let month = twoDigits(rest, 1), let day = twoDigits(rest, 4), let hour = twoDigits(rest, 7),
              let minute = twoDigits(rest, 10), let second = twoDigits(rest, 13) else { return nil }
        let civil = CivilTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard civil.isValid else { return nil }
        let seconds = Double(civil.secondsSinceReference)
        return PropertyListValue.isValidDate(seconds) ? seconds : nil
    }

    /// `YYYY-MM-DD HH:MM:SS +0000`, as Foundation describes a date (whole
    /// seconds); nil for a date outside `PropertyListValue.dateRange`.
    package static func descriptionText(secondsSinceReference seconds: Double) -> String? {
        guard PropertyListValue.isValidDate(seconds) else { return nil }
        let civil = CivilTime(secondsSinceReference: seconds)
        return pad(civil.year, 4) + "-" + pad(civil.month, 2) + "-" + pad(civil.day, 2) + " "
            + pad(civil.hour, 2) + ":" + pad(civil.minute, 2) + ":" + pad(civil.second, 2) + " +0000"
    }

    /// The year `text` spells as C's `%04d` prints it (``appendAppleText(to:)``),
    /// nil for any other spelling (`+2001`, `02001`, `-0001`).
    package static func appleYear(text: Span<UInt8>) -> Int? {
        // Four digits, the years 0 to 9999 (nearly every date), are always
        // `%04d`'s spelling: read without building a string (measured: a
        // date's text cost 1,700 instructions through a string, about 100 so).
        if text.count == 4, let high = twoDigits(text, 0), let low = twoDigits(text, 2) { return high * 100 + low }
        let spelled = text.bytes.decodedString
        guard let year = Int(spelled), appleYear(year) == spelled else { return nil }
        return year
    }

    private static func appleYear(_ year: Int) -> String {
        let digits = String(abs(year))
        let sign = year < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, 4 - sign.count - digits.count)) + digits
    }

    /// `value` (non-negative, below 10^width) in exactly `width` digits.
    private static func appendDigits(_ value: Int, _ width: Int, _ out: inout ByteSink) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `value` zero-padded to `width` digits, after its sign.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The decimal number of the two digits at `start` (within `bytes`); nil
    /// if either is not a digit (measured: a date's six two-digit fields
    /// through the loop below cost 300 instructions).
    @inline(__always)
    private static func twoDigits(_ bytes: Span<UInt8>, _ start: Int) -> Int? {
        let tens = bytes[start] &- 0x30, ones = bytes[start + 1] &- 0x30
        guard tens < 10, ones < 10 else { return nil }
        return Int(tens) &* 10 &+ Int(ones)
    }

    /// The decimal number of `length` digits at `start`; nil if any is not a digit.
    private static func number(_ bytes: Span<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for k in 0..<length {
            let byte = bytes[start + k]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// Exact decimal digits of a double, from its shortest round-trip form: how a
/// date's fraction of a second is written and read back exactly.
enum ExactDecimal {
    /// Splits a finite value into ⌊value⌋ and the decimal digits of value − ⌊value⌋
    /// (empty when zero), exactly as the shortest round-trip decimal of `value` says.
    static func split(_ value: Double) -> (whole: Int64, fraction: String) {
        precondition(value.isFinite)
        let (negative, digits, exponent) = decompose(value)
        // value = ±0.d1d2… × 10^exponent
        var integerDigits = ""
        var fractionDigits = ""
        for (index, digit) in digits.enumerated() {
            if index < exponent { integerDigits.append(digit) } else { fractionDigits.append(digit) }
        }
        if exponent > digits.count { integerDigits += String(repeating: "0", count: exponent - digits.count) }
        if exponent < 0 { fractionDigits = String(repeating: "0", count: -exponent) + fractionDigits }
        while fractionDigits.last == "0" { fractionDigits.removeLast() }
        let integer = Int64(integerDigits.isEmpty ? "0" : integerDigits)!
        if !negative || fractionDigits.isEmpty {
            return (negative ? -integer : integer, fractionDigits)
        }
        // -(I + 0.F) = -(I + 1) + (1 - 0.F)
        return (-integer - 1, complement(fractionDigits))
    }

    /// The digits of 1 − 0.F, with as many digits as F (trailing zeros dropped).
    private static func complement(_ fraction: String) -> String {
        var digits = fraction.map { Int(String($0))! }
        // 10^k - F: subtract from 9…9 and add 1.
        for i in digits.indices { digits[i] = 9 - digits[i] }
        var i = digits.count - 1
        while i >= 0 {
            if digits[i] == 9 { digits[i] = 0; i -= 1 } else { digits[i] += 1; break }
        }
        var text = digits.map(String.init).joined()
        while text.last == "0" { text.removeLast() }
        return text
    }

    /// (sign, significant digits, decimal exponent) with value = ±0.digits × 10^exponent.
    private static func decompose(_ value: Double) -> (Bool, [Character], Int) {
        var text = value.description
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...])!
            text = String(text[..<e])
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = Array(integerPart + fractionPart)
        exponent += integerPart.count
        while digits.first == "0" { digits.removeFirst(); exponent -= 1 }
        while digits.last == "0" { digits.removeLast() }
        if digits.isEmpty { return (false, [], 0) }
        return (negative, digits, exponent)
    }

    /// The double nearest to `whole` + 0.`fraction`, correctly rounded.
    static func join(whole: Int64, fraction: String) -> Double? {
        if fraction.isEmpty { return Double(whole) }
        if whole >= 0 { return Double("\(whole).\(fraction)") }
        // whole + 0.F = -((-whole - 1) + (1 - 0.F))
        let complemented = complement(fraction)
        if complemented.isEmpty { return Double(whole + 1) }
        return Double("-\(-whole - 1).\(complemented)")
    }
}
