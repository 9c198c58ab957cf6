// The Swift side of ActivityCodec's libxml2 use (Specs/xml-plist.md, "libxml2"):
// the only Swift file that calls the C bridge, whose LibXML2Bridge.c holds
// every libxml2 call. Nothing here is public, and no C type leaves it.
internal import CLibXML2Bridge
import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// libxml2's SAX parser over a UTF-8 buffer, feeding a ``PlistGrammar`` event
/// by event: no document tree and no node objects are built, so memory is
/// bounded by the value being read. The first grammar error stops the parser;
/// libxml2's own diagnostics are collected per parser (no global handler is
/// touched). The parser itself is the C bridge's (`CLibXML2Bridge`), which
/// holds every libxml2 call. See Specs/xml-plist.md, "libxml2".
final class XMLSAXParser {
    /// The key path of the value the grammar was reading when it stopped.
    var keyPath: [PropertyListKeyPath.Component] { session.pointee.grammar.keyPath }
    /// The grammar's result, after ``parse(_:)``.
    func finish() throws(PropertyListError) -> PropertyListValue { try session.pointee.grammar.finish() }
    /// The marks the grammar turned back into controls (Specs/xml-plist.md, "Control characters in strings").
    var restoredMarks: Int { session.pointee.grammar.restoredMarks }
    /// The first grammar error, located (line, column, key path).
    var failure: PropertyListError? { session.pointee.failure }
    /// The first diagnostic libxml2 reported: message, line, column.
    var diagnostic: (message: String, line: Int, column: Int)? { session.pointee.diagnostic }
    /// Where the parser stopped: line and column.
    private(set) var endPosition = (line: 1, column: 1)
    /// Everything the callbacks change, at a fixed address that their context
    /// pointer names: each event reaches it with no reference counting and no
    /// dynamic exclusivity check (measured: 5% of decoding went to
    /// swift_beginAccess when the grammar was a stored property, and 7% to
    /// retaining and releasing the parser object per event).
    private let session: UnsafeMutablePointer<SAXSession>

    init(grammar: consuming PlistGrammar) {
        session = .allocate(capacity: 1)
        session.initialize(to: SAXSession(grammar: grammar))
    }

    deinit {
        session.deinitialize(count: 1)
        session.deallocate()
    }

