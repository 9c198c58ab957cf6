import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// Checks on the raw document, before libxml2 parses it (Specs/xml-plist.md,
/// "Before parsing").
enum XMLInput {
    /// The document types Apple's tools write: the current public identifier, and
    /// the older "Apple Computer" one, both with Apple's system identifier.
    static let appleDocumentTypes: [(publicID: StaticString, systemID: StaticString)] = [
        ("-//Apple//DTD PLIST 1.0//EN", "http://www.apple.com/DTDs/PropertyList-1.0.dtd"),
        ("-//Apple Computer//DTD PLIST 1.0//EN", "http://www.apple.com/DTDs/PropertyList-1.0.dtd"),
    ]

    /// Apple's prolog as its writers write it, byte for byte: the XML
    /// declaration and the document type, each on its line (both public
    /// identifiers of ``appleDocumentTypes``).
    static let appleProlog: StaticString = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
    /// The same with the older "Apple Computer" public identifier.
    static let olderAppleProlog: StaticString = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple Computer//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"

    /// Where the root element starts when the document opens with exactly
    /// Apple's prolog and the root `<plist` follows it at once ("Apple's
    /// prolog"): its byte offset, line and column; nil otherwise. That prolog
    /// passes every check (``checkProlog(_:)``, the document type's) and libxml2
    /// reads it the same way every time, so the parse starts after it.
    static func rootAfterAppleProlog(_ utf8: Span<UInt8>) -> (offset: Int, line: Int, column: Int)? {
        let offset: Int
        if utf8.hasPrefix(appleProlog, at: 0) {
            offset = appleProlog.utf8CodeUnitCount
        } else if utf8.hasPrefix(olderAppleProlog, at: 0) {
            offset = olderAppleProlog.utf8CodeUnitCount
        } else {
            return nil
        }
        // Anything but the root right after it (a comment, a second
        // declaration or document type) is left to libxml2's whole parse.
        guard utf8.hasPrefix("<plist", at: offset) else { return nil }
        // Each prolog is two lines, each ended by a line feed.
        return (offset, 3, 1)
    }

    /// The encoding names a declaration may give, compared ignoring ASCII case.
    private static let utf8Names: [StaticString] = ["utf-8", "utf8"]
    private static let utf16BigEndianNames: [StaticString] = ["utf-16", "utf-16be"]
    private static let utf16LittleEndianNames: [StaticString] = ["utf-16", "utf-16le"]

