import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// Checks on the raw document, before libxml2 parses it (Specs/xml-plist.md,
/// "Before parsing").
enum XMLInput {
    /// The document types Apple's tools write: the current public identifier, and
    /// the older "Apple Computer" one, both with Apple's system identifier.
    static let appleDocumentTypes: [(String?, String?)] = [
        ("-//Apple//DTD PLIST 1.0//EN", "http://www.apple.com/DTDs/PropertyList-1.0.dtd"),
        ("-//Apple Computer//DTD PLIST 1.0//EN", "http://www.apple.com/DTDs/PropertyList-1.0.dtd"),
    ]

    /// The document as UTF-8: a UTF-8 byte-order mark is dropped, UTF-16 with a
    /// byte-order mark is transcoded, anything else must be valid UTF-8.
    static func utf8(_ bytes: [UInt8]) throws(PropertyListError) -> [UInt8] {
        var utf8: [UInt8]
        var declaredAllowed: Set<String> = ["utf-8", "utf8"]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            utf8 = Array(bytes.dropFirst(3))
        } else if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            // unsupportedEncoding: UTF-32 is not a property-list encoding.
            throw PropertyListError(.unsupportedEncoding, "UTF-32 documents are not supported", at: .lineColumn(line: 1, column: 1))
        } else if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            utf8 = try transcodeUTF16(bytes.dropFirst(2), bigEndian: bytes[0] == 0xFE)
            declaredAllowed = ["utf-16", bytes[0] == 0xFE ? "utf-16be" : "utf-16le"]
        } else {
            if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
                // unsupportedEncoding: UTF-16 without a byte-order mark is ambiguous.
                throw PropertyListError(.unsupportedEncoding, "UTF-16 without a byte-order mark (or NUL bytes) is not supported", at: .lineColumn(line: 1, column: 1))
            }
            utf8 = bytes
        }
        // invalidUTF8
        if let bad = firstInvalidUTF8(utf8) {
            let (line, column) = lineColumn(utf8, bad)
            throw PropertyListError(.invalidUTF8, "bytes that are not UTF-8", at: .lineColumn(line: line, column: column))
        }
        // malformedXML: U+0000 is not an XML character. libxml2 refuses it too, but
        // its pull parser stops at one after the root element as at the end of input.
        if let nul = utf8.span.firstIndex(of: 0) {
            let (line, column) = lineColumn(utf8, nul)
            throw PropertyListError(.malformedXML, "a NUL byte (U+0000 is not an XML character)", at: .lineColumn(line: line, column: column))
        }
        // unsupportedEncoding: the declared encoding must be the one the bytes are in.
        if let declared = declaredEncoding(utf8), !declaredAllowed.contains(declared.lowercased()) {
            throw PropertyListError(.unsupportedEncoding, "declared encoding \(declared) is not supported (UTF-8, or UTF-16 with a byte-order mark)",
                                    at: .lineColumn(line: 1, column: 1))
        }
        return utf8
    }

    private static func transcodeUTF16(_ body: ArraySlice<UInt8>, bigEndian: Bool) throws(PropertyListError) -> [UInt8] {
        guard body.count % 2 == 0 else {
            throw PropertyListError(.invalidUTF8, "UTF-16 text of an odd number of bytes", at: .lineColumn(line: 1, column: 1))
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var index = body.startIndex
        while index < body.endIndex {
            let a = UInt16(body[index]), b = UInt16(body[index + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            index += 2
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.count * 2)
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): UTF8.encode(scalar) { utf8.append($0) }
            case .emptyInput: break loop
            case .error:
                throw PropertyListError(.invalidUTF8, "UTF-16 text with an unpaired surrogate", at: .lineColumn(line: 1, column: 1))
            }
        }
        return utf8
    }

    /// The offset of the first byte that does not belong to valid UTF-8
    /// (overlong forms, surrogates, values above U+10FFFF, truncated sequences),
    /// found by the standard library's validator.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        do {
            _ = try UTF8Span(validating: bytes.span)
            return nil
        } catch {
            return error.byteOffsets.lowerBound
        }
    }

    /// 1-based line and column of a byte offset (columns count bytes, as libxml2's do).
    static func lineColumn(_ bytes: [UInt8], _ offset: Int) -> (Int, Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The `encoding` pseudo-attribute of the XML declaration, if any.
    static func declaredEncoding(_ utf8: [UInt8]) -> String? {
        guard utf8.starts(with: Array("<?xml".utf8)), let end = find("?>", in: utf8, from: 0),
              let name = find("encoding", in: utf8, from: 0), name + 8 <= end else { return nil }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var i = name + 8
        while i < end, isSpace(utf8[i]) { i += 1 }
        guard i < end, utf8[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        while i < end, isSpace(utf8[i]) { i += 1 }
        guard i < end, utf8[i] == 0x22 || utf8[i] == 0x27 else { return nil }
        let quote = utf8[i]
        let start = i + 1
        var close = start
        while close < end, utf8[close] != quote { close += 1 }
        return String(decoding: utf8[start..<close], as: UTF8.self)
    }

    /// forbiddenDeclaration / forbiddenNode / emptyPrologComment: in the prolog, a
    /// document type has no internal subset (so no entity, element or attribute
    /// declaration can exist, and libxml2 never expands any), no processing
    /// instruction appears, and no comment is empty.
    static func checkProlog(_ utf8: [UInt8]) throws(PropertyListError) {
        var i = 0
        func skipWhitespace() { while i < utf8.count, utf8[i] == 0x20 || utf8[i] == 0x09 || utf8[i] == 0x0A || utf8[i] == 0x0D { i += 1 } }
        func at(_ text: String) -> Bool { utf8[i...].starts(with: Array(text.utf8)) }
        func fail(_ code: PropertyListError.Code, _ reason: String) -> PropertyListError {
            let (line, column) = lineColumn(utf8, i)
            return PropertyListError(code, reason, at: .lineColumn(line: line, column: column))
        }
        if at("<?xml"), let end = find("?>", in: utf8, from: i) { i = end + 2 }
        while true {
            skipWhitespace()
            guard i < utf8.count else { return }
            if at("<!--") {
                guard let end = find("-->", in: utf8, from: i + 4) else { return }
                // emptyPrologComment: CoreFoundation reads `<!---->` here as unterminated.
                if end == i + 4 {
                    throw fail(.emptyPrologComment, "an empty comment <!----> before the root element (Apple's parser reads it as unterminated)")
                }
                i = end + 3
            } else if at("<?") {
                throw fail(.forbiddenNode, "a processing instruction (only the XML declaration is allowed)")
            } else if at("<!DOCTYPE") {
                var quote: UInt8? = nil
                i += 9
                while i < utf8.count {
                    let byte = utf8[i]
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == 0x22 || byte == 0x27 {
                        quote = byte
                    } else if byte == UInt8(ascii: "[") {
                        throw fail(.forbiddenDeclaration, "a document type with an internal subset (entity or other declarations)")
                    } else if byte == UInt8(ascii: ">") {
                        break
                    }
                    i += 1
                }
                i += 1
            } else if at("<!") {
                throw fail(.forbiddenDeclaration, "a markup declaration outside a document type")
            } else {
                return  // the root element: libxml2 and the grammar take it from here
            }
        }
    }

    /// Longest tag accepted, in bytes: every plist tag is far shorter, and libxml2
    /// checks a tag's attributes against each other in quadratic time.
    static let maxTagBytes = 1024

    /// tagTooLong / longCharacterReference / misplacedReference: one linear pass over
    /// the markup (comments and CDATA skipped) before libxml2 parses anything.
    /// References are expanded by Apple's parser only in the text of `<string>`
    /// and `<key>`; elsewhere it takes them raw: it refuses `&#49;` in an integer
    /// or date and `&#13;` between elements, and decodes `&#13;` in data as base64 digits.
    static func checkMarkup(_ utf8: [UInt8]) throws(PropertyListError) {
        if let failure = MarkupScan.firstFailure(in: utf8.span) {
            let (line, column) = lineColumn(utf8, failure.offset)
            throw PropertyListError(failure.code, failure.reason, at: .lineColumn(line: line, column: column))
        }
    }

    /// ambiguousLineEnding: a raw carriage return inside `<string>` or `<key>`
    /// content. XML parsers (libxml2) read it as a line feed while Apple's parser
    /// keeps it, so the two would read different strings; `&#13;` is unambiguous.
    static func checkLineEndings(_ utf8: [UInt8]) throws(PropertyListError) {
        let bytes = utf8.span
        guard bytes.contains(0x0D) else { return }
        let offending = { () -> Int? in
            var inside = false
            for i in 0..<bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "<") {
                    if bytes.hasPrefix("<string>", at: i) || bytes.hasPrefix("<key>", at: i) { inside = true }
                    else if bytes.hasPrefix("</string>", at: i) || bytes.hasPrefix("</key>", at: i) { inside = false }
                } else if byte == 0x0D && inside {
                    return i
                }
            }
            return nil
        }()
        if let offending {
            let (line, column) = lineColumn(utf8, offending)
            throw PropertyListError(.ambiguousLineEnding, "a raw carriage return inside a string or key (write &#13;)",
                                    at: .lineColumn(line: line, column: column))
        }
    }

    // MARK: Control characters in strings

    /// The first of the 32 noncharacters U+FDD0–U+FDEF, which stand for the
    /// C0 controls U+0000–U+001F while libxml2 parses (UTF-8 `EF B7 90+n`).
    private static let markBase: UInt32 = 0xFDD0

    /// Whether a byte is a C0 control XML forbids raw (not tab, LF or CR; U+0000
    /// is refused before this point).
    @inline(__always)
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// The document with each raw C0 control inside `<string>` or `<key>`
    /// content replaced by the noncharacter U+FDD0 + its value, and how many
    /// were replaced (Specs/xml-plist.md, "Control characters in strings"). Nil
    /// when there is none to replace, or when the document already holds one of
    /// those noncharacters (the marks would be ambiguous). Controls anywhere
    /// else are left for libxml2 to refuse.
    static func markingControls(_ utf8: [UInt8]) -> (bytes: [UInt8], count: Int)? {
        var marked: [UInt8] = []
        var count = 0
        var inside = false
        for i in utf8.indices {
            let byte = utf8[i]
            // The noncharacters themselves (EF B7 90–AF): the marks would be ambiguous.
            if byte == 0xEF, i + 2 < utf8.count, utf8[i + 1] == 0xB7, (0x90...0xAF).contains(utf8[i + 2]) { return nil }
            if byte == UInt8(ascii: "<") {
                let rest = utf8[i...]
                if rest.starts(with: "<string>".utf8) || rest.starts(with: "<key>".utf8) { inside = true } else { inside = false }
            } else if inside, isForbiddenControl(byte) {
                if count == 0 {
                    marked.reserveCapacity(utf8.count + 64)
                    marked.append(contentsOf: utf8[..<i])
                }
                marked += [0xEF, 0xB7, 0x90 + byte]
                count += 1
                continue
            }
            if count > 0 { marked.append(byte) }
        }
        return count == 0 ? nil : (marked, count)
    }

    /// `value` with each mark of ``markingControls(_:)`` in its strings and keys
    /// turned back into its control character; nil unless exactly `expected`
    /// marks were found (a character reference such as `&#xFDD0;` would make
    /// one that no raw control stood for).
    static func restoringControls(_ value: PropertyListValue, expected: Int) -> PropertyListValue? {
        var found = 0
        func restore(_ string: String) -> String {
            guard string.unicodeScalars.contains(where: { (markBase...markBase + 0x1F).contains($0.value) }) else { return string }
            var out = String.UnicodeScalarView()
            for scalar in string.unicodeScalars {
                if (markBase...markBase + 0x1F).contains(scalar.value) {
                    found += 1
                    out.append(Unicode.Scalar(UInt8(scalar.value - markBase)))
                } else {
                    out.append(scalar)
                }
            }
            return String(out)
        }
        // Recursion is bounded by the reader's depth limit.
        func walk(_ value: PropertyListValue) -> PropertyListValue? {
            switch value {
            case .string(let string): return .string(restore(string))
            case .array(let elements):
                var restored: [PropertyListValue] = []
                restored.reserveCapacity(elements.count)
                for element in elements {
                    guard let element = walk(element) else { return nil }
                    restored.append(element)
                }
                return .array(restored)
            case .dictionary(let dictionary):
                var restored = PropertyListDictionary(minimumCapacity: dictionary.count)
                for (key, member) in dictionary {
                    // Two keys that differ only by a mark and a control would collide: refuse.
                    guard let member = walk(member), restored.insertNew(member, forKey: restore(key)) else { return nil }
                }
                return .dictionary(restored)
            default: return value
            }
        }
        guard let restored = walk(value), found == expected else { return nil }
        return restored
    }

    /// The offset of the first `literal` in `bytes` at or after `start`.
    static func find(_ literal: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        bytes.span.firstIndex(of: literal, from: start)
    }
}