    /// Parses `utf8` (already checked and transcoded by ``XMLInput``, with no
    /// NUL byte); returns false if libxml2 could not start. `root` is where
    /// the root stands after Apple's prolog, when `utf8` opens with it
    /// (``XMLInput/rootAfterAppleProlog(_:)``): libxml2 starts there. With
    /// `streamed`, libxml2 reads even a small document a window at a time.
    func parse(_ utf8: Span<UInt8>, root: (offset: Int, line: Int, column: Int)?, streamed: Bool) -> Bool {
        unsafe utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // libxml2 reads the bytes from this buffer (a small document
                // at once, a larger one a window at a time), after Apple's
                // prolog when the document opens with it (Specs/xml-plist.md, "libxml2").
                let parser = withUnsafePointer(to: Self.events) { events in
                    activitycodec_xml_parser_create(events, UnsafeMutableRawPointer(session), chars.baseAddress, chars.count,
                                                    root?.offset ?? 0, Int32(root?.line ?? 1), Int32(root?.column ?? 1),
                                                    streamed ? 1 : 0)
                }
                guard let parser else { return false }
                session.pointee.parser = parser
                defer {
                    session.pointee.parser = nil
                    activitycodec_xml_parser_free(parser)
                }
                _ = activitycodec_xml_parser_run(parser)
                endPosition = session.pointee.position
                return true
            }
        }
    }

    /// The largest document libxml2 is handed in one buffer (the bridge's).
    static var wholeDocumentLimit: Int { Int(activitycodec_xml_whole_document_limit()) }

    @inline(__always)
    static func session(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<SAXSession> {
        context!.assumingMemoryBound(to: SAXSession.self)
    }

    /// The events the plist grammar needs, forwarded by the bridge. The three
    /// of every element are functions of their own in the bridge's
    /// `.text.hot` section (Specs/xml-plist.md, "Reader speed"): as closures
    /// here they sat wherever the code before them ended.
    private static let events = activitycodec_sax_events(
        start_element: saxStartElement,
        end_element: saxEndElement,
        characters: saxCharacters,
        cdata: { context, text, length in
            XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in
                try grammar.characters(unsafe UnsafeBufferPointer(start: text, count: Int(length)).span, cdata: true)
            }
        },
        comment: { context in
            XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in try grammar.comment() }
        },
        processing_instruction: { context, target in
            XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in
                try grammar.processingInstruction(target: XMLSAXParser.string(target))
            }
        },
        reference: { context, name in
            XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in
                try grammar.entityReference(name: XMLSAXParser.string(name))
            }
        },
        document_type: { context, name, publicID, systemID in
            XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in
                try grammar.documentType(name: LibXML2Text(pointer: name), publicID: LibXML2Text(pointer: publicID),
                                         systemID: LibXML2Text(pointer: systemID))
            }
        },
        diagnostic: { context, message, line, column in
            let session = XMLSAXParser.session(context)
            guard session.pointee.diagnostic == nil else { return }
            let text = message.map { String(cString: $0) } ?? "XML error"
            session.pointee.diagnostic = (text.trimmingTrailingNewlines, Int(line), Int(column))
        }
    )

    fileprivate static func string(_ pointer: UnsafePointer<UInt8>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

/// An element starts (the bridge's `start_element`): returns 1 when it holds
/// text (a scalar or key), 0 when it holds elements and layout.
@section(".text.hot.activitycodec")
private func saxStartElement(_ context: UnsafeMutableRawPointer?, _ name: UnsafePointer<UInt8>?,
                             _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) -> Int32 {
    let session = XMLSAXParser.session(context)
    let element = session.pointee.elements.element(name)
    session.pointee.step { grammar throws(PropertyListError) in
        try grammar.startElement(element, name: ElementName(pointer: name), attributes: ElementAttributes(raw: attributes))
    }
    if case .scalar = element { return 1 }
    return 0
}

/// The innermost element ends (the bridge's `end_element`).
@section(".text.hot.activitycodec")
private func saxEndElement(_ context: UnsafeMutableRawPointer?) {
    let session = XMLSAXParser.session(context)
    // The tag is looked at only when it decides (an empty <data>).
    let closedEmpty = session.pointee.grammar.closingNeedsItsTag
        && session.pointee.parser.map { activitycodec_xml_parser_closed_empty($0) != 0 } ?? false
    session.pointee.step { grammar throws(PropertyListError) in
        try grammar.endElement(closedEmpty: closedEmpty)
    }
}

/// Character data (the bridge's `characters`).
@section(".text.hot.activitycodec")
private func saxCharacters(_ context: UnsafeMutableRawPointer?, _ text: UnsafePointer<UInt8>?, _ length: Int32) {
    XMLSAXParser.session(context).pointee.step { grammar throws(PropertyListError) in
        try grammar.characters(unsafe UnsafeBufferPointer(start: text, count: Int(length)).span, cdata: false)
    }
}

/// One parse's state, which libxml2's callbacks reach through their context pointer.
struct SAXSession: ~Copyable {
    var grammar: PlistGrammar
    /// The plist elements met so far, by libxml2's interned name pointer.
    var elements = ElementNames()
    /// Set by the first grammar error: later events are ignored.
    var stopped = false
    var failure: PropertyListError?
    var diagnostic: (message: String, line: Int, column: Int)?
    var parser: OpaquePointer?

    init(grammar: consuming PlistGrammar) { self.grammar = grammar }

    /// The parser's current line and column (1-based).
    var position: (line: Int, column: Int) {
        guard let parser else { return (1, 1) }
        var line: Int32 = 1
        var column: Int32 = 1
        activitycodec_xml_parser_position(parser, &line, &column)
        return (Int(line), Int(column))
    }

    /// Runs one grammar step; a thrown error is located and stops the parser.
    @inline(__always)
    mutating func step(_ body: (inout PlistGrammar) throws(PropertyListError) -> Void) {
        guard !stopped else { return }
        do {
            try body(&grammar)
        } catch {
            fail(error)
        }
    }

    @inline(never)
    private mutating func fail(_ error: PropertyListError) {
        stopped = true
        var located = error
        let (line, column) = position
        located.location = .lineColumn(line: line, column: column)
        located.keyPath = PropertyListKeyPath(grammar.keyPath + error.keyPath.components)
        failure = located
        if let parser { activitycodec_xml_parser_stop(parser) }
    }
}

/// The plist element each element name stands for. libxml2 interns names (one
/// pointer per distinct name and parser), so each distinct name is matched on
/// its bytes once and found by its pointer afterwards.
struct ElementNames {
    /// Direct-mapped by the pointer's bits: a slot holds the last name that fell
    /// in it (a collision only means matching that name's bytes again).
    private var slots = InlineArray<16, (pointer: UnsafePointer<UInt8>?, element: PlistElement)>(repeating: (nil, .unknown))

    @inline(__always)
    mutating func element(_ name: UnsafePointer<UInt8>?) -> PlistElement {
        guard let name else { return .unknown }
        // libxml2 packs names next to each other: mix all the pointer's bits.
        let slot = Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: name)) &* 0x9E37_79B9_7F4A_7C15) >> 60)
        if slots[slot].pointer == name { return slots[slot].element }
        let element = Self.match(name)
        slots[slot] = (name, element)
        return element
    }

    /// The plist element a NUL-terminated name spells, or `.unknown`: its
    /// first byte picks the candidates, whose names are literals (no table
    /// of strings to walk, retaining each, for every new name).
    static func match(_ name: UnsafePointer<UInt8>) -> PlistElement {
        func spells(_ literal: StaticString) -> Bool { LibXML2Text.spells(name, literal) }
        switch name[0] {
        case UInt8(ascii: "k") where spells("key"): return .scalar(.key)
        case UInt8(ascii: "s") where spells("string"): return .scalar(.string)
        case UInt8(ascii: "i") where spells("integer"): return .scalar(.integer)
        case UInt8(ascii: "d") where spells("dict"): return .dict
        case UInt8(ascii: "d") where spells("date"): return .scalar(.date)
        case UInt8(ascii: "d") where spells("data"): return .scalar(.data)
        case UInt8(ascii: "r") where spells("real"): return .scalar(.real)
        case UInt8(ascii: "t") where spells("true"): return .scalar(.trueValue)
        case UInt8(ascii: "f") where spells("false"): return .scalar(.falseValue)
        case UInt8(ascii: "a") where spells("array"): return .array
        case UInt8(ascii: "p") where spells("plist"): return .plist
        default: return .unknown
        }
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

/// An element's attributes as libxml2's SAX1 event gives them: NULL, or
/// (name, value) pairs up to a NULL name. Made into strings only when there
/// are some (every plist element but `<plist>` has none).
struct ElementAttributes {
    let raw: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    /// True when the element has no attribute (checked without building strings).
    var isEmpty: Bool { raw?[0] == nil }

    /// True when every attribute is `name="value"` (checked on libxml2's
    /// bytes, without building strings; true when there is none).
    func allAre(name: StaticString, value: StaticString) -> Bool {
        guard var pair = raw else { return true }
        while let attributeName = pair[0] {
            guard LibXML2Text.spells(attributeName, name), let attributeValue = pair[1],
                  LibXML2Text.spells(attributeValue, value) else { return false }
            pair += 2
        }
        return true
    }

    /// The (name, value) pairs, namespace declarations among them.
    var pairs: [(name: String, value: String)] {
        guard var pair = raw else { return [] }
        var list: [(name: String, value: String)] = []
        while let name = pair[0] {
            list.append((String(cString: name), pair[1].map { String(cString: $0) } ?? ""))
            pair += 2
        }
        return list
    }
}

/// An element's name as libxml2 gives it (NUL-terminated), made into a
/// string only for error messages.
typealias ElementName = LibXML2Text

/// A NUL-terminated string as libxml2 gives it (a name, or a document type's
/// identifier; NULL when absent), compared on its bytes and made into a
/// `String` only for error messages.
struct LibXML2Text {
    let pointer: UnsafePointer<UInt8>?

    /// The text, or nil when absent.
    var optionalText: String? { pointer.map { String(cString: $0) } }
    /// The text ("" when absent).
    var text: String { optionalText ?? "" }

    /// True when the text is present and exactly `literal`.
    func spells(_ literal: StaticString) -> Bool {
        guard let pointer else { return false }
        return Self.spells(pointer, literal)
    }

    /// True when the NUL-terminated `text` is exactly `literal` (a mismatch
    /// stops at the NUL at the latest).
    static func spells(_ text: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let bytes = literal.utf8Start
        for i in 0..<literal.utf8CodeUnitCount where text[i] != bytes[i] { return false }
        return text[literal.utf8CodeUnitCount] == 0
    }
}
