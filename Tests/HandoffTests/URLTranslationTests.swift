import Foundation
@testable import Handoff
import PropertyBased
import PropertyList
import Testing
import TypedJSON
import UserInfo

/// Specs/url-translation.md.
@Suite("URL translation for synced containers")
struct URLTranslationTests {
    static let app = "iCloud.com.example.App"
    static let mac = ContainerLayout.macOS(home: "/Users/ada", containers: [app, "com.apple.CloudDocs"])
    static let phone = ContainerLayout.iOS(containers: [app, "com.apple.CloudDocs"])
    let translator = URLTranslator()

    /// A file URL as an app makes it, with `;` percent-encoded (Linux Foundation's
    /// `URL(filePath:)` leaves it raw, which the sender refuses: Specs/url-translation.md).
    static func fileURL(_ path: String, directory: Bool = false) -> UserInfoValue {
        let made = URL(filePath: path, directoryHint: directory ? .isDirectory : .notDirectory).absoluteString
        return .url(UserInfoURL(relative: made.replacingOccurrences(of: ";", with: "%3B")))
    }

    @Test("identifiers and directory names map both ways")
    func directoryNames() {
        #expect(ContainerLayout.directoryName(forIdentifier: "iCloud.com.example.App") == "iCloud~com~example~App")
        #expect(ContainerLayout.identifier(forDirectoryName: "com~apple~CloudDocs") == "com.apple.CloudDocs")
        #expect(ContainerLayout.identifier(forDirectoryName: "iCloud.com.example") == nil)
        #expect(ContainerLayout.directoryName(forIdentifier: "iCloud~com") == nil)
        #expect(ContainerLayout.directoryName(forIdentifier: "single") == nil)
        #expect(ContainerLayout.macOS(home: "/Users/ada").root == "/Users/ada/Library/Mobile Documents")
        #expect(ContainerLayout.iOS().root == "/private/var/mobile/Library/Mobile Documents")
        #expect(ContainerLayout.parse("root:/srv/icloud/")?.root == "/srv/icloud")
        // A relative home, the empty one included, is no layout (macos: once mapped under /Library).
        for home in ["", "Users/ada", "./x"] {
            #expect(ContainerLayout.parse("macos:" + home) == nil, "\(home)")
            #expect(throws: PayloadError(.invalidLayout, "")) { try ContainerLayout.macOS(home: home).validate() }
        }
        #expect(ContainerLayout.parse("macos:relative") == nil)
    }

    @Test("outgoing: a file in a container becomes a reference with nothing of the sender's path")
    func outgoing() throws {
        let value: UserInfoValue = ["doc": Self.fileURL("/Users/ada/Library/Mobile Documents/iCloud~com~example~App/Documents/Q3 Report ✓.pdf"),
                                    "web": .url(UserInfoURL(relative: "https://example.com/x"))]
        let sent = try translator.outgoing(value, from: Self.mac)
        #expect(sent["doc"] == .url(UserInfoURL(relative: "icloud-container:iCloud.com.example.App/Documents/Q3%20Report%20%E2%9C%93.pdf")))
        #expect(sent["web"] == value["web"])
        #expect(!TypedJSONWriter.text(sent).contains("ada"))
    }

    @Test("incoming: a reference becomes the same file in the receiver's container")
    func incoming() throws {
        let received = try translator.incoming(["doc": .url(UserInfoURL(relative: "icloud-container:iCloud.com.example.App/Documents/Q3%20Report.pdf"))], to: Self.phone)
        let url = try #require(received["doc"]?.urlValue?.url)
        #expect(url.path(percentEncoded: false) == "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~App/Documents/Q3 Report.pdf")
        #expect(url.scheme == "file")
    }

    @Test("file URLs nested in arrays, sets, dictionaries and as a URL's base are all translated")
    func nested() throws {
        let base = UserInfoURL(URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~App/Documents/", directoryHint: .isDirectory))
        let value: UserInfoValue = [
            "list": [Self.fileURL("/Users/ada/Library/Mobile Documents/com~apple~CloudDocs/a.txt")],
            "set": .set([Self.fileURL("/Users/ada/Library/Mobile Documents/iCloud~com~example~App/b.txt")]),
            "relative": .url(UserInfoURL(relative: "c.txt", base: base)),
        ]
        let sent = try translator.outgoing(value, from: Self.mac)
        #expect(sent["list"]?[0] == .url(UserInfoURL(relative: "icloud-container:com.apple.CloudDocs/a.txt")))
        #expect(sent["set"] == .set([.url(UserInfoURL(relative: "icloud-container:iCloud.com.example.App/b.txt"))]))
        #expect(sent["relative"] == .url(UserInfoURL(relative: "icloud-container:iCloud.com.example.App/Documents/c.txt")))
        let received = try translator.incoming(sent, to: Self.phone)
        #expect(received["relative"]?.urlValue?.url?.path(percentEncoded: false) ==
                "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~App/Documents/c.txt")
    }

