import Foundation
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing

/// The kit's UTF-8 validator (`Span.firstInvalidUTF8()`), the check every XML
/// document gets before libxml2 sees it, against the standard library's
/// (`UTF8Span(validating:)`) as its model: the same verdict and the same offset
/// (the start of the first ill-formed sequence) on every input.
@Suite("UTF-8 validation against the standard library's")
struct UTF8ValidationTests {
    static func model(_ bytes: [UInt8]) -> Int? {
        do {
            _ = try UTF8Span(validating: bytes.span)
            return nil
        } catch {
            return error.byteOffsets.lowerBound
        }
    }

    static func agree(_ bytes: [UInt8], _ comment: @autoclosure () -> String) {
        let got = bytes.span.firstInvalidUTF8()
        let expected = model(bytes)
        #expect(got == expected, "\(comment()): \(String(describing: got)) vs \(String(describing: expected))")
    }

    @Test("every lead byte with every second byte, alone, followed by continuations, and cut short")
    func leadAndSecondBytes() {
        for lead in 0...255 {
            for second in 0...255 {
                let pair = [UInt8(lead), UInt8(second)]
                Self.agree(pair, "\(pair)")
                Self.agree(pair + [0x80, 0xBF], "\(pair) + 80 BF")
                Self.agree(pair + [0x80, 0x41], "\(pair) + 80 41")
                Self.agree([0x41] + pair + [0x80], "41 \(pair) 80")
            }
            Self.agree([UInt8(lead)], "\(lead) alone")
        }
    }

    @Test("200,000 random sequences: valid text of every length with bytes changed, cut and inserted")
    func randomSequences() {
        var random = TestRandom(seed: 8_8_8)
        let scalars: [Unicode.Scalar] = ["a", "\u{7F}", "\u{80}", "é", "\u{7FF}", "\u{800}", "日", "\u{D7FF}", "\u{E000}",
                                         "\u{FFFF}", "\u{10000}", "😀", "\u{10FFFF}", " ", "<", "\n"]
        let interesting: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                    0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        var invalid = 0
        for _ in 0..<200_000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                if Int.random(in: 0...3, using: &random) == 0 {
                    text.append(contentsOf: String(repeating: "x", count: Int.random(in: 1...20, using: &random)).unicodeScalars)
                } else {
                    text.append(scalars[Int.random(in: 0..<scalars.count, using: &random)])
                }
            }
            var bytes = Array(String(text).utf8)
            switch Int.random(in: 0...3, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = interesting[Int.random(in: 0..<interesting.count, using: &random)]
            case 1 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 1...min(3, bytes.count), using: &random))
            case 2:
                bytes.insert(interesting[Int.random(in: 0..<interesting.count, using: &random)], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                break
            }
            if Self.model(bytes) != nil { invalid += 1 }
            Self.agree(bytes, "\(random): \(bytes)")
        }
        #expect(invalid > 40_000 && invalid < 160_000, "\(invalid) invalid")
    }

    @Test("every file of ../shared/realworld and ../shared/conformance")
    func realFiles() throws {
        let files = try Paths.sharedCorpusFiles()
        for file in files {
            Self.agree(try [UInt8](Data(contentsOf: file)), file.lastPathComponent)
        }
        #expect(files.count > 700)
    }
}
