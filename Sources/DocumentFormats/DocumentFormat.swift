import ActivityContainer
import MPUserInfo
import PropertyList
import PropertyListXML

/// Every serialised form this package reads or writes, under one name
/// (Specs/architecture.md, "Format layer"): a document's format as read
/// (``Document/Reading/format``), the format a writer is asked for
/// (``Document/writeBytes(_:as:limits:keyOrder:readable:compact:projectName:textEncoding:over:)``),
/// and the format its first bytes show (``detect(_:among:after:)``). The command line's
/// names (`binary1`, `xml1`, `pbxproj`, …) are spellings of these.
public enum DocumentFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple's binary property list, `bplist00` (Specs/binary-plist.md).
    case binary
    /// Apple's XML property list (Specs/xml-plist.md).
    case xml
    /// Plain JSON: only what JSON can hold, as `plutil -convert json` (Specs/plain-json.md).
    case json
    /// Typed JSON, lossless (Specs/typed-json.md); never guessed from the bytes.
    case typedJSON
    /// OpenStep text (Specs/openstep.md).
    case openStep
    /// A `.strings` file: a dictionary of strings (Specs/openstep.md).
    case strings
    /// An Xcode project file in Xcode's layout (Specs/openstep.md, "Xcode projects").
    case xcodeProject
    /// Apple's "MP" MessagePack userInfo (Specs/mp-userinfo.md): a userInfo, not a property list.
    case mpUserInfo
    /// Apple's activity container (Specs/activity-container.md): an activity, not a property list.
    case activityContainer

    /// Whether a whole property list is written in this format: all but the
    /// two Handoff wire forms, which hold a userInfo or an activity
    /// (``UserInfoWireForm``, `WireDocuments` in `Handoff`).
    public var holdsPropertyList: Bool {
        self != .mpUserInfo && self != .activityContainer
    }

    /// The formats a detection chooses among (``detect(_:among:after:)``).
    /// The two sets tell the same bytes apart differently only where their
    /// formats share first bytes: `<` and a hex digit is XML among the
    /// signatures and OpenStep data among the property lists, and `MP` an MP
    /// userInfo among the signatures and OpenStep text among the property lists.
    public enum Candidates: Sendable, Hashable {
        /// The formats a signature in the first bytes names: binary (`bplist`),
        /// an MP userInfo (`MP`), an activity container (one of its three
        /// headers) and XML (`<` after an optional byte-order mark and
        /// whitespace, or UTF-16 `<` without a mark). Anything else is nil.
        /// What the wire-form readers, the payload layer and
        /// ``Document/read(any:limits:)`` detect.
        case signatures
        /// The formats read as property lists, as `plutil` tells them
        /// (Specs/plistkit.md, "Input formats"): `bplist` is binary; else the
        /// first character after the byte-order mark and whitespace decides —
        /// `<` XML (OpenStep when a hex digit, whitespace, `>` or `*`
        /// follows), `[` JSON, anything else OpenStep (`{` and `"` then JSON,
        /// when OpenStep refuses: ``detect(_:among:after:)``'s `after`); UTF-16 `<`
        /// without a mark XML; UTF-8 holding a NUL byte anywhere nil, binary
        /// data in no format read. What ``Document/read(document:limits:)`` detects.
        case propertyLists
    }

    /// The format of `bytes` among `candidates`, from their first bytes;
    /// nothing is parsed. The one detector of the package: every reader that
    /// is not told the format asks it (Specs/architecture.md, "Format layer").
    ///
    /// - Parameters:
    ///   - candidates: the formats the caller reads (``Candidates``).
    ///   - refused: a format the caller tried, whose reader refused the bytes:
    ///     the next format the bytes may be in, in the order tried — JSON after
    ///     OpenStep for a text that starts with `{` or `"` (the texts both
    ///     read, `{}` and a quoted string, read alike, and stay OpenStep, as
    ///     plutil tries CoreFoundation's parsers before JSON); nil after any other.
    /// - Returns: the format, or nil when the bytes are in none of the candidates.
    public static func detect(_ bytes: some Collection<UInt8>, among candidates: Candidates = .signatures,
                              after refused: DocumentFormat? = nil) -> DocumentFormat? {
        switch candidates {
        case .signatures:
            guard refused == nil else { return nil }
            // Each signature is its codec's; the four sets of first bytes are disjoint.
            if MPUserInfoReader.hasMagic(bytes) { return .mpUserInfo }
            if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
            if ActivityContainerReader.hasHeader(bytes) { return .activityContainer }
            if XMLPropertyListReader.looksLikeXML(bytes) { return .xml }
            return nil
        case .propertyLists:
            return propertyListFormat(bytes, after: refused)
        }
    }

    /// ``Candidates/propertyLists``, one rule a line.
    private static func propertyListFormat(_ bytes: some Collection<UInt8>, after refused: DocumentFormat?) -> DocumentFormat? {
        // A bplist is binary and nothing else.
        if BinaryPropertyListReader.hasMagic(bytes) { return refused == nil ? .binary : nil }
        let (encoding, markLength) = TextEncoding.detect(bytes)
        // UTF-16 without a mark: `<` and NUL in either order (only an XML
        // declaration starts so; the XML reader names the encoding it refuses).
        if markLength == 0, bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) { return refused == nil ? .xml : nil }
        // Binary data (an iOS NIBArchive, an image): a NUL byte anywhere, which no
        // UTF-8 text holds. Anywhere, not in a prefix: an edit that removes an entry
        // must not move a NUL into view and leave a file that no longer reads.
        if markLength == 0 || encoding == .utf8WithByteOrderMark, bytes.contains(0) { return nil }
        var characters = TextCharacters(bytes.dropFirst(markLength), encoding: encoding)
        var first = characters.next()
        while let unit = first, unit == 0x20 || (0x09...0x0D).contains(unit) { first = characters.next() }
        let format: DocumentFormat
        let thenJSON: Bool
        switch first {
        case 0x3C: // <
            switch characters.next() {
            case let next? where next < 0x80 && isOpenStepAfterAngle(UInt8(next)): (format, thenJSON) = (.openStep, false)
            default: (format, thenJSON) = (.xml, false)
            }
        case 0x5B: (format, thenJSON) = (.json, false) // [
        case 0x7B, 0x22: (format, thenJSON) = (.openStep, true) // { "
        default: (format, thenJSON) = (.openStep, false)
        }
        guard let refused else { return format }
        return refused == .openStep && thenJSON ? .json : nil
    }

    /// What follows `<` in OpenStep: hex digits and whitespace (data), `>`
    /// (empty data), `*` (a GNUstep typed value).
    private static func isOpenStepAfterAngle(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
             UInt8(ascii: ">"), UInt8(ascii: "*"), 0x20, 0x09...0x0D:
            return true
        default:
            return false
        }
    }
}

/// The UTF-8 bytes or UTF-16 units of a text after its byte-order mark, one at a time.
private struct TextCharacters<Bytes: Collection<UInt8>> {
    var iterator: Bytes.Iterator
    let encoding: TextEncoding

    init(_ bytes: Bytes, encoding: TextEncoding) {
        (iterator, self.encoding) = (bytes.makeIterator(), encoding)
    }

    mutating func next() -> UInt16? {
        switch encoding {
        case .utf8, .utf8WithByteOrderMark:
            return iterator.next().map(UInt16.init)
        case .utf16LittleEndian, .utf16BigEndian:
            guard let a = iterator.next().map(UInt16.init), let b = iterator.next().map(UInt16.init) else { return nil }
            return encoding == .utf16LittleEndian ? b << 8 | a : a << 8 | b
        }
    }
}