    @Test("a trailing slash (a directory) survives the trip")
    func directories() throws {
        let sent = try translator.outgoing(Self.fileURL("/Users/ada/Library/Mobile Documents/iCloud~com~example~App/Documents/Folder", directory: true), from: Self.mac)
        #expect(sent == .url(UserInfoURL(relative: "icloud-container:iCloud.com.example.App/Documents/Folder/")))
        #expect(try translator.incoming(sent, to: Self.phone).urlValue?.relative.hasSuffix("/Documents/Folder/") == true)
    }

    @Test("fileOutsideContainer: file URLs outside every container fail the whole encode, naming the key path")
    func outsideContainers() {
        let outside = [
            "/Users/ada/Documents/secret.txt", "/etc/passwd",
            "/Users/ada/Library/Mobile Documents/iCloud~com~example~App",               // the container itself
            "/Users/ada/Library/Mobile Documents/iCloud~com~other~App/x.txt",            // not the sender's
            "/Users/ada/Library/Mobile Documents/iCloud~com~example~App/../../../../etc/passwd",
            "/Users/bob/Library/Mobile Documents/iCloud~com~example~App/x.txt",
            "/Users/ada/Library/Mobile Documents/not.a.container/x.txt",
        ]
        for path in outside {
            do {
                _ = try translator.outgoing(["items": [1, Self.fileURL(path)]], from: Self.mac)
                Issue.record("accepted \(path)")
            } catch {
                #expect(error.code == .fileOutsideContainer || error.code == .pathEscapesContainer, "\(path): \(error)")
                #expect(error.keyPath.description == "items[1]")
            }
        }
        #expect(throws: PayloadError(.fileOutsideContainer, "")) { try translator.outgoing(Self.fileURL("/tmp/x"), from: nil) }
    }

    @Test("schemes: http and https pass; javascript:, data: refused; others only when allowed")
    func schemes() throws {
        for text in ["https://a.example/x", "HTTP://a.example"] {
            _ = try translator.outgoing(.url(UserInfoURL(relative: text)), from: Self.mac)
        }
        for text in ["javascript:alert(1)", "data:text/plain,hi", "mailto:a@b.example", "tel:123", "myapp://open"] {
            #expect(throws: PayloadError(.schemeNotAllowed, "")) { try translator.outgoing(.url(UserInfoURL(relative: text)), from: Self.mac) }
        }
        let permissive = URLTranslator(policy: URLPolicy(allowing: ["mailto", "myapp", "javascript"]))
        _ = try permissive.outgoing(.url(UserInfoURL(relative: "mailto:a@b.example")), from: Self.mac)
        _ = try permissive.incoming(.url(UserInfoURL(relative: "myapp://open")), to: Self.phone)
        #expect(throws: PayloadError(.schemeNotAllowed, "")) { try permissive.outgoing(.url(UserInfoURL(relative: "javascript:x")), from: Self.mac) }
    }

