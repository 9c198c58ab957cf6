import ActivityContainer
import DocumentFormats
import FoundationEssentials
@_spi(ByteKit) import PropertyList
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
        try read(bytes)?.value
    }

    /// ``value(_:)`` and the bytes the value was read from: a compressed
    /// container's inflated size, which sets the budget of what reads the
    /// value afterwards (Specs/architecture.md, "One bounded walk").
    ///
    /// - Throws: the container's or the userInfo's error.
    public static func read(_ bytes: [UInt8]) throws -> (value: UserInfoValue, inputBytes: Int)? {
        switch DocumentFormat.detect(bytes) {
        case .mpUserInfo:
            return (.dictionary(try userInfo(mp: bytes)), bytes.count)
        case .activityContainer:
            let (container, details) = try Document.inspectActivityContainer(Data(bytes), maxBytes: maxContainerBytes)
            let inputBytes = max(bytes.count, details.inflatedBytes)
            switch container {
            case .activity(let record): return (try payload(record).envelope, inputBytes)
            case .errorPacket(let archive): return (.dictionary(["errorPacket": .data(archive)]), inputBytes)
            }
        default: return nil
        }
    }

    /// The readable text of a wire-form document, or nil when the bytes are no
    /// wire form (a text starting "MP" that MP refuses and that reads as a
    /// property list is that text: nil): every value rendered through the one bounded walk into the
    /// counted output, within the budget the document's bytes set
    /// (Specs/architecture.md, "One bounded walk", "One counted output").
    ///
    /// - Throws: the container's or the userInfo's error;
    ///   ``ErrorCode/outputLimitExceeded`` past the output budget.
    public static func description(_ bytes: [UInt8]) throws -> String? {
        let budget = PropertyListLimits.default.expansionBudget(inputBytes: bytes.count)
        var output = CountedOutput(expansionBudget: budget)
        var meter = ExpansionMeter(limit: budget)
        switch DocumentFormat.detect(bytes) {
        case .mpUserInfo:
            let userInfo: UserInfoDictionary
            do { userInfo = try Self.userInfo(mp: bytes) } catch {
                // A text that starts with "MP" (a `.strings` file's `MP = "…";`) and reads
                // as a property list is that text, as the format layer reads it (nil: the
                // caller prints it as a property list); anything else is the MP reader's refusal.
                if (try? Document.read(document: bytes)) != nil { return nil }
                throw error
            }
            try ReadableText.append(UserInfoValue.dictionary(userInfo), .tree, meter: &meter, to: &output)
            return output.text
        case .activityContainer:
            let (container, details) = try Document.inspectActivityContainer(Data(bytes), maxBytes: maxContainerBytes)
            // A compressed container's budget is that of the bytes it inflates to.
            let inflated = PropertyListLimits.default.expansionBudget(inputBytes: max(bytes.count, details.inflatedBytes))
            output = CountedOutput(expansionBudget: inflated)
            meter = ExpansionMeter(limit: inflated)
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
            try output.append(text)
            switch container {
            case .errorPacket(let archive):
                try Document.appendErrorPacket(archive, to: &output)
            case .activity(let record):
                // Every string the sender chose is quoted and escaped, as the tree's
                // strings are: no title may move the cursor or forge a line.
                func line(_ label: String, _ string: String) throws(PropertyListError) {
                    try output.append { text in
                        text += label + ": "
                        JSONText.appendReadableQuoted(string, to: &text)
                        text += "\n"
                    }
                }
                try line("activityType", record.activityType)
                try line("teamID", record.teamID)
                if let title = record.title { try line("title", title) }
                if let id = record.persistentID { try line("persistentID", id) }
                if let id = record.targetContentID { try line("targetContentID", id) }
                if let url = record.webpageURL { try line("webpageURL", url) }
                if let streams = record.streamsEndpoint { try output.append("streams endpoint: \(streams.count) bytes\n") }
                if let bytes = record.userInfo {
                    let (userInfo, form) = try UserInfoWireForm.decode(bytes, limits: .default)
                    try output.append("userInfo (\(form == .mp ? "MP" : "keyed archive"), \(bytes.count) bytes): ")
                    try ReadableText.append(UserInfoValue.dictionary(userInfo), .tree, meter: &meter, to: &output)
                } else {
                    try output.append("userInfo: absent")
                }
            }
            return output.text
        default: return nil
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
