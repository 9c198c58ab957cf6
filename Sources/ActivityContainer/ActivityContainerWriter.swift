public import FoundationEssentials
import PropertyList

/// Writes an activity container as Apple's sender does
/// (Specs/activity-container.md, "Writer"): the header, the five fields
/// framed by 24-bit lengths (absent ones as a zero word), the JSON field
/// compact with its keys in a fixed order, and the fields bzip2-compressed
/// (block size 1, work factor 200) when the packet is at least 2,049 bytes
/// and compression makes it smaller.
///
/// ```swift
/// let bytes = try ActivityContainerWriter().write(.activity(record))
/// ```
public struct ActivityContainerWriter: Sendable {
    /// Whether the writer compresses.
    public enum Compression: Sendable, Hashable {
        /// As Apple's sender: packets of 2,049 bytes or more, kept only if smaller.
        case apple
        /// Never (for tests and tools that want to see the fields).
        case never
    }

    /// Whether the writer compresses (``Compression/apple`` by default).
    public var compression: Compression

    /// Creates a writer.
    public init(compression: Compression = .apple) { self.compression = compression }

    /// The bytes of a container.
    ///
    /// - Throws: ``ActivityContainerError`` with ``ErrorCode/fieldTooLarge``,
    ///   ``ErrorCode/emptyField``, ``ErrorCode/invalidWebpageURL`` or
    ///   ``ErrorCode/invalidActivityJSON`` (an empty `persistentID` or `targetContentID`).
    public func write(_ container: ActivityContainer) throws(ActivityContainerError) -> Data {
        let layout = ActivityContainerLayout.self
        var fields: [UInt8] = []
        var header: UInt32
        switch container {
        case .errorPacket(let archive):
            header = layout.errorHeader
            // emptyField: an error packet's one field is present.
            guard !archive.isEmpty else {
                throw ActivityContainerError(.emptyField, "an error packet's archive is empty", keyPath: PropertyListKeyPath([.key("error")]))
            }
            try Self.append(Array(archive), name: "error", to: &fields)
        case .activity(let record):
            header = layout.activityHeader
            if let url = record.webpageURL {
                // invalidWebpageURL: the reader refuses other URLs, so the writer does too.
                guard ActivityRecord.isValidWebpageURL(url) else {
                    throw ActivityContainerError(.invalidWebpageURL, "webpageURL \"\(url)\" is not an http or https URL",
                                                 keyPath: PropertyListKeyPath([.key("webpageURL")]))
                }
            }
            for key in ["persistentID", "targetContentID"] {
                let value = key == "persistentID" ? record.persistentID : record.targetContentID
                // invalidActivityJSON: an unset identifier is left out, never written empty.
                if value == "" {
                    throw ActivityContainerError(.invalidActivityJSON, "\(key) is empty; leave it nil", keyPath: PropertyListKeyPath([.key("info")]))
                }
            }
            try Self.append(record.title.map { Array($0.utf8) }, name: "title", to: &fields)
            try Self.append(record.userInfo.map { Array($0) }, name: "userInfo", to: &fields)
            try Self.append(Self.info(record), name: "info", to: &fields)
            try Self.append(record.webpageURL.map { Array($0.utf8) }, name: "webpageURL", to: &fields)
            try Self.append(record.streamsEndpoint.map { Array($0) }, name: "streams", to: &fields)
            // Compression, as Apple's sender: the whole packet ≥ 2,049 bytes, kept only if smaller.
            if compression == .apple, 4 + fields.count >= layout.compressionThreshold, let compressed = Bzip2.deflate(fields) {
                fields = compressed
                header = layout.compressedActivityHeader
            }
        }
        var packet: [UInt8] = []
        packet.reserveCapacity(4 + fields.count)
        Self.appendWord(header, to: &packet)
        packet += fields
        return Data(packet)
    }

    /// The JSON field: compact, keys in `ActivityContainerLayout.infoKeys` order, unset identifiers left out.
    static func info(_ record: ActivityRecord) -> [UInt8] {
        var json: [UInt8] = [UInt8(ascii: "{")]
        let pairs: [(String, String?)] = [("teamID", record.teamID), ("type", record.activityType),
                                          ("persistentID", record.persistentID), ("targetContentID", record.targetContentID)]
        for (key, value) in pairs {
            guard let value else { continue }
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            appendQuoted(key, to: &json)
            json.append(UInt8(ascii: ":"))
            appendQuoted(value, to: &json)
        }
        json.append(UInt8(ascii: "}"))
        return json
    }

    /// A JSON string: its bytes between quotes when nothing in it needs an
    /// escape (no C0 control, quote or backslash), else `JSONText`'s quoting.
    private static func appendQuoted(_ string: String, to json: inout [UInt8]) {
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            json.append(UInt8(ascii: "\""))
            json.append(contentsOf: string.utf8)
            json.append(UInt8(ascii: "\""))
        } else {
            var text = ""
            JSONText.appendQuoted(string, to: &text)
            json.append(contentsOf: text.utf8)
        }
    }

    private static func append(_ field: [UInt8]?, name: String, to out: inout [UInt8]) throws(ActivityContainerError) {
        guard let field else {
            appendWord(0, to: &out)
            return
        }
        let path = PropertyListKeyPath([.key(name)])
        // emptyField: length 0 means absent, so a present field has bytes.
        guard !field.isEmpty else {
            throw ActivityContainerError(.emptyField, "field \(name) is present but empty; the container writes absent fields as length 0, so leave it nil", keyPath: path)
        }
        // fieldTooLarge: the length is 24 bits.
        guard field.count <= ActivityContainerLayout.maxFieldBytes else {
            throw ActivityContainerError(.fieldTooLarge, "field \(name) is \(field.count) bytes, over the 24-bit length's \(ActivityContainerLayout.maxFieldBytes)", keyPath: path)
        }
        appendWord(UInt32(field.count) | ActivityContainerLayout.presentTag, to: &out)
        out += field
    }

    private static func appendWord(_ word: UInt32, to out: inout [UInt8]) {
        out += [UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
                UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24)]
    }
}
