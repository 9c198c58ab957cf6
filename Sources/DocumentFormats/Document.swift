public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
import PropertyListXML
import PropertyListOpenStep
import TypedJSON
import UserInfo

/// Whole documents in any format: the one place that detects a format and
/// picks its reader or writer (Specs/architecture.md, "Format layer"). The
/// CLI, the payload codec, the fuzz oracles and the benchmark all read and
/// write through it; a new format is added here.
///
/// ```swift
/// let plist = try Document.read(any: bytes)            // binary or XML
/// let xml = try Document.write(plist, as: .xml)
/// ```
public enum Document {
    /// Reads a binary or an XML property list, whichever the bytes are
    /// (``DocumentFormat/Candidates/signatures``), as the payload layer needs.
    ///
    /// - Throws: ``PropertyListError``; ``ErrorCode/unknownFormat`` when the
    ///   bytes are neither.
    public static func read(any bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
        try read(bytes, as: try binaryOrXML(bytes), limits: limits)
    }

    /// Reads a binary or an XML property list, whichever the bytes are.
    ///
    /// - Throws: ``PropertyListError``; ``ErrorCode/unknownFormat`` when the
    ///   bytes are neither.
    public static func read(any data: Data, limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
        if try binaryOrXML(data) == .binary { return try BinaryPropertyListReader(limits: limits).read(data) }
        return try XMLPropertyListReader(limits: limits).read(data)
    }

    /// Reads a property list in a known format: any that holds one
    /// (``DocumentFormat/holdsPropertyList``); OpenStep, `.strings` and
    /// project text alike, in any encoding the OpenStep reader reads.
    ///
    /// - Throws: ``PropertyListError`` of the format's reader;
    ///   ``ErrorCode/unknownFormat`` for an MP userInfo or an activity
    ///   container, which hold no property list.
    public static func read(_ bytes: [UInt8], as format: DocumentFormat,
                            limits: PropertyListLimits = .default) throws(PropertyListError) -> PropertyListValue {
        switch format {
        case .binary: return try BinaryPropertyListReader(limits: limits).read(bytes)
        case .xml: return try XMLPropertyListReader(limits: limits).read(bytes)
        case .json: return try readJSON(bytes, limits: limits)
        case .typedJSON:
            do throws(UserInfoError) { return try TypedJSONReader(limits: limits).readPropertyList(bytes.span.bytes) } catch {
                // The same code, reason, place and key path (the typed-JSON reader reports in userInfo terms).
                throw error.underlying ?? PropertyListError(error.code, error.reason, at: error.location, keyPath: error.keyPath)
            }
        case .openStep, .strings, .xcodeProject: return try OpenStepReader(limits: limits).read(bytes)
        case .mpUserInfo, .activityContainer: throw notPropertyList(format)
        }
    }

    /// unknownFormat: a Handoff wire form asked to be read as a property list.
    static func notPropertyList(_ format: DocumentFormat) -> PropertyListError {
        PropertyListError(.unknownFormat, "\(format == .mpUserInfo ? "an MP userInfo" : "an activity container") holds \(format == .mpUserInfo ? "a userInfo" : "an activity"), not a property list (UserInfoWireForm, WireDocuments)",
                          at: .byteOffset(0))
    }

