@_spi(ByteKit) public import PropertyList

/// A `.strings` file as it was written: its text, and where each entry (key
/// to `;`) stands in it (Specs/openstep.md, "Editing a `.strings` file"). An
/// edit written over it changes only the entries it changes: comments, blank
/// lines and every other entry stay as they were, byte for byte.
public struct StringsLayout: Sendable {
    /// The text, as Unicode scalars.
    let scalars: [Unicode.Scalar]
    /// Each entry's place in `scalars`, in the order of `original`.
    let entries: [Range<Int>]
    /// The dictionary the text holds.
    let original: PropertyListDictionary

    init(scalars: [Unicode.Scalar], entries: [Range<Int>], original: PropertyListDictionary) {
        precondition(entries.count == original.count, "one span per entry")
        (self.scalars, self.entries, self.original) = (scalars, entries, original)
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
        try meter.charge(depth: 0, payload: layout.scalars.count)
        let scalars = layout.scalars
        // An array, not a String.UnicodeScalarView: appending to the view copies it
        // whole each time (quadratic; ScalingTests, "replace in a .strings file").
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count + 64)
        var cursor = 0
        for (span, (key, old)) in zip(layout.entries, layout.original) {
            out.append(contentsOf: scalars[cursor..<span.lowerBound])
            cursor = span.upperBound
            guard let new = dictionary[key] else {
                // Removed: its line goes too when the entry had it to itself.
                var lineEnd = cursor
                while lineEnd < scalars.count, scalars[lineEnd] == " " || scalars[lineEnd] == "\t" { lineEnd += 1 }
                let lineStart = out.lastIndex(where: { $0 != " " && $0 != "\t" }).map { $0 + 1 } ?? 0
                let aloneBefore = lineStart == 0 || out[lineStart - 1] == "\n"
                let lineBreak = lineEnd < scalars.count && scalars[lineEnd] == "\n" ? 1
                    : lineEnd + 1 < scalars.count && scalars[lineEnd] == "\r" && scalars[lineEnd + 1] == "\n" ? 2 : 0
                if aloneBefore, lineBreak > 0 {
                    out.removeSubrange(lineStart...)
                    cursor = lineEnd + lineBreak
                }
                continue
            }
            if new == old {
                out.append(contentsOf: scalars[span])
            } else {
                out.append(contentsOf: try entry(key, new).unicodeScalars)
            }
        }
        out.append(contentsOf: scalars[cursor...])
        for (key, value) in dictionary where layout.original[key] == nil {
            if let last = out.last, last != "\n" { out.append("\n") }
            out.append(contentsOf: try entry(key, value).unicodeScalars)
            out.append("\n")
            try meter.charge(depth: 1, payload: key.utf8.count + (value.stringValue?.utf8.count ?? 0))
        }
        // A text of no characters is no document: an empty .strings file is a line break.
        if out.isEmpty { out.append("\n") }
        var text = ""
        text.unicodeScalars.append(contentsOf: out)
        return encoding.encode(text)
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
