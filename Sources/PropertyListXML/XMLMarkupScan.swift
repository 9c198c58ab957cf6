import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The markup pass of ``XMLInput/checkMarkup(_:)``: 64 bytes at a time, the
/// kit's masks flag every `<`, `>` and (in a document that holds one) `&`,
/// and only those bytes are visited. A tag runs from the `<` that opens it
/// (the first in text) to the first `>` after it; comments and CDATA
/// sections are skipped whole; a reference is checked where it stands in
/// text.
enum MarkupScan {
    typealias Failure = (code: PropertyListError.Code, reason: String, offset: Int)

    /// The first markup rule `bytes` breaks, with its offset, or nil.
    static func firstFailure(in bytes: Span<UInt8>) -> Failure? {
        let count = bytes.count
        let maxTag = XMLInput.maxTagBytes
        let less = UInt8(ascii: "<"), greater = UInt8(ascii: ">"), ampersand = UInt8(ascii: "&")
        // "<string>" as one little-endian word, and "<key>" in the low five bytes of one.
        let stringTag: UInt64 = 0x3E67_6E69_7274_733C
        let keyTag: UInt64 = 0x3E_7965_6B3C
        // Most documents hold no "&" at all (one memchr says so): then only tags are flagged.
        let hasReferences = bytes.contains(ampersand)
        // Without references only tagTooLong can fail, and the ">" bytes alone
        // usually show that it cannot: then the tags need not be visited.
        if !hasReferences, noTagCanBeTooLong(in: bytes) { return nil }
        /// The `<` of the tag open at this point, or -1 in text.
        var open = -1
        /// In text that the last tag opened as a `<string>` or `<key>`.
        var referencesExpand = false
        var block = 0
        while block < count {
            let masks: ByteMasks
            if block &+ 64 <= count {
                masks = bytes.byteMasks(at: block, less, greater, ampersand)
            } else {
                // The last bytes, in a block padded with NULs (which match nothing).
                var last = InlineArray<64, UInt8>(repeating: 0)
                for k in 0..<(count &- block) { last[k] = bytes[block &+ k] }
                masks = last.span.byteMasks(at: 0, less, greater, ampersand)
            }
            var flags = masks.first | masks.second | (hasReferences ? masks.third : 0)
            var next = block &+ 64
            while flags != 0 {
                let p = block &+ flags.trailingZeroBitCount
                flags &= flags &- 1
                /// Where to go on from when a construct ends past `p`.
                var resume: Int?
                switch bytes[p] {
                case less:
                    guard open < 0 else { continue }
                    if p &+ 1 < count, bytes[p &+ 1] == UInt8(ascii: "!") {
                        if bytes.hasPrefix("<!--", at: p) {
                            referencesExpand = false
                            guard let end = bytes.firstIndex(of: "-->", from: p &+ 4) else { return nil }
                            resume = end &+ 3
                        } else if bytes.hasPrefix("<![CDATA[", at: p) {
                            referencesExpand = false
                            guard let end = bytes.firstIndex(of: "]]>", from: p &+ 9) else { return nil }
                            resume = end &+ 3
                        }
                    }
                    if resume == nil {
                        open = p
                        // Which tag it is matters only to a reference after it.
                        if hasReferences {
                            if p &+ 8 <= count {
                                let word = bytes.word(at: p)
                                referencesExpand = word == stringTag || word & 0xFF_FFFF_FFFF == keyTag
                            } else {
                                referencesExpand = bytes.hasPrefix("<string>", at: p) || bytes.hasPrefix("<key>", at: p)
                            }
                        }
                    }
                case greater:
                    guard open >= 0 else { continue }
                    // tagTooLong
                    if p &- open > maxTag { return (.tagTooLong, "a tag longer than \(maxTag) bytes", open) }
                    open = -1
                default:  // "&"
                    guard open < 0 else { continue }
                    guard referencesExpand else {
                        // misplacedReference: Apple's parser expands references in strings and keys only.
                        return (.misplacedReference, "a character or entity reference outside <string> and <key> (Apple's parser reads it unexpanded)", p)
                    }
                    guard p &+ 1 < count, bytes[p &+ 1] == UInt8(ascii: "#") else { continue }
                    var j = p &+ 2
                    if j < count, bytes[j] == UInt8(ascii: "x") { j &+= 1 }
                    let digitsStart = j
                    while j < count, j &- digitsStart <= 8, bytes[j] != UInt8(ascii: ";") { j &+= 1 }
                    // longCharacterReference
                    guard j &- digitsStart <= 8 else {
                        return (.longCharacterReference, "a character reference of more than 8 digits (parsers disagree on them)", p)
                    }
                    resume = j
                }
                guard let resume else { continue }
                // Everything before `resume` is inside the construct: not markup.
                if resume >= block &+ 64 {
                    next = resume
                    break
                }
                flags &= ~((1 &<< UInt64(resume &- block)) &- 1)
            }
            block = next
        }
        // tagTooLong: a tag still open at the end.
        if open >= 0, count &- open > maxTag { return (.tagTooLong, "a tag longer than \(maxTag) bytes", open) }
        return nil
    }

    /// True when no tag can be too long, judged from where the ">" bytes
    /// stand (one mask per 64 bytes): a tag opened by a "<" at `p` ends at
    /// the first ">" after it, so it is too long only if that ">" is more
    /// than `maxTagBytes` after `p`. Between two ">" (or before the first,
    /// or after the last) that can happen only where the gap is longer than
    /// that and a "<" stands more than `maxTagBytes` before its end; such a
    /// "<" may lie in a comment or CDATA, so false means "not shown", and the
    /// full pass decides. Each byte is read at most twice.
    static func noTagCanBeTooLong(in bytes: Span<UInt8>) -> Bool {
        let count = bytes.count
        let maxTag = XMLInput.maxTagBytes
        let greater = UInt8(ascii: ">")
        /// No "<" stands more than `maxTag` bytes before `end` in the gap
        /// after the ">" at `last` (-1: the start).
        func gapIsShort(after last: Int, to end: Int) -> Bool {
            end &- last <= maxTag || !bytes.extracting((last &+ 1)..<(end &- maxTag)).contains(UInt8(ascii: "<"))
        }
        var last = -1
        var block = 0
        while block &+ 64 <= count {
            let mask = bytes.byteMask(at: block, greater)
            if mask != 0 {
                guard gapIsShort(after: last, to: block &+ mask.trailingZeroBitCount) else { return false }
                last = block &+ 63 &- mask.leadingZeroBitCount
            }
            block &+= 64
        }
        while block < count {
            if bytes[block] == greater {
                guard gapIsShort(after: last, to: block) else { return false }
                last = block
            }
            block &+= 1
        }
        // A tag still open at the end.
        return gapIsShort(after: last, to: count)
    }
}
