// Every libxml2 call of ActivityCodec lives in this file (Specs/xml-plist.md,
// "libxml2"). Nothing here is public, and no C type leaves it.
internal import CLibXML2
import FoundationEssentials
package import PropertyList

/// The libxml2 library in use.
enum LibXML2 {
    /// Parser options, as one named constant: no network, no entity
    /// substitution (no XML_PARSE_NOENT), no DTD loading, defaulting or
    /// validation (no XML_PARSE_DTDLOAD, DTDATTR, DTDVALID), no recovery (no
    /// XML_PARSE_RECOVER), no XInclude (no XML_PARSE_XINCLUDE), CDATA kept as
    /// CDATA nodes (no XML_PARSE_NOCDATA), blanks kept (no XML_PARSE_NOBLANKS).
    /// XML_PARSE_HUGE lifts libxml2's nesting limit of 256 so that our own limits
    /// (depth 512 and the rest, enforced by the reader) decide; it also lifts
    /// libxml2's text-size limits, which the reader enforces itself, and entity
    /// expansion cannot happen because no entity can be declared.
    static let parserOptions: Int32 = Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_HUGE.rawValue)

    /// The version string of the libxml2 linked at run time, such as `2.9.14`.
    static let version: String = {
        initialize
        // xmlParserVersion is a macro over this accessor; it holds e.g. "20914".
        guard let raw = __xmlParserVersion()?.pointee else { return "unknown" }
        let digits = String(cString: raw)
        guard let number = Int(digits) else { return digits }
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }()

    /// libxml2's one-time global initialisation, done once and thread-safely
    /// (Swift initialises static properties exactly once).
    static let initialize: Void = { xmlInitParser() }()
}

