/// Structure-aware mutation of XML and OpenStep text (Specs/fuzzing.md,
/// "Structure-aware mutation"): the text split into tokens (XML: tags and
/// the text between; OpenStep: quoted strings, words, brackets, separators,
/// comments), brackets paired into units (an element, a parenthesised array,
/// a braced dictionary, angle-bracketed data), and one change to the units:
/// a copy of another unit (of an enclosing one: a level deeper), a unit
/// removed, doubled, swapped with another, wrapped (once, or dozens of times),
/// renamed (another element, another bracket), a dictionary entry doubled (a
/// duplicate key), a leaf replaced by an edge value or through libFuzzer's
/// byte mutation. The tokens are joined again as they are: nothing is
/// re-escaped, so a mutant is as well or as badly formed as its pieces.
struct MarkupMutation {
    enum Syntax { case xml, openStep }

    enum Kind: Equatable {
        /// An opening bracket or start tag, with what closes it (a hash of a tag's name, a bracket).
        case open(UInt64)
        case close(UInt64)
        /// A value in one token: text, an empty element, a quoted string, a word.
        case leaf
        /// Space, comments, declarations, separators.
        case other
    }

    /// A token: where its bytes are in the pool (the document, then what mutations add).
    struct Token {
        var range: Range<Int>
        var kind: Kind
    }

    /// The bytes each set of tokens refers to: the document, and after it what mutations add.
    struct Pool {
        var bytes: [UInt8]

        mutating func token(_ added: [UInt8], _ kind: Kind = .other) -> Token {
            bytes += added
            return Token(range: (bytes.count - added.count)..<bytes.count, kind: kind)
        }

        func starts(_ token: Token, with prefix: [UInt8]) -> Bool {
            token.range.count >= prefix.count && bytes[token.range.lowerBound..<(token.range.lowerBound + prefix.count)].elementsEqual(prefix)
        }

        func isByte(_ token: Token, _ byte: UInt8) -> Bool { token.range.count == 1 && bytes[token.range.lowerBound] == byte }
    }

    let syntax: Syntax

    func mutate(_ document: [UInt8], _ random: inout SplitMix, _ mutateBytes: StructureAwareMutation.ByteMutation) -> [UInt8]? {
        var tokens = syntax == .xml ? Self.xmlTokens(document) : Self.openStepTokens(document)
        guard !tokens.isEmpty, tokens.count < 16384 else { return nil }
        var pool = Pool(bytes: document)
        let units = Self.units(tokens)
        guard !units.isEmpty else { return nil }
        let vocabulary = syntax == .xml ? Self.xml : Self.openStep
        let unit = random.pick(units)
        func piece(_ range: ClosedRange<Int>) -> [Token] { Array(tokens[range]) }
        switch random.next(10) {
        case 0:
            // A unit replaced by a copy of another (of an enclosing one: one level deeper).
            tokens.replaceSubrange(unit, with: piece(random.pick(units)))
        case 1:
            tokens.removeSubrange(unit)
        case 2:
            // A unit doubled (an array member more; in a dictionary, the pairs shifted).
            tokens.insert(contentsOf: [pool.token(vocabulary.separator)] + piece(unit), at: unit.upperBound + 1)
        case 3:
            // Two units swapped, when neither holds the other.
            let other = random.pick(units)
            guard unit.upperBound < other.lowerBound else { return nil }
            let (first, second) = (piece(unit), piece(other))
            tokens.replaceSubrange(other, with: first)
            tokens.replaceSubrange(unit, with: second)
        case 4:
            // A unit wrapped, once or many times (the depth limits).
            let times = random.oneIn(4) ? 8 + random.next(120) : 1
            let (open, close) = random.pick(vocabulary.wrappers)
            tokens.insert(contentsOf: Array(repeating: pool.token(close), count: times), at: unit.upperBound + 1)
            tokens.insert(contentsOf: Array(repeating: pool.token(open), count: times), at: unit.lowerBound)
        case 5:
            // A leaf replaced by an edge value.
            let leaves = units.filter { $0.count == 1 }
            guard !leaves.isEmpty else { return nil }
            tokens[random.pick(leaves).lowerBound] = pool.token(random.pick(vocabulary.edgeLeaves), .leaf)
        case 6:
            // A unit renamed: another element or bracket, its closing one to match.
            guard case .open = tokens[unit.lowerBound].kind, unit.count >= 2 else { return nil }
            let (open, close) = random.pick(vocabulary.renamings)
            tokens[unit.lowerBound] = pool.token(open)
            tokens[unit.upperBound] = pool.token(close)
        case 7:
            // A dictionary entry doubled: the same key twice.
            guard let entry = entry(in: tokens, units: units, pool: pool, &random) else { return nil }
            tokens.insert(contentsOf: piece(entry), at: entry.upperBound + 1)
        default:
            // A leaf's bytes through libFuzzer's byte mutation.
            let leaves = units.filter { $0.count == 1 }
            guard !leaves.isEmpty else { return nil }
            let at = random.pick(leaves).lowerBound
            let bytes = Array(pool.bytes[tokens[at].range])
            tokens[at] = pool.token(mutatedPart(bytes, limit: bytes.count + 32, mutateBytes), .leaf)
        }
        var output: [UInt8] = []
        output.reserveCapacity(document.count + 64)
        for token in tokens { output += pool.bytes[token.range] }
        return output
    }

