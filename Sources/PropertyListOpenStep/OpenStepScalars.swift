import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The scalar values of OpenStep text (Specs/openstep.md, "Values"): quoted
/// and unquoted strings with CF's escapes, `<hex>` data and GNUstep's typed
/// forms, read from the parser's UTF-8.
extension OpenStepParser {
    // MARK: Strings

    /// A quoted or unquoted string at the cursor. Runs of text between
    /// escapes are taken as they are (the text is checked UTF-8, and the
    /// quotes and backslash that end a run are ASCII); the length limit is
    /// checked as each run or escape is added, so that it is reported before
    /// anything later in the string.
    mutating func parseString() throws(PropertyListError) -> String {
        let start = position
        let quote = current!
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            while let byte = current, OpenStepReader.isUnquoted(byte) { advance() }
            // stringLimitExceeded (UTF-8 bytes; unquoted strings are ASCII)
            guard position - start <= limits.maxStringBytes else {
                throw failure(.stringLimitExceeded, "a string longer than \(limits.maxStringBytes) bytes (maxStringBytes)", at: start)
            }
            return input.bytes.extracting(start..<position).span.stringAssumingValidUTF8()
        }
        advance()
        // The string's UTF-8 when an escape made it differ from the text; its length so far.
        var escaped: [UInt8]?
        var length = 0
        while true {
            let run = position
            while let byte = current, byte != quote, byte != UInt8(ascii: "\\") { advance() }
            if position > run {
                length += position - run
                // stringLimitExceeded (UTF-8 bytes)
                guard length <= limits.maxStringBytes else {
                    throw failure(.stringLimitExceeded, "a string longer than \(limits.maxStringBytes) bytes (maxStringBytes)", at: start)
                }
                escaped?.append(contentsOf: input.bytes.extracting(run..<position).array)
            }
            // unterminatedString
            guard let byte = current else { throw failure(.unterminatedString, "a quoted string is not closed", at: start) }
            if byte == quote {
                advance()
                return escaped.map { String(decoding: $0, as: UTF8.self) }
                    ?? input.bytes.extracting((start + 1)..<(position - 1)).span.stringAssumingValidUTF8()
            }
            // A backslash: the text so far, then the escape's character.
            if escaped == nil { escaped = input.bytes.extracting((start + 1)..<position).array }
            advance()
            let scalar = try escape(at: position - 1)
            length += UTF8.width(scalar)
            // stringLimitExceeded (UTF-8 bytes)
            guard length <= limits.maxStringBytes else {
                throw failure(.stringLimitExceeded, "a string longer than \(limits.maxStringBytes) bytes (maxStringBytes)", at: start)
            }
            UTF8.encode(scalar) { escaped!.append($0) }
        }
    }

    /// True when at least `count` Unicode scalars follow `offset`.
    private func hasScalars(_ count: Int, from offset: Int) -> Bool {
        var at = offset
        for _ in 0..<count {
            guard at < input.count else { return false }
            at += scalar(at: at).length
        }
        return true
    }

    /// The character of an escape; the cursor is after the backslash.
    private mutating func escape(at start: Int) throws(PropertyListError) -> Unicode.Scalar {
        guard current != nil else { throw failure(.unterminatedString, "a quoted string is not closed", at: start) }
        let (scalar, length) = scalar(at: position)
        advance(length)
        switch scalar {
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n", "\n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "v": return "\u{0B}"
        case "\"", "'", "\\": return scalar
        case "0"..."7":
            var value = scalar.value - 0x30
            for _ in 0..<2 {
                guard let digit = current, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else { break }
                value = value * 8 + UInt32(digit) - 0x30
                advance()
            }
            // invalidEscape: CF maps octal escapes above \177 through the NeXTSTEP encoding.
            guard value < 0x80 else { throw failure(.invalidEscape, "an octal escape above \\177 (CF reads it in the NeXTSTEP encoding)", at: start) }
            return Unicode.Scalar(value)!
        case "U":
            let unit = try hexUnit(escapeAt: start)
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate: a \U low surrogate must follow.
                guard hasScalars(6, from: position), input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "U") else {
                    throw failure(.invalidEscape, "a \\U high surrogate without its low surrogate", at: start)
                }
                advance(2)
                let low = try hexUnit(escapeAt: start)
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(.invalidEscape, "a \\U high surrogate without its low surrogate", at: start) }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let result = Unicode.Scalar(unit) else { throw failure(.invalidEscape, "a lone \\U low surrogate", at: start) }
            return result
        default:
            throw failure(.invalidEscape, "\\\(scalar) is no escape (CF keeps the character; we refuse)", at: start)
        }
    }

    /// The four hexadecimal digits of a `\U` escape.
    private mutating func hexUnit(escapeAt start: Int) throws(PropertyListError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw failure(.invalidEscape, "\\U takes four hexadecimal digits", at: start)
            }
            unit = unit << 4 | UInt32(digit)
            advance()
        }
        return unit
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 0x61 + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 0x41 + 10
        default: return nil
        }
    }

    // MARK: <data> and <*typed>

    mutating func parseAngled() throws(PropertyListError) -> PropertyListValue {
        let start = position
        advance()
        if current == UInt8(ascii: "*") {
            advance()
            // At most 64 characters are read before the '>' must come.
            var text = String.UnicodeScalarView()
            var characters = 0
            while let byte = current, byte != UInt8(ascii: ">") {
                let (scalar, length) = scalar(at: position)
                text.append(scalar)
                characters += 1
                advance(length)
                guard characters <= 64 else { break }
            }
            guard current == UInt8(ascii: ">") else {
                throw failure(.invalidTypedValue, "a <* typed value is not closed by '>'", at: start)
            }
            advance()
            return try typed(String(text), at: start)
        }
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            guard current != nil else { throw failure(.invalidHexData, "data is not closed by '>'", at: start) }
            let at = position
            let (scalar, length) = scalar(at: at)
            advance(length)
            if scalar == ">" { break }
            if scalar.isASCII, let digit = Self.hexValue(UInt8(scalar.value)) {
                if let first = high {
                    bytes.append(first << 4 | digit)
                    high = nil
                    // dataLimitExceeded
                    guard bytes.count <= limits.maxDataBytes else {
                        throw failure(.dataLimitExceeded, "data longer than \(limits.maxDataBytes) bytes (maxDataBytes)", at: start)
                    }
                } else {
                    high = digit
                }
            } else if high == nil, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                continue
            } else {
                // invalidHexData: hex digit pairs and whitespace between them.
                throw failure(.invalidHexData, high == nil ? "\(Self.show(scalar)) in data" : "an odd hex digit in data", at: at)
            }
        }
        guard high == nil else { throw failure(.invalidHexData, "an odd number of hex digits in data", at: start) }
        return .data(Data(bytes))
    }

    /// GNUstep's typed forms: `I`, `R`, `B`, `D`.
    private func typed(_ text: String, at start: Int) throws(PropertyListError) -> PropertyListValue {
        // invalidTypedValue
        let kind = text.first
        let body = String(text.dropFirst())
        switch kind {
        case "I":
            if let integer = PropertyListInteger(decimal: body) { return .integer(integer) }
        case "R":
            if let real = Double(body), real.isFinite { return .real(real) }
        case "B":
            if body == "Y" { return .bool(true) }
            if body == "N" { return .bool(false) }
        case "D":
            if let seconds = Self.gnustepDate(body) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        default:
            break
        }
        throw failure(.invalidTypedValue, "<*\(text)> is not a GNUstep integer, real, boolean or date", at: start)
    }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM` as seconds since 2001.
    static func gnustepDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 3 else { return nil }
        let day = parts[0].split(separator: "-"), time = parts[1].split(separator: ":")
        let zone = parts[2]
        guard day.count == 3, time.count == 3, zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
              day.allSatisfy({ $0.allSatisfy(\.isASCII) }), day[0].count == 4, day[1].count == 2, day[2].count == 2,
              time.allSatisfy({ $0.count == 2 }),
              let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
              let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
              let zoneHours = Int(zone.dropFirst().prefix(2)), let zoneMinutes = Int(zone.suffix(2)) else { return nil }
        let civil = CivilTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        guard civil.isValid, zoneHours < 24, zoneMinutes < 60 else { return nil }
        let offset = Double((zoneHours * 60 + zoneMinutes) * 60) * (sign == "-" ? -1 : 1)
        let seconds = Double(civil.secondsSinceReference) - offset
        // In UTC too, a date of years 0000–9999: what the writer writes back (found by
        // fuzzing: 0000-01-01 00:00:11 +0006 is in year -1).
        guard PropertyListValue.isValidDate(seconds), let utc = CivilTime.iso8601(secondsSinceReference: seconds), utc.count == 20 else { return nil }
        return seconds
    }
}
