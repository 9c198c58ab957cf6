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

/// One node of the XML document, as the streaming reader reports it.
enum XMLNode {
    case startElement(PlistElement, name: String, attributes: [(name: String, value: String)], isEmpty: Bool)
    case endElement(PlistElement, name: String)
    case text(String)
    case whitespace(String)
    case cdata(String)
    case comment
    case processingInstruction(target: String)
    case entityReference(name: String)
    case documentType(name: String, publicID: String?, systemID: String?, hasDeclarations: Bool)
    case other(type: Int32)
}

/// libxml2's streaming reader (`xmlTextReader`) over a UTF-8 buffer: it holds
/// no document tree, so memory is bounded by what the caller keeps.
/// Errors are collected per reader (no global handler is touched).
final class XMLStreamReader {
    private let reader: xmlTextReaderPtr
    /// The first error libxml2 reported: message, line, column.
    private(set) var error: (message: String, line: Int, column: Int)?
    private let buffer: UnsafeMutableRawBufferPointer

    /// - Parameter utf8: the document, already transcoded to UTF-8.
    init?(utf8: [UInt8]) {
        LibXML2.initialize
        // libxml2 reads the buffer while parsing; keep a copy alive for the reader's lifetime.
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(utf8.count, 1), alignment: 1)
        buffer.copyBytes(from: utf8)
        guard let reader = xmlReaderForMemory(buffer.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(utf8.count),
                                              nil, "UTF-8", LibXML2.parserOptions) else {
            buffer.deallocate()
            return nil
        }
        self.reader = reader
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            let this = Unmanaged<XMLStreamReader>.fromOpaque(context).takeUnretainedValue()
            guard this.error == nil else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            this.error = (message.trimmingTrailingNewlines, Int(error.pointee.line), Int(error.pointee.int2))
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        buffer.deallocate()
    }

    /// Where the current node is: its line (libxml2 records each node's line),
    /// and the parser's column when the parser is still on that line, else 1.
    /// The parser reads ahead, so the column is approximate; the line is exact.
    var position: (line: Int, column: Int) {
        let parserLine = Int(xmlTextReaderGetParserLineNumber(reader))
        let parserColumn = Int(xmlTextReaderGetParserColumnNumber(reader))
        guard let node = xmlTextReaderCurrentNode(reader) else { return (parserLine, parserColumn) }
        let line = Int(xmlGetLineNo(node))
        guard line > 0 else { return (parserLine, parserColumn) }
        return (line, line == parserLine ? parserColumn : 1)
    }

    /// The next node; nil at the end of the document. Throws nothing: a parse
    /// error ends the document and is left in ``error``.
    /// The next node. Whitespace text is only copied out when `keepWhitespace`
    /// (inside a scalar); between elements its content does not matter.
    func next(keepWhitespace: Bool) -> XMLNode? {
        let status = xmlTextReaderRead(reader)
        guard status == 1 else {
            if status < 0, error == nil { error = ("XML error", position.line, position.column) }
            return nil
        }
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let (element, name) = Self.element(xmlTextReaderConstName(reader))
            let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
            var attributes: [(String, String)] = []
            if xmlTextReaderHasAttributes(reader) == 1 {
                while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    attributes.append((string(xmlTextReaderConstName(reader)), string(xmlTextReaderConstValue(reader))))
                }
                xmlTextReaderMoveToElement(reader)
            }
            return .startElement(element, name: name, attributes: attributes, isEmpty: isEmpty)
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            let (element, name) = Self.element(xmlTextReaderConstName(reader))
            return .endElement(element, name: name)
        case Int32(XML_READER_TYPE_TEXT.rawValue):
            return .text(string(xmlTextReaderConstValue(reader)))
        case Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            return .whitespace(keepWhitespace ? string(xmlTextReaderConstValue(reader)) : "")
        case Int32(XML_READER_TYPE_CDATA.rawValue):
            return .cdata(string(xmlTextReaderConstValue(reader)))
        case Int32(XML_READER_TYPE_COMMENT.rawValue):
            return .comment
        case Int32(XML_READER_TYPE_PROCESSING_INSTRUCTION.rawValue):
            return .processingInstruction(target: string(xmlTextReaderConstName(reader)))
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            return .entityReference(name: string(xmlTextReaderConstName(reader)))
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
            let node = xmlTextReaderCurrentNode(reader)
            let dtd = UnsafeMutableRawPointer(node).map { $0.assumingMemoryBound(to: xmlDtd.self) }
            return .documentType(name: string(xmlTextReaderConstName(reader)),
                                 publicID: dtd?.pointee.ExternalID.map { String(cString: $0) },
                                 systemID: dtd?.pointee.SystemID.map { String(cString: $0) },
                                 hasDeclarations: dtd?.pointee.children != nil || dtd?.pointee.entities != nil)
        case let other:
            return .other(type: other)
        }
    }

    /// The plist element a name stands for, matched on its bytes, and the name
    /// (a shared constant for the plist elements, so no string is built for them).
    private static func element(_ pointer: UnsafePointer<xmlChar>?) -> (PlistElement, String) {
        guard let pointer else { return (.unknown, "") }
        for (element, name, bytes) in PlistElement.names {
            var i = 0
            while i < bytes.count, pointer[i] == bytes[i] { i += 1 }
            if i == bytes.count, pointer[i] == 0 { return (element, name) }
        }
        return (.unknown, String(cString: pointer))
    }

    private func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
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
            var out: [UInt8] = []
            XMLLayout.appendData(data, indent: indent, &out)
            xmlTextWriterWriteRaw(writer, String(decoding: out, as: UTF8.self))
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