    /// Writes a property list in `format`, within `limits` (nothing deeper and
    /// nothing larger, expanded, than a reader with the same limits reads), with
    /// dictionary keys in `keyOrder` (binary, XML and plain JSON; typed JSON
    /// is always sorted), plain JSON `readable` (`plutil -r`) or compact, and XML
    /// `compact` (no indentation or line breaks in the body) or in Apple's layout,
    /// an Xcode project with its `.xcodeproj`'s `projectName`
    /// (``OpenStepWriter/projectName``), and OpenStep text and `.strings` files
    /// in `textEncoding` (an Xcode project is UTF-8; the other formats have one
    /// encoding each and ignore it).
    ///
    /// `over`: the document the value was read from, when it is an edit of it.
    /// A `.strings` file written in its own order over the `.strings` file it
    /// was read from changes only the entries that changed — its comments,
    /// blank lines and other entries stay as they were (Specs/openstep.md,
    /// "Editing a `.strings` file"); an Xcode project keeps the comments Xcode
    /// writes in more than one way as the original recorded them.
    public static func writeBytes(_ value: PropertyListValue, as format: DocumentFormat,
                                  limits: WriterLimits = .default, keyOrder: KeyOrder = .sorted,
                                  readable: Bool = false, compact: Bool = false,
                                  projectName: String = "", textEncoding: TextEncoding = .utf8,
                                  over original: Reading? = nil) throws(PropertyListError) -> [UInt8] {
        switch format {
        case .binary:
            var writer = BinaryPropertyListWriter(limits: limits)
            writer.keyOrder = keyOrder
            return try writer.writeBytes(value)
        case .xml:
            var writer = XMLPropertyListWriter(limits: limits)
            (writer.keyOrder, writer.compact) = (keyOrder, compact)
            return try writer.writeBytes(value)
        case .json:
            var writer = PlainJSONWriter(limits: limits)
            (writer.keyOrder, writer.readable) = (keyOrder, readable)
            return Array(try writer.write(value))
        case .typedJSON:
            return Array(try TypedJSONWriter(pretty: true, limits: limits).write(value)) + [0x0A]
        case .openStep, .strings, .xcodeProject:
            let style: OpenStepWriter.Style = format == .openStep ? .propertyList : format == .strings ? .strings : .xcodeProject
            var writer = OpenStepWriter(style: style, limits: limits)
            (writer.keyOrder, writer.projectName, writer.encoding) = (keyOrder, projectName, textEncoding)
            writer.recordedComments = original?.recordedComments ?? [:]
            if format == .strings, keyOrder == .insertion, case .dictionary(let dictionary) = value,
               let layout = original?.stringsLayout, let edited = try writer.writeStrings(dictionary, over: layout) {
                return edited
            }
            return try writer.writeBytes(value)
        case .mpUserInfo, .activityContainer:
            // unrepresentableValue: a property list is not a userInfo or an activity.
            throw PropertyListError(.unrepresentableValue, "a property list is not written as \(format == .mpUserInfo ? "an MP userInfo" : "an activity container") (UserInfoWireForm, WireDocuments write those)")
        }
    }

    /// A real as documents spell it (the XML reader's grammar: finite decimal
    /// numbers, `nan`, `inf`, `infinity`); nil otherwise. For values given on
    /// a command line, which follow the grammar of the documents they enter.
    public static func real(_ text: String) -> Double? {
        XMLPropertyListReader.real(text)
    }

    /// A date as XML property lists spell it (`2001-01-01T00:00:00Z`, the
    /// reader's grammar), within ``PropertyListValue/dateRange``; nil otherwise.
    /// For values given on a command line.
    public static func date(_ text: String) -> Date? {
        guard let seconds = text.withUTF8Span({ CivilTime.secondsSinceReference(appleText: $0) }),
              PropertyListValue.isValidDate(seconds) else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// Data as strict, padded base64 (no whitespace); nil otherwise. For
    /// values given on a command line.
    public static func base64Data(_ text: String) -> Data? {
        StrictBase64.decode(text, skippingWhitespace: false)
    }

    /// The name of the `.xcodeproj` a project file belongs to, for
    /// ``DocumentFormat/xcodeProject`` (Specs/openstep.md, "Xcode projects"):
    /// `given` when there is one; else the name in `path`
    /// (`Planner.xcodeproj/project.pbxproj` → `Planner`); else the name the
    /// input's own text records (`Build configuration list for PBXProject
    /// "Planner"`); else empty.
    public static func xcodeProjectName(given: String?, path: String?, input: [UInt8]) -> String {
        given ?? path.flatMap(XcodeProject.name(forPath:)) ?? XcodeProject.recordedName(in: input) ?? ""
    }

    /// Writes a property list in `format` (see
    /// ``writeBytes(_:as:limits:keyOrder:readable:compact:projectName:textEncoding:over:)``,
    /// with its defaults).
    ///
    /// - Throws: ``PropertyListError`` of the format's writer.
    public static func write(_ value: PropertyListValue, as format: DocumentFormat,
                             limits: WriterLimits = .default) throws(PropertyListError) -> Data {
        // The binary and XML writers build bytes and wrap them in Data the same way.
        Data(try writeBytes(value, as: format, limits: limits))
    }

    /// The format of `bytes` among the signatures when it is binary or XML, or ``ErrorCode/unknownFormat``.
    private static func binaryOrXML(_ bytes: some Collection<UInt8>) throws(PropertyListError) -> DocumentFormat {
        let format = DocumentFormat.detect(bytes)
        // unknownFormat: neither binary nor XML.
        guard format == .binary || format == .xml else {
            throw PropertyListError(.unknownFormat, "not a property list (neither binary nor XML)", at: .byteOffset(0))
        }
        return format!
    }
}
