import ActivityContainer
import DocumentFormats
import FoundationEssentials
import KeyedArchive
import PropertyList
public import UserInfo

/// `print` and `convert` of Apple's wire forms (Specs/plistkit.md, "Wire
/// forms"): an MP userInfo prints and converts as its userInfo; an activity
/// container prints its header and fields, then its userInfo, and converts
/// to the typed-JSON envelope `payload decode` prints (without the payload
/// rules: no version check, no URL translation).
public enum WireDocuments {
    /// The most a container may inflate to here: its five 24-bit fields fit.
    public static let maxContainerBytes = 16 << 20

    /// The typed JSON of a wire-form document, or nil when the bytes are no wire form.
    ///
    /// - Throws: the container's, the userInfo's or the writer's error.
    public static func typedJSON(_ bytes: [UInt8]) throws -> [UInt8]? {
        guard let value = try value(bytes) else { return nil }
        return try Document.typedJSON(value)
    }

    /// The value of a wire-form document, as ``typedJSON(_:)`` writes it: an
    /// MP userInfo's dictionary; an activity container's envelope; an error
    /// packet as `{"errorPacket": data}`. Nil when the bytes are no wire form.
    ///
    /// - Throws: the container's or the userInfo's error.
    public static func value(_ bytes: [UInt8]) throws -> UserInfoValue? {
        switch DocumentFormat.detect(bytes) {
        case .mpUserInfo:
            return .dictionary(try userInfo(mp: bytes))
        case .activityContainer:
            let (container, _) = try ActivityContainerReader(maxBytes: maxContainerBytes).inspect(Data(bytes))
            switch container {
            case .activity(let record): return try payload(record).envelope
            case .errorPacket(let archive): return .dictionary(["errorPacket": .data(archive)])
            }
        default: return nil
        }
    }

    /// The readable text of a wire-form document, or nil when the bytes are no wire form.
    ///
    /// - Throws: the container's or the userInfo's error.
    public static func description(_ bytes: [UInt8]) throws -> String? {
        switch DocumentFormat.detect(bytes) {
        case .mpUserInfo: return UserInfoValue.dictionary(try userInfo(mp: bytes)).description
        case .activityContainer:
            let (container, details) = try ActivityContainerReader(maxBytes: maxContainerBytes).inspect(Data(bytes))
            let kind = details.header & 0xF == ActivityContainerLayout.errorHeader ? "error packet" : "activity"
            var text = "activity container: header 0x\(String(details.header, radix: 16, uppercase: true)) (\(kind))"
            if let compressed = details.compressedBytes {
                text += ", bzip2-compressed: \(compressed) bytes inflate to \(details.inflatedBytes - 4)"
            } else {
                text += ", not compressed"
            }
            text += "\n"
            for field in details.fields {
                let place = field.range.map { "\($0.count) bytes at offset \($0.lowerBound)" } ?? "absent"
                text += "  field \(field.number) \(field.name): \(place)\n"
            }
            switch container {
            case .errorPacket(let archive):
                text += errorDescription(archive)
            case .activity(let record):
                // Every string the sender chose is quoted and escaped, as the tree's
                // strings are: no title may move the cursor or forge a line.
                func quoted(_ string: String) -> String { PropertyListValue.string(string).description }
                text += "activityType: \(quoted(record.activityType))\n"
                text += "teamID: \(quoted(record.teamID))\n"
                if let title = record.title { text += "title: \(quoted(title))\n" }
                if let id = record.persistentID { text += "persistentID: \(quoted(id))\n" }
                if let id = record.targetContentID { text += "targetContentID: \(quoted(id))\n" }
                if let url = record.webpageURL { text += "webpageURL: \(quoted(url))\n" }
                if let streams = record.streamsEndpoint { text += "streams endpoint: \(streams.count) bytes\n" }
                if let bytes = record.userInfo {
                    let (userInfo, form) = try UserInfoWireForm.decode(bytes, limits: .default)
                    text += "userInfo (\(form == .mp ? "MP" : "keyed archive"), \(bytes.count) bytes): \(UserInfoValue.dictionary(userInfo).description)"
                } else {
                    text += "userInfo: absent"
                }
            }
            return text
        default: return nil
        }
    }

    /// An error packet's NSError (Specs/keyed-archive.md, "Archived
    /// errors"): its domain, code and user info, every string quoted and
    /// escaped; the archive's graph when the user info holds other classes or
    /// the archive is no NSError; its size and the reason when it does not read.
    static func errorDescription(_ archive: Data) -> String {
        func quoted(_ string: String) -> String { PropertyListValue.string(string).description }
        func graphText(_ graph: KeyedArchiveGraph) -> String {
            (try? graph.rendered(maxExpandedBytes: PropertyListLimits.default.expansionBudget(inputBytes: archive.count)))?.description
                ?? "(the graph is past the output budget)"
        }
        do {
            let error = try ArchivedError(reading: archive)
            var text = "error: NSError (a keyed archive of \(archive.count) bytes)\n"
            text += "  domain: \(quoted(error.domain))\n"
            text += "  code: \(error.code)\n"
            if let userInfo = error.userInfo {
                text += "  userInfo: " + UserInfoValue.dictionary(userInfo).description
            } else if error.userInfoHasOtherClasses {
                text += "  userInfo: objects of other classes; the archive's graph:\n" + graphText(error.graph)
            } else {
                text += "  userInfo: absent"
            }
            return text
        } catch {
            var text = "error: a keyed archive of \(archive.count) bytes, not an NSError (\(error.code.name): \(quoted(error.reason)))"
            if error.code == .notAnError, let graph = try? KeyedArchiveGraph(reading: archive) { text += "\n" + graphText(graph) }
            return text
        }
    }

    private static func userInfo(mp bytes: [UInt8]) throws -> UserInfoDictionary {
        try UserInfoWireForm.decode(Data(bytes), limits: .default).userInfo
    }

    /// The activity of a container record, its userInfo decoded, no payload rule applied.
    private static func payload(_ record: ActivityRecord) throws -> ActivityPayload {
        let userInfo = try record.userInfo.map { try UserInfoWireForm.decode($0, limits: .default).userInfo } ?? [:]
        return ActivityPayload(activityType: record.activityType, title: record.title,
                               webpageURL: record.webpageURL.map { UserInfoURL(relative: $0) }, userInfo: userInfo,
                               teamID: record.teamID, persistentID: record.persistentID, targetContentID: record.targetContentID,
                               streamsEndpoint: record.streamsEndpoint)
    }
}
