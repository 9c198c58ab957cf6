import Foundation
@testable import PropertyListXML
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing

/// The markup pass (Specs/xml-plist.md, `tagTooLong`, `misplacedReference`,
/// `longCharacterReference`), which visits only the "<", ">" and "&" bytes
/// that 64-byte masks flag, against a model: the pass as it was written
/// before (a byte search to each next "<" or "&", then to the tag's ">"),
/// kept here as the reference. Both must give the same verdict and offset.
@Suite("XML markup pass against its model")
struct XMLMarkupScanTests {
    static func agree(_ bytes: [UInt8], _ comment: @autoclosure () -> String) {
        let scan = MarkupScan.firstFailure(in: bytes.span)
        let model = Model.modelFirstFailure(in: bytes.span)
        #expect(scan?.code == model?.code && scan?.offset == model?.offset,
                "\(comment()): scan \(String(describing: scan)), model \(String(describing: model))")
    }

    @Test("the masks from SSE2 and from words agree, for every value and position")
    func masks() {
        var random = TestRandom(seed: 4601)
        for _ in 0..<2_000 {
            let bytes = (0..<(64 + Int.random(in: 0...40, using: &random))).map { _ in
                [0x3C, 0x3E, 0x26, 0x00, 0xFF, 0x3D, 0x3F, UInt8.random(in: 0...255, using: &random)][Int.random(in: 0...7, using: &random)] as UInt8
            }
            let offset = Int.random(in: 0...(bytes.count - 64), using: &random)
            let values: [UInt8] = [0x3C, 0x3E, 0x26, 0x00, 0xFF, UInt8.random(in: 0...255, using: &random)].shuffled(using: &random)
            let fast = bytes.span.byteMasks(at: offset, values[0], values[1], values[2])
            let portable = bytes.span.portableByteMasks(at: offset, values[0], values[1], values[2])
            for (index, value) in values.prefix(3).enumerated() {
                var expected: UInt64 = 0
                for k in 0..<64 where bytes[offset + k] == value { expected |= 1 << UInt64(k) }
                let got = [fast.first, fast.second, fast.third][index]
                let gotPortable = [portable.first, portable.second, portable.third][index]
                #expect(got == expected && gotPortable == expected, "\(random): value \(value) at \(offset)")
                #expect(bytes.span.byteMask(at: offset, value) == expected, "\(random): one mask, value \(value) at \(offset)")
            }
        }
    }

    @Test("tagTooLong at the limit and around it, in every position of a block, closed and open at the end")
    func edges() {
        let limit = XMLInput.maxTagBytes
        for length in [limit - 1, limit, limit + 1, limit + 2] {
            for lead in [0, 1, 7, 8, 15, 31, 62, 63, 64, 65, 127] {
                let name = [UInt8](repeating: UInt8(ascii: "a"), count: length - 1)
                let prefix = [UInt8](repeating: UInt8(ascii: " "), count: lead)
                Self.agree(prefix + [UInt8(ascii: "<")] + name + [UInt8(ascii: ">")], "closed, \(length), lead \(lead)")
                Self.agree(prefix + [UInt8(ascii: "<")] + name, "open at the end, \(length), lead \(lead)")
                Self.agree(prefix + [UInt8(ascii: "<")] + name + Array("<!-- > -->".utf8), "comment inside the tag, \(length)")
                Self.agree(prefix + Array("<string>&amp;</string><".utf8) + name, "after a reference, \(length)")
            }
        }
        #expect(MarkupScan.firstFailure(in: Array(("<" + String(repeating: "a", count: limit) + ">").utf8).span)?.code == .tagTooLong)
        #expect(MarkupScan.firstFailure(in: Array(("<" + String(repeating: "a", count: limit - 1) + ">").utf8).span) == nil)
        #expect(MarkupScan.firstFailure(in: Array("<array>&amp;</array>".utf8).span)?.code == .misplacedReference)
        #expect(MarkupScan.firstFailure(in: Array("<key>&#0000000060;</key>".utf8).span)?.code == .longCharacterReference)
    }

    /// Up to 60 pieces, and now and then (one in `oneRunIn`) a run of 30 to
    /// 1,100 text bytes, around the tag limit.
    static func document(_ random: inout TestRandom, pieces: [String], oneRunIn: Int) -> [UInt8] {
        var document: [UInt8] = []
        for _ in 0..<Int.random(in: 0...60, using: &random) {
            if Int.random(in: 0..<oneRunIn, using: &random) == 0 {
                document += [UInt8](repeating: UInt8(ascii: "x"), count: Int.random(in: 30...1100, using: &random))
            } else {
                document += Array(pieces[Int.random(in: 0..<pieces.count, using: &random)].utf8)
            }
        }
        return document
    }

    @Test("the scan agrees with its model on 30,000 random documents")
    func randomDocuments() {
        var random = TestRandom(seed: 46)
        let pieces = ["<", ">", "&", "<!--", "-->", "<![CDATA[", "]]>", "<!", "<!DOCTYPE plist>", "a", "key", "\n", "<string>",
                      "</string>", "<key>", "</key>", "<integer>", "=", "?", "<=", ">?", "--", "]]", "&amp;", "&#60;", "&#x3C;",
                      "&#000000060;", "&#0000000060;", "&#", "&#x", ";", "<k", "<ke", "<str", "&lt;"]
        for _ in 0..<30_000 {
            let document = Self.document(&random, pieces: pieces, oneRunIn: 14)
            Self.agree(document, "\(random): \(String(decoding: document.prefix(300), as: UTF8.self))")
        }
    }

    @Test("without references, the pass that reads only the \">\" bytes agrees with the model on 30,000 random documents")
    func randomDocumentsWithoutReferences() {
        var random = TestRandom(seed: 4646)
        let pieces = ["<", ">", "<!--", "-->", "<![CDATA[", "]]>", "<!", "a", "\n", "<string>", "</string>", "<key>", "<=", ">?", "--"]
        var decidedByGaps = 0
        for _ in 0..<30_000 {
            let document = Self.document(&random, pieces: pieces, oneRunIn: 4)
            if MarkupScan.noTagCanBeTooLong(in: document.span) {
                decidedByGaps += 1
                #expect(Model.modelFirstFailure(in: document.span) == nil, "\(random): \(String(decoding: document.prefix(300), as: UTF8.self))")
            }
            Self.agree(document, "\(random): \(String(decoding: document.prefix(300), as: UTF8.self))")
        }
        // Both answers of the gap pass are met often.
        #expect(decidedByGaps > 5_000 && decidedByGaps < 25_000, "\(decidedByGaps) documents decided by the gaps")
    }

    @Test("the scan agrees with its model on every XML file Apple's tools wrote (../shared/realworld) and every conformance file")
    func realFiles() throws {
        var checked = 0
        for file in try Paths.sharedCorpusFiles() {
            guard let bytes = try? [UInt8](Data(contentsOf: file)), bytes.starts(with: Array("<?xml".utf8)) else { continue }
            Self.agree(bytes, file.lastPathComponent)
            checked += 1
        }
        #expect(checked > 50)
    }
}

/// The model: the markup pass before the 64-byte masks, unchanged.
enum Model {
    static func modelFirstFailure(in bytes: Span<UInt8>) -> (code: PropertyListError.Code, reason: String, offset: Int)? {
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