/// libxml2's SAX2 parser over a UTF-8 buffer, feeding a ``PlistGrammar`` event
/// by event: no document tree and no node objects are built, so memory is
/// bounded by the value being read. The first grammar error stops the parser;
/// libxml2's own diagnostics are collected per parser (no global handler is
/// touched). See Specs/xml-plist.md, "libxml2".
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
    private var context: xmlParserCtxtPtr?

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
        LibXML2.initialize
        // The push parser, as libxml2's own streaming reader uses it: it reads
        // exactly the bytes given (a NUL byte is a character, not an end).
        guard let context = xmlCreatePushParserCtxt(nil, nil, nil, 0, nil) else { return false }
        defer { xmlFreeParserCtxt(context) }
        self.context = context
        defer { self.context = nil }
        // The callbacks receive the parser context (its userData is itself) and
        // find this object in its _private field.
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        Self.installHandlers(context.pointee.sax)
        xmlCtxtUseOptions(context, LibXML2.parserOptions)
        // The bytes are UTF-8 whatever the declaration says (XMLInput checked it).
        if let utf8Handler = xmlFindCharEncodingHandler("UTF-8") { xmlSwitchToEncoding(context, utf8Handler) }
        // Pushed in chunks, so that libxml2 holds only a window of the document
        // (it drops what it has parsed), never a second copy of all of it.
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                var offset = 0
                repeat {
                    let length = min(Self.chunkBytes, chars.count - offset)
                    let last = offset + length == chars.count
                    let status = xmlParseChunk(context, chars.baseAddress.map { $0 + offset }, Int32(length), last ? 1 : 0)
                    offset += length
                    if status != 0 || stopped { break }
                } while offset < chars.count
            }
        }
        // No startDocument handler, so no document is built; free one defensively.
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        endPosition = position
        return true
    }

    /// The parser's current line and column (1-based).
    private var position: (line: Int, column: Int) {
        guard let input = context?.pointee.input else { return (1, 1) }
        return (max(1, Int(input.pointee.line)), max(1, Int(input.pointee.col)))
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
            if let context { xmlStopParser(context) }
        }
    }

    fileprivate static func parser(_ context: UnsafeMutableRawPointer?) -> XMLSAXParser? {
        guard let context, let object = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
        return Unmanaged<XMLSAXParser>.fromOpaque(object).takeUnretainedValue()
    }

    private static func installHandlers(_ sax: UnsafeMutablePointer<xmlSAXHandler>) {
        // Only what the plist grammar needs; the tree-building defaults are removed.
        sax.pointee.startDocument = nil
        sax.pointee.endDocument = nil
        sax.pointee.setDocumentLocator = nil
        sax.pointee.externalSubset = nil
        sax.pointee.startElement = nil
        sax.pointee.endElement = nil
        sax.pointee.warning = nil
        sax.pointee.error = nil
        sax.pointee.fatalError = nil
        sax.pointee.internalSubset = { context, name, publicID, systemID in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in
                try grammar.documentType(name: XMLSAXParser.string(name), publicID: publicID.map { String(cString: $0) },
                                         systemID: systemID.map { String(cString: $0) })
            }
        }
        sax.pointee.startElementNs = { context, localName, prefix, _, namespaceCount, namespaces, attributeCount, _, attributes in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in
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
        }
        sax.pointee.endElementNs = { context, _, _, _ in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in try grammar.endElement() }
        }
        sax.pointee.characters = { context, text, length in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in
                try grammar.characters(UnsafeBufferPointer(start: text, count: Int(length)), cdata: false)
            }
        }
        sax.pointee.ignorableWhitespace = sax.pointee.characters
        sax.pointee.cdataBlock = { context, text, length in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in
                try grammar.characters(UnsafeBufferPointer(start: text, count: Int(length)), cdata: true)
            }
        }
        sax.pointee.comment = { context, _ in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in try grammar.comment() }
        }
        sax.pointee.processingInstruction = { context, target, _ in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in try grammar.processingInstruction(target: XMLSAXParser.string(target)) }
        }
        sax.pointee.reference = { context, name in
            XMLSAXParser.parser(context)?.step { grammar throws(PropertyListError) in try grammar.entityReference(name: XMLSAXParser.string(name)) }
        }
        sax.pointee.serror = { context, error in
            guard let parser = XMLSAXParser.parser(context), let error, parser.diagnostic == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            parser.diagnostic = (message.trimmingTrailingNewlines, Int(error.pointee.line), Int(error.pointee.int2))
        }
    }

    /// The plist element a name stands for, matched on its bytes, and the name
    /// (a shared constant for the plist elements, so no string is built for them).
    fileprivate static func element(_ pointer: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> (PlistElement, String) {
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

    fileprivate static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
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

/// The same layout as ``XMLPropertyListWriter``, written through libxml2's
/// `xmlTextWriter`. Kept only to measure the two against each other
/// (Specs/xml-plist.md, "Writer speed"); the library writes bytes directly.
package enum LibXML2TextWriter {
    package static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        LibXML2.initialize
        guard let buffer = xmlBufferCreate() else { preconditionFailure("libxml2 out of memory") }
        defer { xmlBufferFree(buffer) }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else { preconditionFailure("libxml2 out of memory") }
        xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil)
        xmlTextWriterWriteDTD(writer, "plist", "-//Apple//DTD PLIST 1.0//EN", "http://www.apple.com/DTDs/PropertyList-1.0.dtd", nil)
        xmlTextWriterWriteRaw(writer, "\n")
        xmlTextWriterStartElement(writer, "plist")
        xmlTextWriterWriteAttribute(writer, "version", "1.0")
        xmlTextWriterWriteRaw(writer, "\n")
        try element(value, 0, writer)
        xmlTextWriterEndElement(writer)
        xmlTextWriterWriteRaw(writer, "\n")
        xmlTextWriterEndDocument(writer)
        xmlFreeTextWriter(writer)
        return Array(UnsafeBufferPointer(start: xmlBufferContent(buffer), count: Int(xmlBufferLength(buffer))))
    }

    private static func element(_ value: PropertyListValue, _ indent: Int, _ writer: xmlTextWriterPtr) throws(PropertyListError) {
        let tabs = String(repeating: "\t", count: indent)
        xmlTextWriterWriteRaw(writer, tabs)
        func simple(_ name: String, _ text: String) {
            xmlTextWriterWriteElement(writer, name, text)
            xmlTextWriterWriteRaw(writer, "\n")
        }
        switch value {
        case .string(let string): simple("string", string)
        case .integer(let integer): simple("integer", integer.description)
        case .real(let real): simple("real", XMLLayout.realText(real))
        case .bool(let flag): xmlTextWriterWriteRaw(writer, flag ? "<true/>\n" : "<false/>\n")
        case .date(let date): simple("date", CivilTime(secondsSinceReference: date.timeIntervalSinceReferenceDate).iso8601)
        case .data(let data):
            var out = ByteSink(capacity: 128)
            XMLLayout.appendData(data, indent: indent, &out)
            xmlTextWriterWriteRaw(writer, String(decoding: out.takeBytes(), as: UTF8.self))
        case .uid(let uid):
            xmlTextWriterWriteRaw(writer, "<dict>\n\(tabs)\t<key>CF$UID</key>\n\(tabs)\t<integer>\(uid)</integer>\n\(tabs)</dict>\n")
        case .null: throw PropertyListError(.unrepresentableValue, "XML property lists cannot carry the null object")
        case .array(let elements):
            if elements.isEmpty { xmlTextWriterWriteRaw(writer, "<array/>\n"); return }
            xmlTextWriterWriteRaw(writer, "<array>\n")
            for element in elements { try self.element(element, indent + 1, writer) }
            xmlTextWriterWriteRaw(writer, "\(tabs)</array>\n")
        case .dictionary(let dictionary):
            if dictionary.isEmpty { xmlTextWriterWriteRaw(writer, "<dict/>\n"); return }
            xmlTextWriterWriteRaw(writer, "<dict>\n")
            for key in dictionary.sortedKeys {
                xmlTextWriterWriteRaw(writer, "\(tabs)\t")
                simple("key", key)
                try element(dictionary[key]!, indent + 1, writer)
            }
            xmlTextWriterWriteRaw(writer, "\(tabs)</dict>\n")
        }
    }
}