/// The markup pass of ``XMLInput/checkMarkup(_:)``: eight bytes at a time
/// through text for the next `<` or `&`, and through each tag for its `>`
/// (measured: 10.7 instructions per byte of settings.xml when each step was a
/// call; about 3 inline).
enum MarkupScan {
    static func firstFailure(in bytes: Span<UInt8>) -> (code: PropertyListError.Code, reason: String, offset: Int)? {
        let base = bytes
        let count = bytes.count
        let maxTag = XMLInput.maxTagBytes
        @inline(__always) func word(_ at: Int) -> UInt64 { bytes.word(at: at) }
        @inline(__always) func flags(_ word: UInt64, _ byte: UInt8) -> UInt64 { WordScan.bytes(in: word, equalTo: byte) }
        // "<string>" as one little-endian word, and "<key>" in the low five bytes of one.
        let stringTag: UInt64 = 0x3E67_6E69_7274_733C
        let keyTag: UInt64 = 0x3E_7965_6B3C
        let closeKeyTag: UInt64 = 0x3E79_656B_2F3C  // "</key>"
        var i = 0
        // Inside <string> or <key> (the last tag opened one).
        var referencesExpand = false
        // Most documents hold no "&" at all (one memchr says so): then text is
        // searched for "<" alone.
        let ampersand: UInt8 = bytes.contains(0x26) ? 0x26 : 0x3C
        while i < count {
            // Text: to the next "<" or "&".
            while i + 8 <= count {
                let w = word(i)
                let found = flags(w, 0x3C) | (ampersand == 0x26 ? flags(w, 0x26) : 0)
                // The lowest flag is exact (little-endian: the first byte in memory).
                if found != 0 { i += found.trailingZeroBitCount / 8; break }
                i += 8
            }
            while i < count, base[i] != 0x3C, base[i] != 0x26 { i += 1 }
            guard i < count else { break }
            if base[i] == 0x3C {
                let next = i + 1 < count ? base[i + 1] : 0
                if next == UInt8(ascii: "!") {
                    referencesExpand = false
                    if bytes.hasPrefix("<!--", at: i) {
                        guard let end = bytes.firstIndex(of: "-->", from: i + 4) else { return nil }
                        i = end + 3
                        continue
                    }
                    if bytes.hasPrefix("<![CDATA[", at: i) {
                        guard let end = bytes.firstIndex(of: "]]>", from: i + 9) else { return nil }
                        i = end + 3
                        continue
                    }
                } else if i + 8 <= count {
                    let w = word(i)
                    // The commonest tags, whole in one word, skip the search for their ">".
                    if w == stringTag { referencesExpand = true; i += 8; continue }
                    if w & 0xFF_FFFF_FFFF == keyTag { referencesExpand = true; i += 5; continue }
                    if w & 0xFFFF_FFFF_FFFF == closeKeyTag { referencesExpand = false; i += 6; continue }
                    referencesExpand = false
                } else {
                    referencesExpand = bytes.hasPrefix("<string>", at: i) || bytes.hasPrefix("<key>", at: i)
                }
                // The tag's end: the first ">" within maxTagBytes.
                let tagEnd = min(count, i + 1 + maxTag)
                var j = i + 1
                var found = false
                while j + 8 <= tagEnd {
                    let f = flags(word(j), 0x3E)
                    if f != 0 { j += f.trailingZeroBitCount / 8; found = true; break }
                    j += 8
                }
                if !found { while j < tagEnd, base[j] != 0x3E { j += 1 } }
                // tagTooLong
                guard j - i <= maxTag else {
                    return (.tagTooLong, "a tag longer than \(maxTag) bytes", i)
                }
                i = j + 1
            } else if !referencesExpand {
                // misplacedReference: Apple's parser expands references in strings and keys only.
                return (.misplacedReference, "a character or entity reference outside <string> and <key> (Apple's parser reads it unexpanded)", i)
            } else if i + 1 < count, base[i + 1] == UInt8(ascii: "#") {
                var j = i + 2
                if j < count, base[j] == UInt8(ascii: "x") { j += 1 }
                let digitsStart = j
                while j < count, j - digitsStart <= 8, base[j] != UInt8(ascii: ";") { j += 1 }
                // longCharacterReference
                guard j - digitsStart <= 8 else {
                    return (.longCharacterReference, "a character reference of more than 8 digits (parsers disagree on them)", i)
                }
                i = j
            } else {
                i += 1
            }
        }
        return nil
    }
}

