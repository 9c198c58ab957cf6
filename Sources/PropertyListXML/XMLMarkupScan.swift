import FoundationEssentials
@_spi(ByteKit) import PropertyList

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
            // Text: to the next "<" or "&" (the lowest flag is exact).
            let text = bytes.firstFlaggedByte(from: i, before: count) { w in
                flags(w, 0x3C) | (ampersand == 0x26 ? flags(w, 0x26) : 0)
            }
            i = text.offset
            if !text.found { while i < count, base[i] != 0x3C, base[i] != 0x26 { i += 1 } }
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
                let close = bytes.firstFlaggedByte(from: i + 1, before: tagEnd) { flags($0, 0x3E) }
                var j = close.offset
                if !close.found { while j < tagEnd, base[j] != 0x3E { j += 1 } }
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
