import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

let appleHeader = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">

    """

/// A document with Apple's header around `body` (the `<plist>` element and what follows).
func xml(_ body: String) -> [UInt8] { Array((appleHeader + body).utf8) }

func plist(_ value: String) -> [UInt8] { xml("<plist version=\"1.0\">\n\(value)\n</plist>\n") }

func xmlError(_ bytes: [UInt8], limits: PropertyListLimits = .default) -> PropertyListError? {
    do {
        _ = try XMLPropertyListReader(limits: limits).read(bytes)
        return nil
    } catch {
        return error
    }
}

/// One test per rule of Specs/xml-plist.md; hostile documents in tables.
@Suite("XML reader rules")
struct XMLReaderRuleTests {
    @Test("accepts every value type in Apple's layout")
    func acceptsApple() throws {
        let value = try XMLPropertyListReader().read(plist("""
            <dict>
            \t<key>a</key><string>x &amp; &lt;y&gt; &#233; &#x1F600;</string>
            \t<key>b</key><integer>-42</integer>
            \t<key>c</key><real>0.10000000000000001</real>
            \t<key>d</key><true/>
            \t<key>e</key><false/>
            \t<key>f</key><date>2001-01-01T00:00:00Z</date>
            \t<key>g</key><data>
            \tAAEC
            \t/w==
            \t</data>
            \t<key>h</key><array><string/><dict/><array/><data></data><key-less-not-used/></array>
            </dict>
            """.replacingOccurrences(of: "<key-less-not-used/>", with: "")))
        #expect(value == ["a": "x & <y> é 😀", "b": -42, "c": 0.1, "d": true, "e": false,
                          "f": .date(Date(timeIntervalSinceReferenceDate: 0)), "g": .data(Data([0, 1, 2, 0xFF])),
                          "h": ["", [:], [], .data(Data())]])
    }

    @Test("accepts what CoreFoundation accepts: no DOCTYPE, no version, a bare root value, UTF-16 with a BOM, CDATA in strings")
    func acceptsVariants() throws {
        #expect(try XMLPropertyListReader().read(Array("<plist><integer>1</integer></plist>".utf8)) == 1)
        #expect(try XMLPropertyListReader().read(Array("<?xml version=\"1.0\"?><array><true/></array>".utf8)) == [true])
        #expect(try XMLPropertyListReader().read(plist("<string><![CDATA[<b>&</b>]]> tail</string>")) == "<b>&</b> tail")
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><plist><string>é</string></plist>"
        let utf16: [UInt8] = [0xFE, 0xFF] + text.utf16.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try XMLPropertyListReader().read(utf16) == "é")
        let bom8 = [0xEF, 0xBB, 0xBF] + Array("<plist><string>x</string></plist>".utf8)
        #expect(try XMLPropertyListReader().read(bom8) == "x")
        #expect(try XMLPropertyListReader().read(xml("<!-- a comment --><plist version=\"1.0\"><!-- here too --><array><!-- and here --></array></plist>")) == [])
        // Empty comments are read alike by both parsers inside and after the root (not before it: emptyPrologComment).
        #expect(try XMLPropertyListReader().read(Array("<!-- --><plist><array><!----><true/></array></plist><!---->".utf8)) == [true])
    }

    @Test("integers: decimal with sign and leading zeros, hexadecimal; in [-2^63, 2^64)")
    func integers() throws {
        for (text, expected) in [("0123", PropertyListInteger(123)), ("+5", 5), ("-0x2a", -42), ("0XFF", 255),
                                 ("18446744073709551615", PropertyListInteger(UInt64.max)), ("-9223372036854775808", PropertyListInteger(Int64.min))] {
            #expect(try XMLPropertyListReader().read(plist("<integer>\(text)</integer>")) == .integer(expected), "\(text)")
        }
    }

    @Test("reals: decimal and exponent forms, Apple's spellings of NaN and infinity")
    func reals() throws {
        for (text, expected) in [("1.5", 1.5), ("-0.0", -0.0), (".5", 0.5), ("5.", 5.0), ("1e-3", 0.001), ("+infinity", .infinity), ("-inf", -.infinity), ("INF", .infinity)] {
            #expect(try XMLPropertyListReader().read(plist("<real>\(text)</real>")) == .real(expected), "\(text)")
        }
        #expect(try XMLPropertyListReader().read(plist("<real>nan</real>")).realValue?.isNaN == true)
        #expect(try XMLPropertyListReader().read(plist("<real>NaN</real>")).realValue?.isNaN == true)
    }

    @Test("a one-key CF$UID dictionary is a UID (CoreFoundation's reading); other shapes stay dictionaries (wide integers: uidTooWide, below)")
    func uids() throws {
        #expect(try XMLPropertyListReader().read(plist("<dict><key>CF$UID</key><integer>7</integer></dict>")) == .uid(7))
        #expect(try XMLPropertyListReader().read(plist("<dict><key>CF$UID</key><integer>4294967295</integer></dict>")) == .uid(4_294_967_295))
        #expect(try XMLPropertyListReader().read(plist("<dict><key>CF$UID</key><integer>7</integer><key>x</key><true/></dict>")) == ["CF$UID": 7, "x": true])
        #expect(try XMLPropertyListReader().read(plist("<dict><key>CF$UID</key><string>7</string></dict>")) == ["CF$UID": "7"])
    }

    /// (rule, document): every document is refused with that code.
    static let refusals: [(PropertyListError.Code, String)] = [
        // Entities, DTDs, external references, XInclude: refused before libxml2 expands anything.
        (.forbiddenDeclaration, #"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><plist><string>&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist [<!ENTITY x "\#(String(repeating: "x", count: 50_000))">]><plist><string>&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;&x;</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist [<!ENTITY secret SYSTEM "file:///etc/hostname">]><plist><string>&secret;</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><plist><string>x</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist SYSTEM "file:///etc/passwd"><plist><string>x</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://evil.example/PropertyList-1.0.dtd"><plist><string>x</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE html><plist><string>x</string></plist>"#),
        (.forbiddenDeclaration, #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd" [ ]><plist/>"#),
        (.malformedXML, #"<plist><string>&undeclared;</string></plist>"#),
        (.forbiddenNode, #"<?xml-stylesheet href="x"?><plist><string>x</string></plist>"#),
        (.emptyPrologComment, "<!----><plist><true/></plist>"),
        (.emptyPrologComment, #"<?xml version="1.0"?><!----><dict><key>a</key><true/></dict>"#),
        (.emptyPrologComment, "<!-- x -->\n<!---->\n<plist><true/></plist>"),
        (.forbiddenNode, #"<plist><?php echo 1; ?><string>x</string></plist>"#),
        (.unknownElement, #"<plist xmlns:xi="http://www.w3.org/2001/XInclude" version="1.0"><xi:include href="/etc/passwd" parse="text"/></plist>"#.replacingOccurrences(of: #" xmlns:xi="http://www.w3.org/2001/XInclude" version="1.0""#, with: "")),
        (.unexpectedRoot, #"<plist xmlns:xi="http://www.w3.org/2001/XInclude"><xi:include href="/etc/passwd" parse="text"/></plist>"#),
        // Psychic Paper: what libxml2 and CoreFoundation would read differently.
        (.commentInValue, "<plist><dict><key>application-identifier<!----></key><string>x</string></dict></plist>"),
        (.commentInValue, "<plist><string>a<!-- b -->c</string></plist>"),
        (.commentInValue, "<plist><integer>1<!---->2</integer></plist>"),
        (.duplicateKey, "<plist><dict><key>a</key><true/><key>a</key><false/></dict></plist>"),
        (.duplicateKey, "<plist><dict><key>\u{E9}</key><true/><key>e\u{301}</key><false/></dict></plist>"),
        (.ambiguousLineEnding, "<plist><string>a\r\nb</string></plist>"),
        (.tagTooLong, "<plist" + String(repeating: " a=\"\"", count: 300) + "><true/></plist>"),
        (.tagTooLong, "<" + String(repeating: "p", count: 2000) + "/>"),
        (.longCharacterReference, "<plist><string>&#0000000000060;</string></plist>"),
        (.leadingByteOrderMark, "<plist><string>\u{FEFF}x</string></plist>"),
        (.leadingByteOrderMark, "<plist><string>&#xFEFF;x</string></plist>"),
        (.leadingByteOrderMark, "<plist><dict><key>\u{FEFF}k</key><true/></dict></plist>"),
        (.ambiguousLineEnding, "<plist><dict><key>k\r</key><true/></dict></plist>"),
        (.misplacedCDATA, "<plist><integer><![CDATA[1]]></integer></plist>"),
        // invalidData: CoreFoundation refuses the empty-element <data/> ("Encountered empty <data>"); <data></data> is empty data.
        (.invalidData, "<plist><array><data/></array></plist>"),
        (.invalidData, "<data/>"),
        (.misplacedCDATA, "<plist><array><![CDATA[x]]></array></plist>"),
        (.unexpectedText, "<plist><array>text<true/></array></plist>"),
        (.unexpectedText, "<plist><dict>x<key>a</key><true/></dict></plist>"),
        (.unexpectedText, "<plist><true>yes</true></plist>"),
        (.unexpectedText, "<plist> stray <string>x</string></plist>"),
        (.misplacedElement, "<plist><string>a<b/>c</string></plist>"),
        (.misplacedElement, "<plist><array><key>k</key></array></plist>"),
        (.misplacedElement, "<plist><dict><string>no key</string></dict></plist>"),
        (.misplacedElement, "<plist><key>k</key></plist>"),
        (.missingValue, "<plist><dict><key>a</key></dict></plist>"),
        (.missingValue, "<plist><dict><key>a</key><key>b</key><true/></dict></plist>"),
        (.unexpectedAttribute, "<plist><string id=\"1\">x</string></plist>"),
        (.unexpectedRoot, "<plist version=\"2.0\"><string>x</string></plist>"),
        (.unexpectedRoot, "<plist foo=\"bar\"><string>x</string></plist>"),
        (.unexpectedRoot, "<html><string>x</string></html>"),
        (.unknownElement, "<plist><integerx>1</integerx></plist>"),
        (.unknownElement, "<plist><nil/></plist>"),
        (.plistValueCount, "<plist></plist>"),
        (.plistValueCount, "<plist><true/><false/></plist>"),
        (.malformedXML, "<plist><string>x</string></plist><plist/>"),
        (.malformedXML, "<plist><string>x</string></plist>trailing"),
        (.malformedXML, "<plist><string>x</plist>"),
        (.malformedXML, "<plist><string>\u{0}</string></plist>"),
        (.malformedXML, "<plist><string>&#0;</string></plist>"),
        (.malformedXML, "<plist><string>&#xD800;</string></plist>"),
        (.malformedXML, "<plist><string>x</string>"),
        (.malformedXML, ""),
        // Values.
        (.invalidData, "<plist><data>AAE</data></plist>"),
        (.invalidData, "<plist><data>AA=E</data></plist>"),
        (.invalidData, "<plist><data>AAF=</data></plist>"),
        (.invalidData, "<plist><data>A*==</data></plist>"),
        (.invalidDate, "<plist><date>2001-01-01 00:00:00Z</date></plist>"),
        // A 13-digit year: the day count times 86,400 overflowed (found by the differential fuzzer).
        (.invalidDate, "<plist><date>2001002001001-01-01T00:00:00Z</date></plist>"),
        (.invalidDate, "<plist><date>9999999999999999-12-31T23:59:59Z</date></plist>"),
        (.invalidDate, "<plist><date>-9999999999999999-01-01T00:00:00Z</date></plist>"),
        (.invalidDate, "<plist><date>31700000-01-01T00:00:00Z</date></plist>"),
        (.invalidDate, "<plist><date>2001-02-29T00:00:00Z</date></plist>"),
        (.invalidDate, "<plist><date>2001-01-01T00:00:00+01:00</date></plist>"),
        (.invalidDate, "<plist><date>2001-01-01T00:00:00.5Z</date></plist>"),
        (.invalidDate, "<plist><date> 2001-01-01T00:00:00Z</date></plist>"),
        (.invalidDate, "<plist><date/></plist>"),
        (.invalidInteger, "<plist><integer>18446744073709551616</integer></plist>"),
        // misplacedReference: Apple's parser refuses &#49; in an integer or date and &#13;
        // between elements, and decodes &#13; in data as base64 digits (differential fuzzing).
        (.misplacedReference, "<plist><integer>&#49;2</integer></plist>"),
        (.misplacedReference, "<plist><real>&#49;.5</real></plist>"),
        (.misplacedReference, "<plist><date>&#50;001-01-01T00:00:00Z</date></plist>"),
        (.misplacedReference, "<plist><data>AA&#65;A</data></plist>"),
        (.misplacedReference, "<plist><data>AAAA&#13;</data></plist>"),
        (.misplacedReference, "<plist><integer>1&amp;</integer></plist>"),
        (.misplacedReference, "<plist><dict>&#13;<key>a</key><true/></dict></plist>"),
        (.misplacedReference, "<plist><array><true/>&#32;</array></plist>"),
        // uidTooWide: CoreFoundation truncates these to 32-bit UIDs (Linux Foundation reads 4294967296 as UID 0).
        (.uidTooWide, "<plist><dict><key>CF$UID</key><integer>4294967296</integer></dict></plist>"),
        (.uidTooWide, "<plist><dict><key>CF$UID</key><integer>-1</integer></dict></plist>"),
        (.invalidInteger, "<plist><integer>-9223372036854775809</integer></plist>"),
        (.invalidInteger, "<plist><integer>1.0</integer></plist>"),
        (.invalidInteger, "<plist><integer> 1</integer></plist>"),
        (.invalidInteger, "<plist><integer>0x</integer></plist>"),
        (.invalidInteger, "<plist><integer/></plist>"),
        (.invalidInteger, "<plist><integer>１</integer></plist>"),
        (.invalidReal, "<plist><real>1e999</real></plist>"),
        (.invalidReal, "<plist><real>0x1p3</real></plist>"),
        (.invalidReal, "<plist><real>1,5</real></plist>"),
        (.invalidReal, "<plist><real/></plist>"),
        // CoreFoundation reads NaN only unsigned (infinities take a sign).
        (.invalidReal, "<plist><real>-nan</real></plist>"),
        (.invalidReal, "<plist><real>+NaN</real></plist>"),
    ]

    @Test("each hostile or malformed document is refused with its code and a line number", arguments: refusals.indices)
    func refused(_ index: Int) {
        let (code, text) = Self.refusals[index]
        let error = xmlError(Array(text.utf8))
        #expect(error?.code == code, "\(text.prefix(120))")
        if case .lineColumn(let line, _)? = error?.location { #expect(line >= 1) } else { Issue.record("no line for \(text.prefix(60))") }
    }

    @Test("encodings: invalid UTF-8, UTF-16 without BOM, UTF-32, other declared encodings are refused")
    func encodings() {
        #expect(xmlError([0x3C, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x3E, 0xC3, 0x28] + Array("</plist>".utf8))?.code == .invalidUTF8)
        let utf16: [UInt8] = "<plist><string>\u{E9}</string></plist>".utf16.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(xmlError(utf16)?.code == .unsupportedEncoding)
        #expect(xmlError([0x00, 0x00, 0xFE, 0xFF, 0, 0, 0, 0x3C])?.code == .unsupportedEncoding)
        #expect(xmlError(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>x</string></plist>".utf8))?.code == .unsupportedEncoding)
        #expect(xmlError([0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x3C])?.code == .invalidUTF8)
    }

    @Test("limits: depth 512 passes and 513 is refused; 100,000 levels are refused with a line number, not a crash")
    func depth() throws {
        func nested(_ depth: Int) -> [UInt8] {
            plist(String(repeating: "<array>", count: depth) + "<true/>" + String(repeating: "</array>", count: depth))
        }
        _ = try XMLPropertyListReader().read(nested(512))
        #expect(xmlError(nested(513))?.code == .depthLimitExceeded)
        let deep = xmlError(nested(100_000))
        #expect(deep?.code == .depthLimitExceeded)
        if case .lineColumn(let line, _)? = deep?.location { #expect(line == 4) } else { Issue.record("no line") }
    }

    @Test("limits: input size, collection count, string and data length, object count")
    func sizeLimits() {
        var limits = PropertyListLimits()
        limits.maxInputBytes = 100
        #expect(xmlError(plist("<string>x</string>"), limits: limits)?.code == .inputTooLarge)
        limits = PropertyListLimits()
        limits.maxCollectionCount = 2
        #expect(xmlError(plist("<array><true/><true/><true/></array>"), limits: limits)?.code == .collectionLimitExceeded)
        limits = PropertyListLimits()
        limits.maxStringBytes = 4
        #expect(xmlError(plist("<string>12345</string>"), limits: limits)?.code == .stringLimitExceeded)
        limits = PropertyListLimits()
        limits.maxDataBytes = 3
        #expect(xmlError(plist("<data>AAECAwQF</data>"), limits: limits)?.code == .dataLimitExceeded)
        limits = PropertyListLimits()
        limits.maxObjects = 2
        #expect(xmlError(plist("<array><true/><true/></array>"), limits: limits)?.code == .objectLimitExceeded)
    }

    @Test("errors carry line, column and key path")
    func location() {
        let error = xmlError(plist("<dict>\n\t<key>items</key>\n\t<array>\n\t\t<integer>1</integer>\n\t\t<integer>x</integer>\n\t</array>\n</dict>"))
        #expect(error?.code == .invalidInteger)
        #expect(error?.keyPath.description == "items[1]")
        if case .lineColumn(let line, _)? = error?.location { #expect(line == 8) } else { Issue.record("no line") }
    }

    @Test("documents far larger than libxml2's read window read whole, and errors deep in them keep their line and key path")
    func readInPieces() throws {
        // 40,000 entries with multi-byte text: about 1.5 MB, so values, keys and
        // tags straddle the pieces libxml2 reads (a few KiB each) everywhere.
        var entries: [(String, PropertyListValue)] = []
        for index in 0..<40_000 {
            entries.append(("key-\(index)-é", .string("välue \(index) <&> ☃")))
        }
        let value = PropertyListValue.dictionary(PropertyListDictionary(uniqueKeysWithValues: entries))
        let xml = try XMLPropertyListWriter().writeBytes(value)
        #expect(xml.count > 1_000_000)
        #expect(try XMLPropertyListReader().read(xml) == value)
        // The same document with one value broken, far into the document (keys are
        // written in order, so key-39999-é is not last): the error names its line.
        var text = String(decoding: xml, as: UTF8.self)
        let lastValue = text.range(of: "<string>välue 39999 &lt;&amp;&gt; ☃</string>", options: .backwards)!
        text.replaceSubrange(lastValue, with: "<integer>välue 39999</integer>")
        let error = xmlError(Array(text.utf8))
        #expect(error?.code == .invalidInteger)
        #expect(error?.keyPath.description == "key-39999-é")
        let brokenLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<integer>") }! + 1
        #expect(brokenLine > 10_000)
        if case .lineColumn(let line, _)? = error?.location { #expect(line == brokenLine) } else { Issue.record("no line") }
    }

    @Test("an external entity pointing at an existing file: refused, its content never appears, no file is opened")
    func externalEntity() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A FIFO with no writer: opening it for reading would block, so any attempt hangs the child.
        let fifo = directory.appendingPathComponent("secret.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let secret = directory.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET-CONTENT".utf8).write(to: secret)
        for target in [fifo, secret.path] {
            let document = directory.appendingPathComponent("xxe.plist")
            try Data(#"<!DOCTYPE plist [<!ENTITY s SYSTEM "file://\#(target)">]><plist><string>&s;</string></plist>"#.utf8).write(to: document)
            let external = directory.appendingPathComponent("dtd.plist")
            try Data(#"<!DOCTYPE plist SYSTEM "file://\#(target)"><plist><string>x</string></plist>"#.utf8).write(to: external)
            for file in [document, external] {
                var arguments = ["-f", "-e", "trace=open,openat", "-o", directory.appendingPathComponent("trace").path, Paths.product("plistkit").path, "print", file.path]
                let strace = which("strace")
                if strace == nil { arguments = Array(arguments.dropFirst(5)) }
                let result = try run(strace ?? Paths.product("plistkit").path, arguments)
                #expect(result.status == 1)
                #expect(!String(decoding: result.stdout + result.stderr, as: UTF8.self).contains("TOP-SECRET"))
                if strace != nil {
                    let trace = try String(contentsOf: directory.appendingPathComponent("trace"), encoding: .utf8)
                    #expect(!trace.contains(target), "plistkit opened \(target)")
                }
            }
        }
    }

    @Test("every proper prefix that ends inside the root element is refused")
    func dripFeed() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Paths.golden.appendingPathComponent("foundation").path) where name.hasSuffix(".xml") {
            let bytes = [UInt8](try Data(contentsOf: Paths.golden.appendingPathComponent("foundation/\(name)")))
            _ = try XMLPropertyListReader().read(bytes)
            let rootEnd = try #require(XMLTestSupport.lastIndex(of: Array("</plist>".utf8), in: bytes)) + 8
            // Every length in the first and last 256 bytes of the root, and 300 spread between
            // (large files: 100), which keeps this test to seconds in a debug build.
            let spread = bytes.count > 16_384 ? 100 : 300
            let lengths = Set(Array(0..<min(256, rootEnd)) + Array(max(0, rootEnd - 256)..<rootEnd)
                              + stride(from: 0, to: rootEnd, by: max(1, rootEnd / spread)))
            for length in lengths.sorted() {
                #expect(xmlError(Array(bytes[0..<length])) != nil, "\(name): prefix of \(length) bytes")
            }
        }
    }
}

enum XMLTestSupport {
    static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in stride(from: haystack.count - needle.count, through: 0, by: -1) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