    /// Calls `body` with the document as UTF-8, checked (Specs/xml-plist.md,
    /// "Before parsing"): a UTF-8 byte-order mark is dropped (the input read
    /// in place, not copied), UTF-16 with a byte-order mark is transcoded,
    /// anything else must be valid UTF-8, with no NUL byte, and declare no
    /// other encoding.
    static func withUTF8<R>(_ bytes: Span<UInt8>, _ body: (Span<UInt8>) throws(PropertyListError) -> R) throws(PropertyListError) -> R {
        if starts(bytes, with: [0xEF, 0xBB, 0xBF]) {
            let utf8 = bytes.extracting(3...)
            try check(utf8, declaredAllowed: utf8Names)
            return try body(utf8)
        }
        if starts(bytes, with: [0x00, 0x00, 0xFE, 0xFF]) || starts(bytes, with: [0xFF, 0xFE, 0x00, 0x00]) {
            // unsupportedEncoding: UTF-32 is not a property-list encoding.
            throw PropertyListError(.unsupportedEncoding, "UTF-32 documents are not supported", at: .lineColumn(line: 1, column: 1))
        }
        if starts(bytes, with: [0xFE, 0xFF]) || starts(bytes, with: [0xFF, 0xFE]) {
            let bigEndian = bytes[0] == 0xFE
            let utf8 = try transcodeUTF16(bytes.extracting(2...), bigEndian: bigEndian)
            try check(utf8.span, declaredAllowed: bigEndian ? utf16BigEndianNames : utf16LittleEndianNames)
            return try body(utf8.span)
        }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            // unsupportedEncoding: UTF-16 without a byte-order mark is ambiguous.
            throw PropertyListError(.unsupportedEncoding, "UTF-16 without a byte-order mark (or NUL bytes) is not supported", at: .lineColumn(line: 1, column: 1))
        }
        try check(bytes, declaredAllowed: utf8Names)
        return try body(bytes)
    }

    /// True when `bytes` start with `prefix`.
    private static func starts(_ bytes: Span<UInt8>, with prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        for (i, byte) in prefix.enumerated() where bytes[i] != byte { return false }
        return true
    }

    /// The checks of the document as UTF-8, in order.
    private static func check(_ utf8: Span<UInt8>, declaredAllowed: [StaticString]) throws(PropertyListError) {
        // invalidUTF8
        if let bad = firstInvalidUTF8(utf8) {
            let (line, column) = lineColumn(utf8, bad)
            throw PropertyListError(.invalidUTF8, "bytes that are not UTF-8", at: .lineColumn(line: line, column: column))
        }
        // malformedXML: U+0000 is not an XML character. libxml2 refuses it too, but
        // its pull parser stops at one after the root element as at the end of input.
        if let nul = utf8.firstIndex(of: 0) {
            let (line, column) = lineColumn(utf8, nul)
            throw PropertyListError(.malformedXML, "a NUL byte (U+0000 is not an XML character)", at: .lineColumn(line: line, column: column))
        }
        // unsupportedEncoding: the declared encoding must be the one the bytes are in.
        if let range = declaredEncodingRange(utf8),
           !declaredAllowed.contains(where: { utf8.extracting(range).bytes.equalsIgnoringASCIICase($0) }) {
            let declared = utf8.extracting(range).bytes.decodedString
            throw PropertyListError(.unsupportedEncoding, "declared encoding \(declared) is not supported (UTF-8, or UTF-16 with a byte-order mark)",
                                    at: .lineColumn(line: 1, column: 1))
        }
    }

    private static func transcodeUTF16(_ body: Span<UInt8>, bigEndian: Bool) throws(PropertyListError) -> [UInt8] {
        guard body.count % 2 == 0 else {
            throw PropertyListError(.invalidUTF8, "UTF-16 text of an odd number of bytes", at: .lineColumn(line: 1, column: 1))
        }
        var units: [UInt16] = []
        units.reserveCapacity(body.count / 2)
        var index = 0
        while index < body.count {
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
    /// found by the kit's validator (`Span.firstInvalidUTF8()`, `UTF8Validation`).
    static func firstInvalidUTF8(_ bytes: Span<UInt8>) -> Int? {
        bytes.firstInvalidUTF8()
    }

    /// 1-based line and column of a byte offset (columns count bytes, as libxml2's do).
    static func lineColumn(_ bytes: Span<UInt8>, _ offset: Int) -> (Int, Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The `encoding` pseudo-attribute of the XML declaration, if any.
    static func declaredEncoding(_ utf8: Span<UInt8>) -> String? {
        declaredEncodingRange(utf8).map { utf8.extracting($0).bytes.decodedString }
    }

    /// Where the value of the XML declaration's `encoding` pseudo-attribute is, if it has one.
    static func declaredEncodingRange(_ utf8: Span<UInt8>) -> Range<Int>? {
        guard utf8.hasPrefix("<?xml", at: 0), let end = find("?>", in: utf8, from: 0),
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
        return start..<close
    }

    /// forbiddenDeclaration / forbiddenNode / emptyPrologComment: in the prolog, a
    /// document type has no internal subset (so no entity, element or attribute
    /// declaration can exist, and libxml2 never expands any), no processing
    /// instruction appears, and no comment is empty.
    static func checkProlog(_ utf8: Span<UInt8>) throws(PropertyListError) {
        var i = 0
        func skipWhitespace() { while i < utf8.count, utf8[i] == 0x20 || utf8[i] == 0x09 || utf8[i] == 0x0A || utf8[i] == 0x0D { i += 1 } }
        func at(_ text: StaticString) -> Bool { utf8.hasPrefix(text, at: i) }
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
                i += 9
                while i < utf8.count {
                    let byte = utf8[i]
                    if byte == 0x22 || byte == 0x27 {
                        // A quoted identifier: on to its closing quote at once
                        // (nothing inside one matters here).
                        guard let close = utf8.firstIndex(of: byte, from: i + 1) else { return }
                        i = close
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
    static func checkMarkup(_ utf8: Span<UInt8>) throws(PropertyListError) {
        if let failure = MarkupScan.firstFailure(in: utf8) {
            let (line, column) = lineColumn(utf8, failure.offset)
            throw PropertyListError(failure.code, failure.reason, at: .lineColumn(line: line, column: column))
        }
    }

    /// ambiguousLineEnding: a raw carriage return inside `<string>` or `<key>`
    /// content. XML parsers (libxml2) read it as a line feed while Apple's parser
    /// keeps it, so the two would read different strings; `&#13;` is unambiguous.
    static func checkLineEndings(_ utf8: Span<UInt8>) throws(PropertyListError) {
        let bytes = utf8
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

    /// The offset of the first `literal` in `bytes` at or after `start`.
    static func find(_ literal: StaticString, in bytes: Span<UInt8>, from start: Int) -> Int? {
        bytes.firstIndex(of: literal, from: start)
    }
}
