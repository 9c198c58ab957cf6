// The Swift side of ActivityCodec's libxml2 use (Specs/xml-plist.md, "libxml2"):
// the only Swift file that calls the C bridge, whose LibXML2Bridge.c holds
// every libxml2 call. Nothing here is public, and no C type leaves it.
internal import CLibXML2Bridge
import FoundationEssentials
import PropertyList

/// The libxml2 library in use.
enum LibXML2 {
    /// The version string of the libxml2 linked at run time, such as `2.9.14`.
    static let version: String = {
        // libxml2 spells it as digits, e.g. "20914".
        guard let raw = activitycodec_libxml2_version() else { return "unknown" }
        let digits = String(cString: raw)
        guard let number = Int(digits) else { return digits }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }()
}

/// libxml2's SAX2 parser over a UTF-8 buffer, feeding a ``PlistGrammar`` event
/// by event: no document tree and no node objects are built, so memory is
/// bounded by the value being read. The first grammar error stops the parser;
/// libxml2's own diagnostics are collected per parser (no global handler is
/// touched). The parser itself is the C bridge's (`CLibXML2Bridge`), which
/// holds every libxml2 call. See Specs/xml-plist.md, "libxml2".
final class XMLSAXParser {
    /// The grammar the events drive; read its result after ``parse(_:)``.
    var grammar: PlistGrammar { grammarStorage.pointee }
    /// The grammar lives outside the object's stored properties so that each
    /// event mutates it without a dynamic exclusivity check (measured: 5% of
    /// decoding went to swift_beginAccess).
    private let grammarStorage: UnsafeMutablePointer<PlistGrammar>
    /// Set by the first grammar error: later events are ignored.
    private var stopped = false
    /// The first grammar error, located (line, column, key path).
    private(set) var failure: PropertyListError?
    /// The first diagnostic libxml2 reported: message, line, column.
    fileprivate(set) var diagnostic: (message: String, line: Int, column: Int)?
    /// Where the parser stopped: line and column.
    private(set) var endPosition = (line: 1, column: 1)
    private var parser: OpaquePointer?

    /// Bytes handed to libxml2 per push.
    static let chunkBytes = 256 << 10

    init(grammar: PlistGrammar) {
        grammarStorage = .allocate(capacity: 1)
        grammarStorage.initialize(to: grammar)
    }

    deinit {
        grammarStorage.deinitialize(count: 1)
        grammarStorage.deallocate()
    }

