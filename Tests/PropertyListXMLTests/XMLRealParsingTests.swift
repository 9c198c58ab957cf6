import Foundation
@_spi(ByteKit) import PropertyList
@testable import PropertyListXML
import TestSupport
import Testing

/// The digits of reals and integers, read eight at a time (`WordScan.eightDigits`),
/// and `ScalarText.real` for texts whose digits all fit a 64-bit mantissa and
/// whose power of ten is at most 10^19 (Specs/xml-plist.md, "Reader speed"):
/// one exact 128-bit product or quotient and one rounding, which must give the
/// same bits as the C library's strtod (Swift's `Double(String)`) for every text.
@Suite("XML reals: the 128-bit path against strtod")
struct XMLRealParsingTests {
    static func read(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        return ScalarText.real(bytes.span)
    }

    @Test("ties to even, the edges of 2^53 and 2^64, 19 digits, 10^±19")
    func edges() throws {
        for text in ["9007199254740993", "9007199254740995", "9007199254740993.0", "4503599627370496.5", "4503599627370497.5",
                     "18446744073709551615", "1844674407370955161.5", "9999999999999999999", "9999999999999999999e19",
                     "1e19", "1e-19", "0.0000000000000000001", "1234567890123456789e-19", "1234567890123456789e19",
                     "-957064211.5874455", "205873823.95019197", "0.30000000000000004", "17976931348623157", "1.7976931348623157",
                     "2.2250738585072014", "0.1", "-0.0", "00000000000000000000012345678901234567.89",
                     // Just past a midpoint by less than the quotient's last bit: only the remainder's sticky bit rounds them up.
                     "7537178562660523107e-19", "3052706661832587376e-19", "4635424517817173129e-18", "2136921318668154185e-19",
                     // Just past a midpoint in the product's low word: only its sticky bit rounds them up.
                     "9020367371921494713e19", "4227605793064628764e18", "9869586518405503419e18", "3504456338000648194e17"] {
            let expected = try #require(Double(text))
            #expect(Self.read(text)?.bitPattern == expected.bitPattern, "\(text): \(String(describing: Self.read(text))) vs \(expected)")
        }
    }

    @Test("300,000 random texts of 16 to 19 significant digits, scaled by 10^-19 … 10^19")
    func randomTexts() throws {
        var random = TestRandom(seed: 1953)
        var widePath = 0
        for _ in 0..<300_000 {
            let count = Int.random(in: 1...19, using: &random)
            var digits = String(Int.random(in: 1...9, using: &random))
            for _ in 1..<count { digits.append(Character(String(Int.random(in: 0...9, using: &random)))) }
            let point = Int.random(in: 0...count, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            text += point == count ? digits : String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if Int.random(in: 0...2, using: &random) == 0 { text += "e" + String(Int.random(in: -19...19, using: &random)) }
            let expected = try #require(Double(text))
            #expect(Self.read(text)?.bitPattern == expected.bitPattern, "\(random): \(text)")
            if count >= 16 { widePath += 1 }
        }
        #expect(widePath > 40_000)
    }

    @Test("eight digits at once: the same number as one digit at a time, nil for any other byte")
    func eightDigits() {
        var random = TestRandom(seed: 808)
        for _ in 0..<200_000 {
            let bytes = (0..<8).map { _ in
                Int.random(in: 0..<40, using: &random) == 0 ? UInt8.random(in: 0...255, using: &random) : UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)
            }
            let expected: UInt64? = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? bytes.reduce(0) { $0 * 10 + UInt64($1 - 0x30) } : nil
            #expect(WordScan.eightDigits(bytes.span.word(at: 0)) == expected, "\(random): \(bytes)")
        }
        #expect(WordScan.eightDigits(Array("99999999".utf8).span.word(at: 0)) == 99_999_999)
        #expect(WordScan.eightDigits(Array("0000000/".utf8).span.word(at: 0)) == nil)
        #expect(WordScan.eightDigits(Array(":0000000".utf8).span.word(at: 0)) == nil)
    }

    @Test("integers of 1 to 21 digits, signed, with leading zeros: the value Swift's own parser reads, nil outside [-2^63, 2^64)")
    func integers() {
        var random = TestRandom(seed: 1964)
        for _ in 0..<200_000 {
            let count = Int.random(in: 1...21, using: &random)
            let digits = String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            let sign = ["", "-", "+"][Int.random(in: 0...2, using: &random)]
            let read = ScalarText.integer(Array((sign + digits).utf8).span)
            let expected: PropertyListInteger? = sign == "-"
                ? Int64(sign + digits).map { PropertyListInteger($0) }
                : UInt64(digits).map { PropertyListInteger($0) }
            #expect(read == expected, "\(random): \(sign + digits)")
        }
    }
}