    /// Traversal and encoding tricks, each refused on the way in, with the
    /// rule that refuses it (Specs/url-translation.md, "Incoming").
    static let tricks: [(text: String, code: ErrorCode)] = {
        let reference = "icloud-container:\(app)/"
        // pathEscapesContainer: after decoding, `.` or `..` however spelled, or a
        // component holding `/` or `\` (a combining mark after it too).
        let escaping = ["..", "%2e%2e", "%2E%2E", "%2e.", ".%2e", "%2E.", ".%2E", ".", "%2e", "%2E",
                        "%2F", "%2f", "a%2Fb", "a%2fb", "%5C", "%5c", "a%5Cb", "..%5C", "%2e%2e%5c", "%2e%2e%2f",
                        "%2F%CC%81", "a%2F%CC%81b", "%5C%CC%81"]
        // invalidContainerReference: controls, raw characters to encode, malformed,
        // double or overlong escapes, a component over 255 bytes.
        let malformed = [
            "%00", "a%00b", "%0A", "%0D", "%09", "%7F", "%1F",
            "%C2%80", "a%C2%85b", "%C2%9B", "%C2%9F", "x%C2%9B%5B31m", "%E2%80%A8", "a%E2%80%A9b",
            "%252e%252e", "%252F", "a%252Fb", "%2", "%zz", "%g0", "%", "%%", "a b", "a\\b", "a?b", "a#b", "é", "a:b",
            "%C0%AE%C0%AE", "%C0%AF", "%E0%80%AE", "%FF", "%ED%A0%80", "%C0%80", String(repeating: "a", count: 256),
        ]
        var tricks: [(text: String, code: ErrorCode)] = []
        for (components, code) in [(escaping, ErrorCode.pathEscapesContainer), (malformed, .invalidContainerReference)] {
            for component in components {
                tricks.append((reference + component, code))
                tricks.append((reference + component + "/file.txt", code))
                tricks.append((reference + "Documents/" + component + "/file.txt", code))
                tricks.append((reference + "Documents/" + component, code))
            }
        }
        let invalid = ErrorCode.invalidContainerReference, escapes = ErrorCode.pathEscapesContainer
        tricks += [
            ("icloud-container:", invalid), ("icloud-container:\(app)", invalid), ("icloud-container:\(app)/", invalid),
            ("icloud-container:/Documents/a", invalid), ("icloud-container:iCloud~com~example~App/Documents/a", invalid),
            // An empty segment climbs too (a path resolver drops it).
            ("icloud-container:\(app)//etc/passwd", escapes), ("icloud-container:\(app)/Documents//a", escapes),
            ("icloud-container:\(app)/Documents/a//", escapes), ("icloud-container:\(app)//file.txt", escapes),
            ("icloud-container:\(app)/Documents//", escapes), ("icloud-container:\(app)///", escapes),
            ("icloud-container:iCloud.com.evil.App/Documents/a", .unknownContainer), ("icloud-container:com.apple.Unknown/x", .unknownContainer),
            ("icloud-container:\(app)/Documents/a?x=1", invalid), ("icloud-container:\(app)/Documents/a#frag", invalid),
            ("icloud-container:..%2F..%2Fetc/passwd", invalid), ("icloud-container:iCloud.com.example.App%2F..%2F/x", invalid),
            ("icloud-container:\(app).evil/x", .unknownContainer),
            ("icloud-container:\(app)/" + Array(repeating: "abcdefghij", count: 110).joined(separator: "/"), invalid),
            ("ICLOUD-CONTAINER:\(app)/../x", escapes), ("icloud-container:\(app)/%2e%2e/%2e%2e/%2e%2e/etc/passwd", escapes),
            ("file:///etc/passwd", .rawFileURL), ("FILE:///etc/passwd", .rawFileURL), ("file://localhost/etc/passwd", .rawFileURL),
            ("file://host/share/x", .rawFileURL), ("file:/etc/passwd", .rawFileURL),
            ("file:///private/var/mobile/Library/Mobile%20Documents/iCloud~com~example~App/x", .rawFileURL),
            ("javascript:alert(1)", .schemeNotAllowed), ("JavaScript:alert(1)", .schemeNotAllowed),
            ("data:text/html,%3Cb%3E", .schemeNotAllowed), ("vbscript:msgbox", .schemeNotAllowed), ("mailto:x@y.example", .schemeNotAllowed),
        ]
        return tricks
    }()

    @Test("the tricks are distinct and reach every incoming refusal: invalidContainerReference, pathEscapesContainer, unknownContainer, rawFileURL, schemeNotAllowed")
    func trickCoverage() {
        #expect(Set(Self.tricks.map(\.text)).count == Self.tricks.count)
        #expect(Set(Self.tricks.map(\.code)) == [.invalidContainerReference, .pathEscapesContainer, .unknownContainer, .rawFileURL, .schemeNotAllowed])
    }

    @Test("every trick is refused on the way in, by its rule", arguments: tricks)
    func trickRefused(_ trick: (text: String, code: ErrorCode)) {
        #expect(throws: PayloadError(trick.code, "")) { try URLTranslator().incoming(["u": .url(UserInfoURL(relative: trick.text))], to: Self.phone) }
    }