    /// Parses `utf8` (already checked and transcoded by ``XMLInput``); returns
    /// false if libxml2 could not start.
    func parse(_ utf8: [UInt8]) -> Bool {
        let parser = withUnsafePointer(to: Self.events) { events in
            activitycodec_xml_parser_create(events, Unmanaged.passUnretained(self).toOpaque())
        }
        guard let parser else { return false }
        self.parser = parser
        defer {
            self.parser = nil
            activitycodec_xml_parser_free(parser)
        }
        // Pushed in chunks, so that libxml2 holds only a window of the document
        // (it drops what it has parsed), never a second copy of all of it.
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                var offset = 0
                repeat {
                    let length = min(Self.chunkBytes, chars.count - offset)
                    let last = offset + length == chars.count
                    let status = activitycodec_xml_parser_push(parser, chars.baseAddress.map { $0 + offset }, Int32(length), last ? 1 : 0)
                    offset += length
                    if status != 0 || stopped { break }
                } while offset < chars.count
            }
        }
        endPosition = position
        return true
    }

    /// The parser's current line and column (1-based).
    private var position: (line: Int, column: Int) {
        guard let parser else { return (1, 1) }
        var line: Int32 = 1
        var column: Int32 = 1
        activitycodec_xml_parser_position(parser, &line, &column)
        return (Int(line), Int(column))
    }

    /// Runs one grammar step; a thrown error is located and stops the parser.
    @inline(__always)
    fileprivate func step(_ body: (inout PlistGrammar) throws(PropertyListError) -> Void) {
        guard !stopped else { return }
        do {
            try body(&grammarStorage.pointee)
        } catch {
            stopped = true
            var located = error
            let (line, column) = position
            located.location = .lineColumn(line: line, column: column)
            located.keyPath = PropertyListKeyPath(grammar.keyPath + error.keyPath.components)
            failure = located
            if let parser { activitycodec_xml_parser_stop(parser) }
        }
    }

    @inline(__always)
    fileprivate static func parser(_ context: UnsafeMutableRawPointer?) -> XMLSAXParser {
        Unmanaged<XMLSAXParser>.fromOpaque(context!).takeUnretainedValue()
    }

    /// The events the plist grammar needs, forwarded by the bridge.
    private static let events = activitycodec_sax_events(
        start_element: { context, localName, prefix, namespaceCount, namespaces, attributeCount, attributes in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                let (element, name) = XMLSAXParser.element(localName, prefix: prefix)
                var list: [(name: String, value: String)] = []
                if namespaceCount > 0 || attributeCount > 0 {
                    // Namespace declarations count as attributes, as xmlns="…" is one in the text.
                    for index in 0..<Int(namespaceCount) {
                        let declared = namespaces?[2 * index].map { "xmlns:" + String(cString: $0) } ?? "xmlns"
                        list.append((declared, XMLSAXParser.string(namespaces?[2 * index + 1])))
                    }
                    for index in 0..<Int(attributeCount) {
                        // Five pointers per attribute: local name, prefix, URI, value start, value end.
                        let base = 5 * index
                        let local = XMLSAXParser.string(attributes?[base])
                        let qualified = attributes?[base + 1].map { String(cString: $0) + ":" + local } ?? local
                        var value = ""
                        if let start = attributes?[base + 3], let end = attributes?[base + 4] {
                            value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                        }
                        list.append((qualified, value))
                    }
                }
                try grammar.startElement(element, name: name, attributes: list)
            }
        },
        end_element: { context in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in try grammar.endElement() }
        },
        characters: { context, text, length in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                try grammar.characters(UnsafeBufferPointer(start: text, count: Int(length)), cdata: false)
            }
        },
        cdata: { context, text, length in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                try grammar.characters(UnsafeBufferPointer(start: text, count: Int(length)), cdata: true)
            }
        },
        comment: { context in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in try grammar.comment() }
        },
        processing_instruction: { context, target in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                try grammar.processingInstruction(target: XMLSAXParser.string(target))
            }
        },
        reference: { context, name in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                try grammar.entityReference(name: XMLSAXParser.string(name))
            }
        },
        document_type: { context, name, publicID, systemID in
            XMLSAXParser.parser(context).step { grammar throws(PropertyListError) in
                try grammar.documentType(name: XMLSAXParser.string(name), publicID: publicID.map { String(cString: $0) },
                                         systemID: systemID.map { String(cString: $0) })
            }
        },
        diagnostic: { context, message, line, column in
            let parser = XMLSAXParser.parser(context)
            guard parser.diagnostic == nil else { return }
            let text = message.map { String(cString: $0) } ?? "XML error"
            parser.diagnostic = (text.trimmingTrailingNewlines, Int(line), Int(column))
        }
    )

    /// The plist element a name stands for, matched on its bytes, and the name
    /// (a shared constant for the plist elements, so no string is built for them).
    fileprivate static func element(_ pointer: UnsafePointer<UInt8>?, prefix: UnsafePointer<UInt8>?) -> (PlistElement, String) {
        guard let pointer else { return (.unknown, "") }
        if let prefix { return (.unknown, String(cString: prefix) + ":" + String(cString: pointer)) }
        // The first letter narrows the plist names to one or two.
        let first = pointer[0]
        for (element, name, bytes) in PlistElement.names where bytes[0] == first {
            var i = 0
            while i < bytes.count, pointer[i] == bytes[i] { i += 1 }
            if i == bytes.count, pointer[i] == 0 { return (element, name) }
        }
        return (.unknown, String(cString: pointer))
    }

    fileprivate static func string(_ pointer: UnsafePointer<UInt8>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
