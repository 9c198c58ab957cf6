import PropertyList
import PropertyListXML
import TestSupport
import Testing
import FoundationEssentials
import Foundation

/// The writer's escaping ("Writer", Specs/xml-plist.md) against a plain
/// scalar-by-scalar model, on random strings long enough for the writer's
/// eight-bytes-at-a-time scan to see every character in every position.
@Suite("XML writer escaping")
struct XMLEscapeTests {
    /// What the writer must produce for `text` inside `<string>`, or nil when it must refuse it.
    static func model(_ text: String) -> String? {
        if text.unicodeScalars.first == "\u{FEFF}" { return nil }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            case "\u{FFFE}", "\u{FFFF}": return nil
            default:
                if scalar.value < 0x20 { return nil }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    @Test("escapes and refuses exactly as the model, wherever the character falls")
    func randomStrings() throws {
        let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "&", "<", ">", "\r", "\n", "\t", "\u{1}", "\u{1F}", "é", "☃", "😀",
                                      "\u{FFFE}", "\u{FFFF}", "\u{FEFF}", "\u{FFFD}", "\u{F000}", "\u{EFFF}", "\u{E000}"]
        var rng = TestRandom(seed: 4301)
        var refused = 0
        for _ in 0..<20_000 {
            var scalars = String.UnicodeScalarView()
            // Mostly plain text, so that whole words pass the fast scan between the specials.
            for _ in 0..<Int.random(in: 0...40, using: &rng) {
                scalars.append(Int.random(in: 0..<4, using: &rng) == 0 ? pool.randomElement(using: &rng)! : "x")
            }
            let text = String(scalars)
            let expected = Self.model(text)
            do {
                let xml = String(decoding: try XMLPropertyListWriter().writeBytes(.string(text)), as: UTF8.self)
                let start = xml.range(of: "<string>")!.upperBound, end = xml.range(of: "</string>", options: .backwards)!.lowerBound
                #expect(String(xml[start..<end]) == expected, "\(text.unicodeScalars.map(\.value)), \(rng)")
            } catch {
                #expect(error.code == .unrepresentableValue)
                #expect(expected == nil, "refused \(text.unicodeScalars.map(\.value)), \(rng)")
                refused += 1
            }
        }
        #expect(refused > 100, "\(rng)")
    }
}