    /// File URLs outside the RFC 3986 / RFC 8089 grammar we read, each refused on the way out
    /// (Specs/url-translation.md, "Outgoing"), for a path that would otherwise be in the container.
    static let outgoingForms: [String] = {
        let path = "/Users/ada/Library/Mobile%20Documents/iCloud~com~example~App/Documents/"
        return [
            "file://ada@localhost\(path)x", "file://ada:secret@localhost\(path)x", "file://@localhost\(path)x", "file://@\(path)x",
            "file://localhost:22\(path)x", "file://localhost:\(path)x", "file://:22\(path)x", "file://host\(path)x",
            "file://127.0.0.1\(path)x", "file://[::1]\(path)x", "file://localhost.\(path)x", "file://local%68ost\(path)x",
            "file://\(path)x;y", "file://\(path)x;", "file://\(path);/x", "file://\(path)x;type=a/y",
            "file://\(path)x?y", "file://\(path)x?", "file://\(path)x#y", "file://\(path)x#",
            "file://\(path)a b", "file://\(path)é", "file://\(path)a[b", "file://\(path)a]b", "file://\(path)a\\b", "file://\(path)a|b",
            "file://\(path)a^b", "file://\(path)a`b", "file://\(path)a{b}", "file://\(path)a\"b", "file://\(path)a<b>",
            "file://\(path)%", "file://\(path)%2", "file://\(path)%G0", "file://\(path)a%zz",
            "file://\(path)a\u{85}b", "file://\(path)a\u{0}b", "file://\(path)a\tb",
            "file:c:/x", "file:C:\\x", "file:", "file://", "file:relative/x", "file:////Users/ada/x", "file://localhost//Users/x",
        ]
    }()

