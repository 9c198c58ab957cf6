import FoundationEssentials
public import PropertyList
import PropertyListXML
import PropertyListOpenStep
import TypedJSON

extension Document {
    /// A document as read by ``read(document:limits:)``: its value, the format
    /// that writes it back as it came (an edit keeps it), and the text encoding
    /// of an OpenStep text.
    public struct Reading: Sendable {
        /// The property list.
        public var value: PropertyListValue
        /// The format the document came in: ``DocumentFormat/binary``, ``DocumentFormat/xml``,
        /// ``DocumentFormat/json``, ``DocumentFormat/strings`` (a `.strings` file),
        /// ``DocumentFormat/xcodeProject`` (a project file: `// !$*UTF8*$!` and a
        /// project's objects) or ``DocumentFormat/openStep`` (any other OpenStep text).
        public var format: DocumentFormat
        /// How an OpenStep text was encoded (nil for the other formats, which
        /// are written in their one encoding).
        public var textEncoding: TextEncoding?
        /// A `.strings` file's text and the place of each entry, which an edit
        /// written over this reading keeps (``writeBytes(_:as:limits:keyOrder:readable:compact:projectName:textEncoding:over:)``).
        var stringsLayout: StringsLayout?
        /// An Xcode project's comments as its text recorded them, by object ID.
        var recordedComments: [String: String] = [:]

        /// A document read by other means (typed JSON, say).
        public init(value: PropertyListValue, format: DocumentFormat, textEncoding: TextEncoding? = nil) {
            (self.value, self.format, self.textEncoding) = (value, format, textEncoding)
        }
    }

    /// Reads a document in any format this package reads as a property list,
    /// as `plutil` reads them all (Specs/architecture.md, "Format layer";
    /// Specs/plistkit.md, "Input formats"): binary and XML property lists,
    /// plain JSON, OpenStep text, `.strings` files and Xcode projects; a text
    /// in UTF-8 with or without a byte-order mark, or in UTF-16 after one.
    ///
    /// The format is told by ``DocumentFormat/detect(_:among:after:)`` among
    /// the property lists: by the first bytes (`bplist`) or by the first
    /// character after the byte-order mark and whitespace; a text starting
    /// with `{` or `"` is read as OpenStep, then as JSON (as plutil tries
    /// CoreFoundation's parsers before JSON: `{}` and a quoted string, which
    /// both read alike, stay OpenStep), and when both refuse it the error of
    /// the one that read further is reported.
    ///
    /// - Throws: ``PropertyListError`` of the format's reader;
    ///   ``ErrorCode/unknownFormat`` for bytes no reader takes that start as
    ///   an MP userInfo or an activity container do (Specs/plistkit.md,
    ///   "Input formats"): a Handoff wire form holds no property list.
    public static func read(document bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) -> Reading {
        do {
            return try readPropertyList(document: bytes, limits: limits)
        } catch {
            // unknownFormat: a wire form, named, rather than a text reader's complaint
            // (only a failed read: a text starting "MP" that reads is that text).
            if let wire = DocumentFormat.detect(bytes), !wire.holdsPropertyList { throw notPropertyList(wire) }
            throw error
        }
    }

    /// ``read(document:limits:)`` without the wire forms' name.
    private static func readPropertyList(document bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) -> Reading {
        switch DocumentFormat.detect(bytes, among: .propertyLists) {
        case .binary: return Reading(value: try BinaryPropertyListReader(limits: limits).read(bytes), format: .binary)
        case .xml: return Reading(value: try XMLPropertyListReader(limits: limits).read(bytes), format: .xml)
        case .json: return Reading(value: try readJSON(bytes, limits: limits), format: .json)
        case .openStep:
            let openStepError: PropertyListError
            do { return try readOpenStep(bytes, limits: limits) } catch { openStepError = error }
            // JSON after OpenStep (`{`, `"`), as plutil tries CoreFoundation, then JSON: the
            // texts both read (`{}`, a quoted string) read alike, and stay OpenStep text.
            guard DocumentFormat.detect(bytes, among: .propertyLists, after: .openStep) == .json else { throw openStepError }
            do { return Reading(value: try readJSON(bytes, limits: limits), format: .json) } catch { throw further(error, openStepError) }
        case nil, .typedJSON?, .strings?, .xcodeProject?, .mpUserInfo?, .activityContainer?:
            // unknownFormat: binary data (NUL bytes, no UTF-16 mark) that is no bplist: no text format holds it.
            throw PropertyListError(.unknownFormat, "not a property list: binary data that is not bplist00, and not text (UTF-8, or UTF-16 after a byte-order mark)",
                                    at: .byteOffset(0))
        }
    }

    /// JSON in UTF-8, after a UTF-8 byte-order mark, or in UTF-16 after its mark
    /// (as `plutil` reads it); the JSON reader sees UTF-8.
    static func readJSON(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) -> PropertyListValue {
        let (encoding, markLength) = TextEncoding.detect(bytes)
        switch encoding {
        case .utf8: return try PlainJSONReader(limits: limits).read(bytes)
        case .utf8WithByteOrderMark: return try PlainJSONReader(limits: limits).read(bytes.span.bytes.extracting(markLength...))
        case .utf16LittleEndian, .utf16BigEndian:
            // The OpenStep reader's decoder is the one UTF-16 decoder (strict: pairs, even length).
            guard bytes.count <= limits.maxInputBytes else {
                throw PropertyListError(.inputTooLarge, "the input is \(bytes.count) bytes, over maxInputBytes \(limits.maxInputBytes)")
            }
            let text = try TextEncoding.decode(bytes)
            return try PlainJSONReader(limits: limits).read(text.utf8.span.bytes)
        }
    }

    private static func readOpenStep(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) -> Reading {
        let text = try OpenStepReader(limits: limits).readText(bytes)
        let format: DocumentFormat
        if text.isStringsFile {
            format = .strings
        } else if XcodeProject.isProject(text.value), XcodeProject.hasHeader(bytes) {
            format = .xcodeProject
        } else {
            format = .openStep
        }
        var reading = Reading(value: text.value, format: format, textEncoding: text.encoding)
        reading.stringsLayout = text.stringsLayout
        if format == .xcodeProject { reading.recordedComments = XcodeProject.recordedComments(in: bytes) }
        return reading
    }

    /// Of two text readers' errors, the one found further into the text.
    private static func further(_ a: PropertyListError, _ b: PropertyListError) -> PropertyListError {
        guard case .lineColumn(let lineA, let columnA) = a.location, case .lineColumn(let lineB, let columnB) = b.location else { return b }
        return (lineA, columnA) > (lineB, columnB) ? a : b
    }
}
