/// Calendar arithmetic in UTC for property-list dates, without time zones or
/// locales: proleptic Gregorian calendar, seconds since 2001-01-01T00:00:00Z.
/// Shared by every text format of the package (XML, JSON, printing).
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

    /// `YYYY-MM-DDTHH:MM:SSZ`, years zero-padded to four digits.
    package var iso8601: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))Z"
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    package static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
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
