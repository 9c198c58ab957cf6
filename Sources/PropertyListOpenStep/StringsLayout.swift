@_spi(ByteKit) public import PropertyList

/// A `.strings` file as it was written: its text, and where each entry (key
/// to `;`) stands in it (Specs/openstep.md, "Editing a `.strings` file"). An
/// edit written over it changes only the entries it changes: comments, blank
/// lines and every other entry stay as they were, byte for byte.
public struct StringsLayout: Sendable {
    /// The text, as UTF-8.
    let utf8: [UInt8]
    /// The number of Unicode scalars in the text (what an edit is charged for it).
    let scalarCount: Int
    /// Each entry's place in `utf8`, in the order of `original`.
    let entries: [Range<Int>]
    /// The dictionary the text holds.
    let original: PropertyListDictionary

    init(utf8: [UInt8], entries: [Range<Int>], original: PropertyListDictionary) {
        precondition(entries.count == original.count, "one span per entry")
        (self.utf8, self.entries, self.original) = (utf8, entries, original)
        // Every byte but a continuation byte (10xxxxxx) starts a scalar.
        scalarCount = utf8.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}

extension OpenStepWriter {
    /// `dictionary` as a `.strings` file laid out over `layout`, in ``encoding``:
    /// the text between entries as it was, each entry whose value is unchanged
    /// as it was, a changed one as `"key" = "value";` in its place, a removed
    /// one gone (with its line, when nothing else is on it), and new keys at the
    /// end in the dictionary's order. Nil when the keys the two share are in
    /// another order (a sorted rewrite): write it whole then.
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/unrepresentableValue`` for a
    ///   changed or new value that is not a string; ``ErrorCode/expansionLimitExceeded``.
    public func writeStrings(_ dictionary: PropertyListDictionary, over layout: StringsLayout) throws(PropertyListError) -> [UInt8]? {
        // The shared keys keep their order, or this is no edit of that text.
        let kept = dictionary.keys.filter { layout.original[$0] != nil }
        guard kept.elementsEqual(layout.original.keys.filter { dictionary[$0] != nil }) else { return nil }
        var meter = ExpansionMeter(limit: limits.maxExpandedBytes)
        try meter.charge(depth: 0, payload: layout.scalarCount)
        let text = layout.utf8
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 64)
        var cursor = 0
        for (span, (key, old)) in zip(layout.entries, layout.original) {
            out.append(contentsOf: text[cursor..<span.lowerBound])
            cursor = span.upperBound
            guard let new = dictionary[key] else {
                // Removed: its line goes too when the entry had it to itself.
                let (space, tab, lineFeed, carriageReturn) = (UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"))
                var lineEnd = cursor
                while lineEnd < text.count, text[lineEnd] == space || text[lineEnd] == tab { lineEnd += 1 }
                let lineStart = out.lastIndex(where: { $0 != space && $0 != tab }).map { $0 + 1 } ?? 0
                let aloneBefore = lineStart == 0 || out[lineStart - 1] == lineFeed
                let lineBreak = lineEnd < text.count && text[lineEnd] == lineFeed ? 1
                    : lineEnd + 1 < text.count && text[lineEnd] == carriageReturn && text[lineEnd + 1] == lineFeed ? 2 : 0
                if aloneBefore, lineBreak > 0 {
                    out.removeSubrange(lineStart...)
                    cursor = lineEnd + lineBreak
                }
                continue
            }
            if new == old {
                out.append(contentsOf: text[span])
            } else {
                out.append(contentsOf: try entry(key, new).utf8)
            }
        }
        out.append(contentsOf: text[cursor...])
        for (key, value) in dictionary where layout.original[key] == nil {
            if let last = out.last, last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: try entry(key, value).utf8)
            out.append(UInt8(ascii: "\n"))
            try meter.charge(depth: 1, payload: key.utf8.count + (value.stringValue?.utf8.count ?? 0))
        }
        // A text of no characters is no document: an empty .strings file is a line break.
        if out.isEmpty { out.append(UInt8(ascii: "\n")) }
        // The pieces are whole UTF-8 sequences: the text's between entries, and the entries'.
        return encoding.encode(String(decoding: out, as: UTF8.self))
    }

    /// One entry as the `.strings` style writes it.
    private func entry(_ key: String, _ value: PropertyListValue) throws(PropertyListError) -> String {
        // unrepresentableValue: a .strings file holds strings.
        guard case .string(let string) = value else {
            throw PropertyListError(.unrepresentableValue, "a .strings file holds strings, not a \(value.typeName)", keyPath: PropertyListKeyPath([.key(key)]))
        }
        return Self.quoted(key) + " = " + Self.quoted(string) + ";"
    }
}
