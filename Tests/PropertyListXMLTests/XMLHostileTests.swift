import Foundation
import Glibc
import PropertyList
import PropertyListXML
import TestSupport
import Testing
#if canImport(Glibc)
#endif

/// Hostile XML, a second battery (written while the XML layer was built on a
/// branch, kept for its cases): every document is refused, quickly, with a line
/// number, nothing outside the input is ever opened, and readers on many threads
/// do not interfere. The codes are checked rule by rule in XMLReaderRuleTests.
@Suite("XML hostile input")
struct XMLHostileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ text: String) { (self.name, self.bytes) = (name, Array(text.utf8)) }
        init(_ name: String, bytes: [UInt8]) { (self.name, self.bytes) = (name, bytes) }
    }

    static func plist(_ body: String) -> String { "<plist version=\"1.0\">" + body + "</plist>" }

    static let billionLaughs: String = {
        var declarations = "<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            declarations += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">\n"
        }
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(declarations)]>\n<plist><string>&lol9;</string></plist>\n"
    }()

    static let quadraticBlowup: String = {
        let entity = String(repeating: "x", count: 50_000)
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY a \"\(entity)\">]>\n<plist><string>"
            + String(repeating: "&a;", count: 50_000) + "</string></plist>\n"
    }()

    static let appleDoctype = "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\""

    static let cases: [Case] = [
        Case("billion laughs", billionLaughs),
        Case("billion laughs behind Apple's DOCTYPE", billionLaughs.replacingOccurrences(of: "<!DOCTYPE plist", with: appleDoctype)),
        Case("quadratic blow-up", quadraticBlowup),
        Case("quadratic blow-up without a declaration", "<plist><string>" + String(repeating: "&a;", count: 100_000) + "</string></plist>"),
        Case("external DTD", "<?xml version=\"1.0\"?>\n<!DOCTYPE plist SYSTEM \"file:///etc/passwd\">\n<plist><true/></plist>"),
        Case("external DTD over the network", "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://127.0.0.1:9/evil.dtd\">\n<plist><true/></plist>"),
        Case("parameter entities", "<!DOCTYPE plist [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<plist><true/></plist>"),
        Case("external general entity", "<!DOCTYPE plist [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<plist><string>&x;</string></plist>"),
        Case("XInclude", Self.plist("<array><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"file:///etc/passwd\" parse=\"text\"/></array>")),
        Case("XInclude as the root", "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"file:///etc/passwd\"/>"),
        Case("xml-stylesheet", "<?xml-stylesheet type=\"text/xsl\" href=\"file:///etc/passwd\"?>\n<plist><true/></plist>"),
        Case("entity in an attribute", "<plist version=\"&v;\"><true/></plist>"),
        Case("entity declaration outside a DTD", "<plist><!ENTITY a \"b\"><true/></plist>"),
        Case("nesting to 100,000", "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000) + "</plist>"),
        Case("dictionaries nested to 100,000", "<plist>" + String(repeating: "<dict><key>k</key>", count: 100_000) + "<true/>" + String(repeating: "</dict>", count: 100_000) + "</plist>"),
        Case("unknown elements nested to 100,000", String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)),
        Case("quadratic attributes", "<plist" + (0..<100_000).map { " a\($0)=\"\"" }.joined() + "><true/></plist>"),
        Case("quadratic namespaces", "<plist" + (0..<100_000).map { " xmlns:n\($0)=\"urn:\($0)\"" }.joined() + "><true/></plist>"),
        Case("comment inside a key", Self.plist("<dict><key>allow<!-- -->ed</key><true/></dict>")),
        Case("comment inside a key, Psychic Paper style", Self.plist("<dict><key>com.apple.private.x</key><true/><!----><key>com.apple.private.x<!-- --></key><false/></dict>")),
        Case("duplicate keys", Self.plist("<dict><key>a</key><false/><key>a</key><true/></dict>")),
        Case("CDATA in an integer", Self.plist("<integer><![CDATA[7]]></integer>")),
        Case("CDATA between elements", Self.plist("<array><![CDATA[<string>x</string>]]></array>")),
        Case("mixed content in a string", Self.plist("<string>a<b/>c</string>")),
        Case("mixed content in an array", Self.plist("<array>a<string>b</string>c</array>")),
        Case("text after the root", Self.plist("<true/>") + "tail"),
        Case("two roots", "<plist><true/></plist><plist><false/></plist>"),
        Case("two values in plist", Self.plist("<true/><false/>")),
        Case("bad base64", Self.plist("<data>AAAA!AAA</data>")),
        Case("base64 with hidden bits", Self.plist("<data>QR==</data>")),
        Case("bad date", Self.plist("<date>2020-02-30T00:00:00Z</date>")),
        Case("date with an offset", Self.plist("<date>2020-01-01T00:00:00+01:00</date>")),
        Case("integer overflow", Self.plist("<integer>18446744073709551616</integer>")),
        Case("integer underflow", Self.plist("<integer>-9223372036854775809</integer>")),
        Case("invalid UTF-8", bytes: Array("<plist><string>".utf8) + [0xFF, 0xFE] + Array("</string></plist>".utf8)),
        Case("overlong UTF-8", bytes: Array("<plist><string>".utf8) + [0xC0, 0xBC] + Array("</string></plist>".utf8)),
        Case("NUL character", bytes: Array("<plist><string>a".utf8) + [0] + Array("</string></plist>".utf8)),
        Case("NUL after the root", bytes: Array("<plist><true/></plist>".utf8) + [0] + Array("<junk>".utf8)),
        Case("NUL reference", Self.plist("<string>&#0;</string>")),
        Case("raw carriage return in a key", Self.plist("<dict><key>a\rb</key><true/></dict>")),
        Case("UTF-16 without a byte-order mark", ""),
        Case("UTF-7 declared", "<?xml version=\"1.0\" encoding=\"UTF-7\"?><plist><true/></plist>"),
        Case("a long character reference", Self.plist("<string>&#0000000000000000000060;</string>")),
        Case("a huge tag name", "<" + String(repeating: "p", count: 100_000) + "/>"),
        Case("an unterminated comment", "<plist><true/><!--" + String(repeating: "-", count: 100_000)),
    ].map { entry in
        // One case is built from bytes that a string literal cannot hold.
        guard entry.name == "UTF-16 without a byte-order mark" else { return entry }
        let units = Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><true/></plist>".utf16)
        return Case(entry.name, bytes: units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
    }

    @Test("each hostile document is refused with a line number", arguments: cases)
    func refused(_ entry: Case) {
        let error = xmlError(entry.bytes)
        #expect(error != nil, "accepted \(entry.name)")
        if case .lineColumn(let line, _)? = error?.location { #expect(line >= 1) } else { Issue.record("no line: \(String(describing: error))") }
    }

    /// The hostile shapes that grow with a count `n`, at that count.
    static func scalable(_ n: Int) -> [(name: String, bytes: [UInt8])] {
        [
            ("entity references", Array(("<plist><string>" + String(repeating: "&a;", count: n) + "</string></plist>").utf8)),
            ("nesting", Array(("<plist>" + String(repeating: "<array>", count: n) + String(repeating: "</array>", count: n) + "</plist>").utf8)),
            ("attributes", Array(("<plist" + (0..<n).map { " a\($0)=\"\"" }.joined() + "><true/></plist>").utf8)),
            ("namespaces", Array(("<plist" + (0..<n).map { " xmlns:n\($0)=\"urn:\($0)\"" }.joined() + "><true/></plist>").utf8)),
        ]
    }

    @Test("hostile shapes cost work in proportion to their size: 4n costs at most 5 times n (callgrind, plistkit lint)")
    func refusedInLinearWork() throws {
        for (position, shape) in Self.scalable(1).enumerated() {
            func work(_ n: Int) throws -> Int {
                let counted = try WorkCount.plistkit(["lint", "{}"], input: Self.scalable(n)[position].bytes)
                #expect(counted.status == 1, "\(shape.name) at \(n) is refused")
                return counted.count - WorkCount.startup
            }
            let (small, large) = (try work(2_000), try work(8_000))
            print("hostile XML, \(shape.name): n = 2,000: \(small) instructions beyond start-up, 4n: \(large)")
            #expect(small > 0 && Double(large) <= 5 * Double(small), "\(shape.name): n = 2,000: \(small) instructions, 4n: \(large)")
        }
    }

    @Test("big but valid documents (long comments, long strings) are accepted")
    func bigButValid() throws {
        let comment = Array(Self.plist("<!--" + String(repeating: "a-", count: 500_000) + "a--><true/>").utf8)
        #expect(try XMLPropertyListReader().read(comment) == true)
        let long = String(repeating: "x", count: 5_000_000)
        #expect(try XMLPropertyListReader().read(Array(Self.plist("<string>\(long)</string>").utf8)) == .string(long))
    }

    #if canImport(Glibc)
    @Test("external references never open the file they name, and its content never appears")
    func noFileOpened() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt")
        let marker = "TOP-SECRET-\(UUID().uuidString)"
        try Data(marker.utf8).write(to: secret)
        let path = secret.path
        let documents = [
            "<!DOCTYPE plist [<!ENTITY x SYSTEM \"file://\(path)\">]>\n<plist><string>&x;</string></plist>",
            "<!DOCTYPE plist SYSTEM \"file://\(path)\">\n<plist><true/></plist>",
            "<!DOCTYPE plist SYSTEM \"\(path)\">\n<plist><true/></plist>",
            "<!DOCTYPE plist [<!ENTITY % p SYSTEM \"\(path)\"> %p;]>\n<plist><true/></plist>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\" [<!ENTITY x SYSTEM \"\(path)\">]>\n<plist><string>&x;</string></plist>",
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"\(path)\">\n<plist><true/></plist>",
            Self.plist("<array><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"\(path)\" parse=\"text\"/></array>"),
            "<?xml-stylesheet href=\"\(path)\"?>\n<plist><true/></plist>",
            "<plist><string>&x;</string></plist>",
        ]
        let watcher = inotify_init1(Int32(IN_NONBLOCK))
        #expect(watcher >= 0)
        defer { close(watcher) }
        #expect(inotify_add_watch(watcher, path, UInt32(IN_OPEN | IN_ACCESS)) >= 0)
        #expect(inotify_add_watch(watcher, directory.path, UInt32(IN_OPEN | IN_ACCESS)) >= 0)

        func events() -> Int {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
            return max(count, 0)
        }
        // Positive control: opening the file ourselves is seen.
        _ = events()
        _ = try Data(contentsOf: secret)
        #expect(events() > 0, "inotify saw our own open")

        for document in documents {
            let error = xmlError(Array(document.utf8))
            #expect(error != nil, "accepted: \(document)")
            #expect(!(error?.description.contains(marker) ?? false))
            #expect(events() == 0, "the file was opened while reading \(document)")
        }
        // Apple's own DOCTYPE names an http URL: it is never fetched either (see XMLCLITests for the system calls).
        #expect(try XMLPropertyListReader().read(Array(Self.plist("<true/>").utf8)) == true)
        #expect(events() == 0)
    }
    #endif

    @Test("readers on many threads at once do not interfere")
    func concurrentReaders() async throws {
        let good = Array(Self.plist("<dict><key>a</key><array><integer>1</integer><string>x</string></array></dict>").utf8)
        let bad = Array(Self.plist("<dict><key>a</key><array><integer>1</integer><string>x<!-- --></string></array></dict>").utf8)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask { () throws -> Void in
                    for _ in 0..<50 {
                        if index % 2 == 0 {
                            #expect(try XMLPropertyListReader().read(good) == ["a": [1, "x"]])
                        } else {
                            #expect(xmlError(bad)?.code == .commentInValue)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
