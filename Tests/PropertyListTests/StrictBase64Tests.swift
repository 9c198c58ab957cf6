import Foundation
import PropertyList
import TestSupport
import Testing

/// Strict base64 (Specs/xml-plist.md, "Values"; Specs/typed-json.md): the
/// decoder agrees with Foundation's decoder followed by Foundation's encoder
/// giving back the same text, which is what "exactly one spelling" means.
@Suite("Strict base64")
struct StrictBase64Tests {
    /// Foundation as the oracle: decodes, and re-encodes to the same symbols.
    static func reference(_ text: String, skippingWhitespace: Bool) -> Data? {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let symbols = skippingWhitespace ? text.utf8.filter { !whitespace.contains($0) } : Array(text.utf8)
        guard symbols.count % 4 == 0, symbols.allSatisfy({ !whitespace.contains($0) }) else { return nil }
        let compact = String(decoding: symbols, as: UTF8.self)
        guard let data = Data(base64Encoded: compact), data.base64EncodedString() == compact else { return nil }
        return data
    }

    @Test("agrees with Foundation's decode-and-re-encode on tricky texts")
    func trickyTexts() {
        let texts = ["", "====", "QQ==", "QR==", "QUI=", "QUJ=", "QUJD", "Q===", "QQ=", "QQ", "QQ==QQ==", "QQ=A", "=QQQ",
                     "QQ== ", " QQ==", "Q Q = =", "QUJD\n", "QUJD\r\nRA==", "AAAA\tAAAA", "+/+/", "-_-_", "QUJD*", "QUJDRA=="]
        for text in texts {
            for skipping in [true, false] {
                #expect(StrictBase64.decode(text, skippingWhitespace: skipping) == Self.reference(text, skippingWhitespace: skipping),
                        "\"\(text)\" skipping whitespace: \(skipping)")
            }
        }
    }

    @Test("agrees with Foundation's decode-and-re-encode on random texts")
    func randomTexts() {
        let alphabet = Array("ABCDQRSTYZabgwxyz0189+/=  \n".utf8)
        var rng = TestRandom(seed: 4304)
        var accepted = 0
        for _ in 0..<30_000 {
            let length = Int.random(in: 0...14, using: &rng)
            let text = String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &rng)! }, as: UTF8.self)
            let skipping = Bool.random(using: &rng)
            let ours = StrictBase64.decode(text, skippingWhitespace: skipping)
            #expect(ours == Self.reference(text, skippingWhitespace: skipping), "\"\(text)\" skipping whitespace: \(skipping), \(rng)")
            if ours != nil { accepted += 1 }
        }
        // The generator reaches both outcomes.
        #expect(accepted > 100, "\(rng)")
    }

    @Test("round-trips every byte string Foundation encodes")
    func roundTrip() {
        var rng = TestRandom(seed: 4305)
        for length in 0..<40 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) })
            #expect(StrictBase64.decode(bytes.base64EncodedString(), skippingWhitespace: false) == bytes, "\(rng)")
            #expect(StrictBase64.decode(bytes.base64EncodedString(options: .lineLength64Characters), skippingWhitespace: true) == bytes, "\(rng)")
        }
    }
}