/// The text forms of scalar elements (Specs/xml-plist.md, "Values").
enum ScalarText {
    /// The value of a scalar element from its text, read as bytes: only a
    /// `<string>` (and an error message) becomes a `String`.
    static func value(_ kind: PlistGrammar.ScalarKind, _ text: Span<UInt8>, limits: PropertyListLimits) throws(PropertyListError) -> PropertyListValue {
        func shown() -> String { text.decodedString }
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
            guard data.count <= limits.maxDataBytes else {
                throw PropertyListError(.dataLimitExceeded, "data of \(data.count) bytes, over the limit of \(limits.maxDataBytes)")
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
        text.stringOfValidatedUTF8()
    }

    /// leadingByteOrderMark: Apple's parser drops a U+FEFF at the start of a string
    /// or key (written raw or as `&#xFEFF;`) while libxml2 keeps it, so such text
    /// would read differently; it is refused.
    static func checkLeadingByteOrderMark(utf8 text: Span<UInt8>) throws(PropertyListError) {
        // U+FEFF is EF BB BF in UTF-8 (it has no decomposition, so no other spelling exists).
        guard text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF else { return }
        throw PropertyListError(.leadingByteOrderMark, "text starting with U+FEFF, which Apple's parser drops")
    }

    /// An optional sign, then decimal digits (leading zeros are decimal, not octal)
    /// or `0x`/`0X` and hexadecimal digits; no whitespace.
    /// 10^0 … 10^22, every one an exact double.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

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
        var i = 0
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        // The digits, as an integer while at most 19 of them are significant.
        var mantissa: UInt64 = 0
        var significant = 0
        func digits(fraction: Bool) -> Int {
            let start = i
            while i < text.count, isDigit(text[i]) {
                if mantissa != 0 || text[i] != UInt8(ascii: "0") {
                    significant += 1
                    if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(text[i] &- UInt8(ascii: "0")) }
                }
                if fraction && significant <= 19 { scale -= 1 }
                i += 1
            }
            return i - start
        }
        func skip(_ a: UInt8, or b: UInt8 = 0) -> Bool {
            guard i < text.count, text[i] == a || (b != 0 && text[i] == b) else { return false }
            i += 1
            return true
        }
        var scale = 0
        let negative = i < text.count && text[i] == UInt8(ascii: "-")
        _ = skip(UInt8(ascii: "+"), or: UInt8(ascii: "-"))
        if i < text.count, !isDigit(text[i]), text[i] != UInt8(ascii: ".") {
            switch text.decodedString.lowercased() {
            case "nan": return .nan
            case "inf", "+inf", "infinity", "+infinity": return .infinity
            case "-inf", "-infinity": return -.infinity
            default: return nil
            }
        }
        let whole = digits(fraction: false)
        if significant > 19 { scale += significant - 19 }
        var fraction = 0
        if skip(UInt8(ascii: ".")) { fraction = digits(fraction: true) }
        guard whole > 0 || fraction > 0 else { return nil }
        var exponentIsSmall = true
        if skip(UInt8(ascii: "e"), or: UInt8(ascii: "E")) {
            let exponentNegative = i < text.count && text[i] == UInt8(ascii: "-")
            _ = skip(UInt8(ascii: "+"), or: UInt8(ascii: "-"))
            let start = i
            var exponent = 0
            while i < text.count, isDigit(text[i]) {
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
        guard i == text.count, let value = Double(text.decodedString), value.isFinite else { return nil }
        return value
    }
}