    @Test("outgoing: a file URL outside the grammar is fileOutsideContainer", arguments: outgoingForms)
    func outgoingFormRefused(_ text: String) {
        #expect(throws: PayloadError(.fileOutsideContainer, "")) {
            try URLTranslator().outgoing(["u": .url(UserInfoURL(relative: text))], from: Self.mac)
        }
    }

    @Test("outgoing: the grammar's other forms translate (localhost in any case, no authority, %3B, sub-delims, a relative path)")
    func outgoingFormsAccepted() throws {
        let path = "/Users/ada/Library/Mobile%20Documents/iCloud~com~example~App/Documents/"
        let reference = "icloud-container:iCloud.com.example.App/Documents/"
        let cases: [(UserInfoURL, String)] = [
            (UserInfoURL(relative: "file://localhost\(path)x"), reference + "x"),
            (UserInfoURL(relative: "FILE://LocalHost\(path)x"), reference + "x"),
            (UserInfoURL(relative: "file:\(path)x"), reference + "x"),
            (UserInfoURL(relative: "file://\(path)a%3Bb"), reference + "a%3Bb"),
            (UserInfoURL(relative: "file://\(path)a!$&'()*+,=:@b"), reference + "a%21%24%26%27%28%29%2A%2B%2C%3D%3A%40b"),
            (UserInfoURL(relative: "sub/c.txt", base: UserInfoURL(relative: "file://\(path)")), reference + "sub/c.txt"),
            (UserInfoURL(relative: "c.txt", base: UserInfoURL(relative: "file://\(path)b.txt")), reference + "c.txt"),
            (UserInfoURL(relative: "../Documents/c.txt", base: UserInfoURL(relative: "file://\(path)")), reference + "c.txt"),
        ]
        for (url, expected) in cases {
            #expect(try translator.outgoing(.url(url), from: Self.mac) == .url(UserInfoURL(relative: expected)), "\(url)")
        }
        // A network-path reference or a raw ";" against a file base is refused too.
        for relative in ["//host/x", "a;b", "a?b", "a b"] {
            #expect(throws: PayloadError(.fileOutsideContainer, "")) {
                try translator.outgoing(.url(UserInfoURL(relative: relative, base: UserInfoURL(relative: "file://\(path)"))), from: Self.mac)
            }
        }
    }

    @Test("property: a name holding a C1 control or a line separator is refused on both sides")
    func controlCharactersRefused() async {
        let controls = (0x80...0x9F).map { Unicode.Scalar(UInt32($0))! } + [Unicode.Scalar(0x2028)!, Unicode.Scalar(0x2029)!]
        let generator = Generator<(String, Unicode.Scalar), Shrink.None<(String, Unicode.Scalar)>> { rng in
            (String(repeating: "a", count: Int.random(in: 0...5, using: &rng)), controls.randomElement(using: &rng)!)
        }
        await propertyCheck(count: 200, input: generator) { prefix, control in
            let name = prefix + String(control) + "b.txt"
            #expect(throws: PayloadError(.invalidContainerReference, "")) {
                try URLTranslator().outgoing(Self.fileURL("/Users/ada/Library/Mobile Documents/iCloud~com~example~App/" + name), from: Self.mac)
            }
            let encoded = String(control).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
            #expect(throws: PayloadError(.invalidContainerReference, "")) {
                try URLTranslator().incoming(.url(UserInfoURL(relative: "icloud-container:\(Self.app)/\(prefix)\(encoded)b.txt")), to: Self.phone)
            }
        }
    }

    @Test("references cannot have or be a base; relative URLs may not resolve to raw files")
    func basesAndRawFiles() {
        let reference = UserInfoURL(relative: "icloud-container:\(Self.app)/Documents/")
        #expect(throws: PayloadError(.invalidContainerReference, "")) { try translator.incoming(.url(UserInfoURL(relative: "a.txt", base: reference)), to: Self.phone) }
        #expect(throws: PayloadError(.rawFileURL, "")) {
            try translator.incoming(.url(UserInfoURL(relative: "x", base: UserInfoURL(relative: "file:///tmp/"))), to: Self.phone)
        }
        #expect(throws: PayloadError(.unknownContainer, "")) {
            try translator.incoming(.url(UserInfoURL(relative: "icloud-container:\(Self.app)/x")), to: nil)
        }
    }

    /// Path components a user could name a file with (no ".", "..", separators, controls or %HH).
    static let pathGenerator = Generator<[String], Shrink.None<[String]>> { rng in
        let alphabet = Array("abcXYZ019 -_.,;'!()[]{}&+=@$~é日本😀#?%:\"<>|*".unicodeScalars)
        return (0..<Int.random(in: 1...6, using: &rng)).map { _ in
            var name = ""
            repeat {
                name = String(String.UnicodeScalarView((0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }))
            } while name == "." || name == ".." || name.contains(where: { $0 == "%" }) && name.range(of: #"%[0-9A-Fa-f]{2}"#, options: .regularExpression) != nil
            return name
        }
    }

    @Test("property: a reference the glance accepts (plainFileURL) gives the full rules' file URL, and plain names with spaces take it")
    func plainReferences() async {
        let layout = ContainerLayout.iOS(containers: [Self.app])
        #expect(URLTranslator.plainFileURL(forReference: "\(Self.app)/Documents/Trip%201.plan", layout) != nil)
        #expect(URLTranslator.plainFileURL(forReference: "\(Self.app)/Documents/", layout) != nil)
        let pieces = ["a", "Documents", ".", "..", "...", "%20", "%2", "%200", "%41", "%2F", "%2e", "/", "//", "~", "-", "_", "é", "%C3%A9", ":",
                      "\u{0085}", String(repeating: "x", count: 255), String(repeating: "y", count: 256)]
        let bodies = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...6)
        await propertyCheck(count: 2_000, input: bodies) { picks in
            for identifier in [Self.app, "iCloud.com.example.Unknown", "not an identifier"] {
                let body = identifier + "/" + picks.map { pieces[$0] }.joined()
                guard let plain = URLTranslator.plainFileURL(forReference: Substring(body), layout) else { continue }
                let general = try? URLTranslator().generalFileURL(forReference: Substring(body), "icloud-container:" + body, layout)
                #expect(plain == general, "\(body)")
            }
        }
    }

    @Test("property: a file path the glance accepts (plainReference) gives the full rules' reference")
    func plainPaths() async {
        let layout = ContainerLayout.macOS(home: "/Users/ada", containers: [Self.app])
        let container = "/Users/ada/Library/Mobile%20Documents/iCloud~com~example~App"
        #expect(URLTranslator.plainReference(forPath: Substring(container + "/Documents/Trip%201.plan"), layout) == "icloud-container:\(Self.app)/Documents/Trip%201.plan")
        let pieces = ["a", "Documents", ".", "..", "%20", "%2", "%41", "/", "//", "~", "é", "%C3%A9", String(repeating: "x", count: 256),
                      "iCloud~com~example~App", "iCloud~com~example~Other", "/Users/ada/Library/Mobile%20Documents", container, "/Users/ada/Library/Mobile Documents"]
        let paths = Gen.int(in: 0...(pieces.count - 1)).array(of: 1...6)
        await propertyCheck(count: 2_000, input: paths) { picks in
            let path = picks.map { pieces[$0] }.joined()
            guard let plain = URLTranslator.plainReference(forPath: Substring(path), layout) else { return }
            #expect(plain == (try? URLTranslator().generalReference(forPath: Substring(path), "file://" + path, layout)), "\(path)")
        }
    }

    @Test("property: a file URL the glance accepts (file:///, then a plain path) gives the full rules' reference")
    func plainFileURLs() async throws {
        let layout = ContainerLayout.macOS(home: "/Users/ada", containers: [Self.app])
        let container = "/Users/ada/Library/Mobile%20Documents/iCloud~com~example~App"
        #expect(URLTranslator.plainFileURLPath("file://" + container + "/a") == Substring(container + "/a"))
        let prefixes = ["file:///", "file://", "file:////", "FILE:///", "file://localhost/", "file:/", "files:///", "file:///%2F"]
        // Plain pieces weighted three to one.
        let plainPieces = ["a", "Documents", "%20", "/", "~", "x-y_z.txt"]
        let pieces = plainPieces + plainPieces + plainPieces + ["a", "Documents", ".", "..", "%20", "%2", "/", "//", "~", "é", ";", "?q", "#f", "Users/ada/Library/Mobile%20Documents/",
                      "iCloud~com~example~App/", "iCloud~com~example~Other/", container + "/", container.dropFirst() + "/"]
        let urls = Gen.int(in: 0...(pieces.count - 1)).array(of: 1...6)
        var accepted = 0
        // A third in the container, where the glance may accept, a third in a directory one byte from it.
        let near = "Usera/ada/Library/Mobile%20Documents/iCloud~com~example~App/"
        await propertyCheck(count: 6_000, input: Gen.int(in: 0...(3 * prefixes.count - 1)), urls) { prefix, picks in
            let start = prefixes[prefix % prefixes.count] + ["", container.dropFirst() + "/", near][prefix / prefixes.count]
            let text = start + picks.map { pieces[$0] }.joined()
            guard let path = URLTranslator.plainFileURLPath(text), let plain = URLTranslator.plainReference(forPath: path, layout) else { return }
            accepted += 1
            // The full rules: the file URL grammar's path, then the general reference.
            let full = try? FileURLGrammar.resolvedPath(UserInfoURL(relative: text)).map {
                try URLTranslator().generalReference(forPath: $0, text, layout)
            }
            #expect(plain == full, "\(text)")
        }
        #expect(accepted > 40)  // about 100 of 6,000 (seeds vary)
    }

    @Test("property: outgoing on macOS, then incoming on iOS, names the same relative file")
    func sameFileAcrossLayouts() async {
        await propertyCheck(count: 500, input: Self.pathGenerator) { components in
            let relative = components.joined(separator: "/")
            let source = Self.fileURL("/Users/ada/Library/Mobile Documents/iCloud~com~example~App/" + relative)
            let sent = try URLTranslator().outgoing(source, from: Self.mac)
            #expect(sent.urlValue?.relative.hasPrefix("icloud-container:iCloud.com.example.App/") == true)
            let received = try URLTranslator().incoming(sent, to: Self.phone)
            let url = try #require(received.urlValue?.url)
            #expect(url.path(percentEncoded: false) == "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~App/" + relative)
        }
    }

    @Test("property: a custom root works the same way in both directions")
    func customRoots() async {
        let a = ContainerLayout(root: "/srv/a b/icloud", containers: [Self.app])
        let b = ContainerLayout(root: "/data", containers: [Self.app])
        await propertyCheck(count: 200, input: Self.pathGenerator) { components in
            let relative = components.joined(separator: "/")
            let there = try URLTranslator().incoming(try URLTranslator().outgoing(Self.fileURL("/srv/a b/icloud/iCloud~com~example~App/" + relative), from: a), to: b)
            let back = try URLTranslator().incoming(try URLTranslator().outgoing(there, from: b), to: a)
            #expect(back.urlValue?.url?.path(percentEncoded: false) == "/srv/a b/icloud/iCloud~com~example~App/" + relative)
        }
    }
}