    // MARK: Units

    /// Every leaf token, and every paired bracket with what it encloses.
    static func units(_ tokens: [Token]) -> [ClosedRange<Int>] {
        var units: [ClosedRange<Int>] = [], open: [(Int, UInt64)] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .leaf: units.append(index...index)
            case .open(let closer): open.append((index, closer))
            case .close(let name):
                if let last = open.lastIndex(where: { $0.1 == name }) {
                    units.append(open[last].0...index)
                    open.removeSubrange(last...)
                }
            case .other: break
            }
        }
        return units
    }

    /// A dictionary entry: XML, a `<key>` element and the unit after it;
    /// OpenStep, from a key to its `;` in a braced group.
    func entry(in tokens: [Token], units: [ClosedRange<Int>], pool: Pool, _ random: inout SplitMix) -> ClosedRange<Int>? {
        switch syntax {
        case .xml:
            let keys = units.filter { pool.starts(tokens[$0.lowerBound], with: Array("<key".utf8)) }
            guard !keys.isEmpty else { return nil }
            let key = random.pick(keys)
            guard let value = units.filter({ $0.lowerBound > key.upperBound }).min(by: { $0.lowerBound < $1.lowerBound }) else { return key }
            return key.lowerBound...value.upperBound
        case .openStep:
            let ends = tokens.indices.filter { pool.isByte(tokens[$0], UInt8(ascii: ";")) }
            guard !ends.isEmpty else { return nil }
            let end = random.pick(ends)
            var start = end
            while start > 0, !pool.isByte(tokens[start - 1], UInt8(ascii: ";")), !pool.isByte(tokens[start - 1], UInt8(ascii: "{")) { start -= 1 }
            return start...end
        }
    }

    // MARK: Vocabulary

    /// What the mutations put in: a separator between doubled units, wrappers, renamings, edge leaves.
    struct Vocabulary {
        let separator: [UInt8]
        let wrappers: [([UInt8], [UInt8])]
        let renamings: [([UInt8], [UInt8])]
        let edgeLeaves: [[UInt8]]
    }

    static let xml = Vocabulary(
        separator: [],
        wrappers: [("<array>", "</array>"), ("<dict><key>k</key>", "</dict>"), ("<array><dict><key>é</key>", "</dict></array>")]
            .map { (Array($0.utf8), Array($1.utf8)) },
        renamings: ["array", "dict", "key", "string", "integer", "real", "date", "data", "true", "plist", "uid"]
            .map { (Array("<\($0)>".utf8), Array("</\($0)>".utf8)) },
        edgeLeaves: [
            "&amp;", "&#x1F600;", "&#xD800;", "&#0;", "&#1114112;", "&#x;", "&unknown;", "<![CDATA[a]]>b", "<![CDATA[]]>",
            "0x7FFFFFFFFFFFFFFF", "-9223372036854775809", "18446744073709551615", "-0x8000000000000000", "1e309", "-0", "nan",
            "+inf", ".5", "5.", "0001-01-01T00:00:00Z", "2001-02-29T00:00:00Z", "9999-12-31T23:59:59Z", "-0001-01-01T00:00:00Z",
            "AA==", "A A = =", "====", " \t\n", "e\u{301}", "\u{202E}", "<true/>", "<false/>", "<string/>", "<data></data>",
            "<dict/>", "<array/>", "<key/>", "<integer></integer>", "<real>-0.0</real>", "<!-- c -->", "<?pi x?>",
        ].map { Array($0.utf8) })

    static let openStep = Vocabulary(
        separator: Array(", ".utf8),
        wrappers: [("(", ")"), ("{k = ", ";}"), ("(\"e\\U0301\", ", ")")].map { (Array($0.utf8), Array($1.utf8)) },
        renamings: [("(", ")"), ("{", "}"), ("<", ">"), ("<*", ">"), ("\"", "\"")].map { (Array($0.utf8), Array($1.utf8)) },
        edgeLeaves: [
            "\"\\U00e9\"", "\"\\UD800\"", "\"\\UDE00\\UD83D\"", "\"\\377\"", "\"\\0\"", "\"\\\"", "\"\"", "\"e\\U0301\"",
            "<0fff>", "<0 f>", "<>", "<0>", "<*I-5>", "<*I18446744073709551616>", "<*R1.5>", "<*BY>", "<*D2001-01-01 00:00:00 +0000>",
            "a$b", "/*", "//", "a/b", "-1", "0x10", "1e309", "{}", "()", "\u{202E}", "\"\\t\\n\"",
        ].map { Array($0.utf8) })

    // MARK: Tokens

    /// FNV-1a of a tag's name or a bracket, to pair openings and closings.
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    static func xmlTokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = [], at = 0
        let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        /// The end of the first `needle` from `start`, or the end of the bytes.
        func end(of needle: [UInt8], from start: Int) -> Int {
            var index = start
            while index + needle.count <= bytes.count {
                if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
                index += 1
            }
            return bytes.count
        }
        while at < bytes.count {
            let start = at
            if bytes[at] == lessThan {
                let rest = bytes[at...]
                let kind: Kind
                if rest.starts(with: [lessThan, 0x21, 0x2D, 0x2D]) {  // <!--
                    at = end(of: Array("-->".utf8), from: at + 4)
                    kind = .other
                } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                    at = end(of: Array("]]>".utf8), from: at + 9)
                    kind = .leaf
                } else {
                    at = bytes[(at + 1)...].firstIndex(of: greaterThan).map { $0 + 1 } ?? bytes.count
                    let second = at - start > 1 ? bytes[start + 1] : 0
                    let nameStart = start + (second == slash ? 2 : 1)
                    var nameEnd = nameStart
                    while nameEnd < at, ![greaterThan, slash, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[nameEnd]) { nameEnd += 1 }
                    let name = hash(bytes[nameStart..<max(nameStart, nameEnd)])
                    if at - start >= 2, bytes[at - 2] == slash { kind = .leaf }
                    else if second == UInt8(ascii: "?") || second == UInt8(ascii: "!") { kind = .other }
                    else if second == slash { kind = .close(name) }
                    else { kind = .open(name) }
                }
                tokens.append(Token(range: start..<at, kind: kind))
            } else {
                at = bytes[at...].firstIndex(of: lessThan) ?? bytes.count
                let blank = bytes[start..<at].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
                tokens.append(Token(range: start..<at, kind: blank ? .other : .leaf))
            }
        }
        return tokens
    }

    static func openStepTokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = [], at = 0
        func bracket(_ byte: UInt8) -> UInt64 { hash([byte]) }
        let opening: [UInt8: UInt8] = [UInt8(ascii: "("): UInt8(ascii: ")"), UInt8(ascii: "{"): UInt8(ascii: "}"), UInt8(ascii: "<"): UInt8(ascii: ">")]
        let closing = Set(opening.values)
        let punctuation = Set("(){}<>,;=\"".utf8)
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        while at < bytes.count {
            let byte = bytes[at], start = at
            let next = at + 1 < bytes.count ? bytes[at + 1] : 0
            var kind = Kind.other
            if byte == quote {
                at += 1
                while at < bytes.count, bytes[at] != quote { at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1 }
                at = min(at + 1, bytes.count)
                kind = .leaf
            } else if byte == slash, next == star {
                at += 2
                while at + 1 < bytes.count, !(bytes[at] == star && bytes[at + 1] == slash) { at += 1 }
                at = min(at + 2, bytes.count)
            } else if byte == slash, next == slash {
                at = bytes[at...].firstIndex(of: 0x0A) ?? bytes.count
            } else if let closer = opening[byte] {
                at += 1
                kind = .open(bracket(closer))
            } else if closing.contains(byte) {
                at += 1
                kind = .close(bracket(byte))
            } else if punctuation.contains(byte) {
                at += 1
            } else if space.contains(byte) {
                while at < bytes.count, space.contains(bytes[at]) { at += 1 }
            } else {
                while at < bytes.count, !space.contains(bytes[at]), !punctuation.contains(bytes[at]) {
                    if bytes[at] == slash, at + 1 < bytes.count, bytes[at + 1] == star || bytes[at + 1] == slash { break }
                    at += 1
                }
                if at == start { at += 1 }
                kind = .leaf
            }
            tokens.append(Token(range: start..<min(at, bytes.count), kind: kind))
        }
        return tokens
    }
}
