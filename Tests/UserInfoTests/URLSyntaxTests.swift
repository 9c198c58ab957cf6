import Foundation
import PropertyBased
import Testing
@testable import UserInfo

/// Specs/userinfo-value.md, "URLs": which URL strings a userInfo may carry,
/// and the scan that accepts the plainest of them without parsing.
@Suite("URL syntax")
struct URLSyntaxTests {
    /// Foundation's answer: the rule itself.
    static func foundationAccepts(_ text: String) -> Bool {
        URL(string: text, encodingInvalidCharacters: false) != nil
    }

    /// Pieces that make plain and nearly plain strings (the plain ones first): schemes, hosts at
    /// their edges (empty, dots, dashes, digits, a port, user info, an IP
    /// literal), path characters of every class, escapes good and broken,
    /// and the characters outside the scan (query, fragment, space, non-ASCII).
    static let schemes = ["file", "https", "x", "a+b.c-d", "A1", "1a", "", "-x", "sch eme", "é"]
    static let authorities = ["", "//", "///", "//host", "//Host.Example-1.com", "//-", "//..", "//.", "//1.2.3.4", "//999999",
                              "//a-", "//host:80", "//user@host", "//[::1]", "//h_st", "//h%41", "//h~"]
    static let pathPieces = ["/", "//", "a", "Z9", "-._~", "!$&'()*+,;=", ":", "@", "%20", "%41", "%e9", "%", "%4", "%G1", "%%",
                             "?", "#", "[", "]", " ", "\"", "<", "|", "\\", "^", "`", "{", "é", "\u{7F}", "\u{0}", ".", ".."]

    @Test("every string the scan accepts, Foundation parses")
    func plainURLStrings() {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (27, 11, 26, 1))
        var plain = 0, parsedOnlyByFoundation = 0
        for _ in 0..<50_000 {
            // Half the strings from the plain pieces alone, where the scan says yes.
            let plainOnly = Bool.random(using: &rng)
            func piece(_ pieces: [String], _ plainCount: Int) -> String {
                plainOnly ? pieces[..<plainCount].randomElement(using: &rng)! : pieces.randomElement(using: &rng)!
            }
            var text = piece(Self.schemes, 5)
            if plainOnly || Bool.random(using: &rng) { text += ":" }
            text += piece(Self.authorities, 12)
            for _ in 0..<Int.random(in: 0...6, using: &rng) { text += piece(Self.pathPieces, 11) }
            let scanned = UserInfoURL.isPlainURLString(text)
            let parsed = Self.foundationAccepts(text)
            if scanned {
                plain += 1
                #expect(parsed, "the scan accepts \(text.debugDescription), which Foundation refuses")
            } else if parsed {
                parsedOnlyByFoundation += 1
            }
            #expect(UserInfoURL(relative: text).isValid == (text.isEmpty ? false : parsed))
        }
        // The pieces reach both sides of the scan.
        #expect(plain > 10_000)
        #expect(parsedOnlyByFoundation > 1_000)
    }

    @Test("the scan's own refusals", arguments: [
        "file:///a%2", "file:///a%zz", "https://host:443/", "https://user@host/", "https://[::1]/", "https://host/a?b",
        "https://host/a#b", "file:///a b", "/relative/path", "1http://x/", "file:///é",
    ])
    func refusedByScan(_ text: String) {
        #expect(!UserInfoURL.isPlainURLString(text))
    }

    @Test("what is written most is plain", arguments: [
        "file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Portugal.plan",
        "https://www.example.com/trips/42", "mailto:ada@example.com", "x-apple-reference:iCloud.com.example/Trip.plan",
    ])
    func plain(_ text: String) {
        #expect(UserInfoURL.isPlainURLString(text))
        #expect(Self.foundationAccepts(text))
    }
}
