import ActivityContainer
import MPUserInfo
import PropertyList
import PropertyListXML

/// Every serialised form this package reads or writes, under one name
/// (Specs/architecture.md, "Format layer"): a document's format as read
/// (``Document/Reading/format``), the format a writer is asked for
/// (``Document/writeBytes(_:as:limits:keyOrder:readable:compact:projectName:textEncoding:over:)``),
/// and the format its first bytes show (``detect(_:)``). The command line's
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

    /// The format the first bytes announce, without parsing: `bplist` is
    /// binary (`BinaryPropertyListReader.hasMagic`), `MP` an MP userInfo, one
    /// of the three container headers an activity container, and `<` after an
    /// optional byte-order mark and whitespace XML
    /// (`XMLPropertyListReader.looksLikeXML`). Nil for anything else: the text
    /// formats are told apart by their first character (``Document/detectText(_:)``).
    public static func detect(_ bytes: some Collection<UInt8>) -> DocumentFormat? {
        if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
        if MPUserInfoReader.hasMagic(bytes) { return .mpUserInfo }
        if ActivityContainerReader.hasHeader(bytes) { return .activityContainer }
        if XMLPropertyListReader.looksLikeXML(bytes) { return .xml }
        return nil
    }
}
