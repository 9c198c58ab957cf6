public import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// Reads an activity container strictly (Specs/activity-container.md):
/// the header, the field words and their tag bits, every length inside the
/// buffer, the field count, nothing after the last field, the JSON field as
/// one strict object of known keys with string values, UTF-8 title and URL,
/// an http or https web page URL; a compressed container is inflated into a
/// buffer capped at ``maxBytes`` as it streams, so a bzip2 bomb costs at
/// most that much.
///
/// The userInfo field is returned as bytes: the payload layer decodes it
/// (MP or keyed archive) with its own limits.
///
/// ```swift
/// let container = try ActivityContainerReader().read(bytes)
/// ```
public struct ActivityContainerReader: BytesReader, Sendable {
    /// The largest packet accepted, compressed or inflated. Default 1 MiB.
    /// Errors: ``ErrorCode/inputTooLarge``, ``ErrorCode/inflatedTooLarge``.
    public var maxBytes: Int

    /// Creates a reader.
    public init(maxBytes: Int = 1 << 20) { self.maxBytes = maxBytes }

    /// True when the first four bytes are a container header this reader knows
    /// (`01 00 00 00`, `01 01 00 00`, `0F 00 00 00`).
    public static func hasHeader(_ bytes: some Collection<UInt8>) -> Bool {
        // Little-endian, read without copying (format detection calls this on every document).
        var header: UInt32 = 0, shift: UInt32 = 0
        for byte in bytes.prefix(4) {
            header |= UInt32(byte) << shift
            shift += 8
        }
        guard shift == 32 else { return false }
        return header == ActivityContainerLayout.activityHeader || header == ActivityContainerLayout.compressedActivityHeader
            || header == ActivityContainerLayout.errorHeader
    }

    /// Reads a container from a span of its bytes (read in place; `Data`
    /// and arrays: ``BytesReader``).
    ///
    /// - Throws: ``ActivityContainerError``, with the codes of Specs/activity-container.md.
    public func read(_ bytes: RawSpan) throws(ActivityContainerError) -> ActivityContainer {
        try inspect(bytes).container
    }

    /// Reads a container and reports where each part lay.
    ///
    /// - Throws: ``ActivityContainerError``.
    public func inspect(_ data: Data) throws(ActivityContainerError) -> (container: ActivityContainer, details: ActivityContainerDetails) {
        try inspect(data.bytes)
    }

    /// Reads a container from a span of its bytes (read in place) and reports
    /// where each part lay.
    ///
    /// - Throws: ``ActivityContainerError``.
    public func inspect(_ bytes: RawSpan) throws(ActivityContainerError) -> (container: ActivityContainer, details: ActivityContainerDetails) {
        // invalidLimits: a negative cap means nothing.
        guard maxBytes >= 0 else { throw ActivityContainerError(.invalidLimits, "maxBytes is \(maxBytes); limits are not negative") }
        // inputTooLarge
        guard bytes.byteCount <= maxBytes else {
            throw ActivityContainerError(.inputTooLarge, "the packet is \(bytes.byteCount) bytes, over maxBytes \(maxBytes)")
        }
        // truncated: at least the 4-byte header.
        guard bytes.byteCount >= 4 else {
            throw ActivityContainerError(.truncated, "a container has a 4-byte header; the input is \(bytes.byteCount) bytes", at: .byteOffset(0))
        }
        var headerReader = ByteReader(bytes)
        let header = headerReader.readInteger(endianness: .little, as: UInt32.self)!
        let layout = ActivityContainerLayout.self
        // badContainerHeader: 0x1, 0x101 or 0xF.
        guard header == layout.activityHeader || header == layout.compressedActivityHeader || header == layout.errorHeader else {
            throw ActivityContainerError(.badContainerHeader, "header 0x\(String(header, radix: 16, uppercase: true)) is not 0x1, 0x101 or 0xF", at: .byteOffset(0))
        }
        guard header & layout.compressedBit != 0 else {
            return try Self.fields(of: bytes, header: header, compressedBytes: nil)
        }
        switch Bzip2.inflate(bytes.extracting(4...), cap: maxBytes - 4) {
        case .success(let fields):
            // The fields are read after the header, as in an uncompressed packet.
            let packet = bytes.extracting(0..<4).array + fields
            return try Self.fields(of: packet.span.bytes, header: header, compressedBytes: bytes.byteCount - 4)
        case .failure(.tooLarge):
            // inflatedTooLarge: the cap is checked while inflating.
            throw ActivityContainerError(.inflatedTooLarge, "the compressed fields inflate past \(maxBytes - 4) bytes (maxBytes \(maxBytes))", at: .byteOffset(4))
        case .failure(.corrupt(_, let reason)):
            // badCompression: exactly one whole bzip2 stream.
            throw ActivityContainerError(.badCompression, reason, at: .byteOffset(4))
        }
    }

    /// The fields of `packet` (the header, then the fields, inflated if they
    /// were compressed), checked and read.
    private static func fields(of packet: RawSpan, header: UInt32, compressedBytes: Int?) throws(ActivityContainerError)
        -> (container: ActivityContainer, details: ActivityContainerDetails) {
        let layout = ActivityContainerLayout.self
        let isError = header == layout.errorHeader
        let names = isError ? ["error"] : layout.activityFieldNames
        var fields: [ActivityContainerDetails.Field] = []
        var values: [Data?] = []
        var reader = ByteReader(packet, offset: 4)
        for (position, name) in names.enumerated() {
            let offset = reader.offset
            let path = PropertyListKeyPath([.key(name)])
            // badFieldCount: the packet ends where a field should start.
            guard !reader.isAtEnd else {
                throw ActivityContainerError(.badFieldCount, "the packet ends after \(position) of its \(names.count) fields", at: .byteOffset(offset), keyPath: path)
            }
            // truncated: a field word is 4 bytes.
            guard let word = reader.readInteger(endianness: .little, as: UInt32.self) else {
                throw ActivityContainerError(.truncated, "the packet ends inside field \(position + 1)'s word", at: .byteOffset(offset), keyPath: path)
            }
            let length = Int(word & 0xFF_FFFF)
            if word == 0 {
                fields.append(.init(number: position + 1, name: name, range: nil))
                values.append(nil)
                continue
            }
            // badFieldTag: 0x01 in the top byte and a length, or a zero word.
            guard word & 0xFF00_0000 == layout.presentTag, length > 0 else {
                throw ActivityContainerError(.badFieldTag, "field word 0x\(Self.hex8(word)) is neither 0x01 with a length nor 0 (absent)",
                                             at: .byteOffset(offset), keyPath: path)
            }
            // truncated: the field's bytes lie inside the packet.
            guard let field = reader.readBytes(length) else {
                throw ActivityContainerError(.truncated, "field \(position + 1) declares \(length) bytes, but \(reader.remaining) follow",
                                             at: .byteOffset(offset), keyPath: path)
            }
            fields.append(.init(number: position + 1, name: name, range: (offset + 4)..<reader.offset))
            values.append(field.data)
        }
        // trailingBytes: nothing after the last field.
        guard reader.isAtEnd else {
            throw ActivityContainerError(.trailingBytes, "\(reader.remaining) bytes follow the last field", at: .byteOffset(reader.offset))
        }
        let details = ActivityContainerDetails(header: header, compressedBytes: compressedBytes, inflatedBytes: packet.byteCount, fields: fields)
        if isError {
            // badFieldCount: an error packet's one field is present.
            guard let archive = values[0] else {
                throw ActivityContainerError(.badFieldCount, "an error packet's field is absent", at: .byteOffset(4), keyPath: PropertyListKeyPath([.key("error")]))
            }
            return (.errorPacket(archive), details)
        }
        return (.activity(try Self.record(values, fields)), details)
    }

    /// The record of an activity's five fields.
    private static func record(_ values: [Data?], _ fields: [ActivityContainerDetails.Field]) throws(ActivityContainerError) -> ActivityRecord {
        func text(_ index: Int) throws(ActivityContainerError) -> String? {
            guard let bytes = values[index] else { return nil }
            // invalidUTF8: the title and the web page URL are UTF-8.
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw ActivityContainerError(.invalidUTF8, "field \(index + 1) is not UTF-8",
                                             at: .byteOffset(fields[index].range!.lowerBound), keyPath: PropertyListKeyPath([.key(fields[index].name)]))
            }
            return string
        }
        let title = try text(0)
        let webpageURL = try text(3)
        if let webpageURL {
            // invalidWebpageURL: http or https, absolute, with a host.
            guard ActivityRecord.isValidWebpageURL(webpageURL) else {
                throw ActivityContainerError(.invalidWebpageURL, "webpageURL \"\(webpageURL)\" is not an http or https URL",
                                             at: .byteOffset(fields[3].range!.lowerBound), keyPath: PropertyListKeyPath([.key("webpageURL")]))
            }
        }
        let info = try Self.info(values[2], at: fields[2].range?.lowerBound ?? 4)
        return ActivityRecord(activityType: info.type, teamID: info.teamID, title: title, userInfo: values[1],
                              persistentID: info.persistentID, targetContentID: info.targetContentID,
                              webpageURL: webpageURL, streamsEndpoint: values[4])
    }

    /// The JSON field: one object, string values, known keys only, each once;
    /// `teamID` and `type` present; `persistentID` and `targetContentID` not empty when present.
    private static func info(_ bytes: Data?, at start: Int) throws(ActivityContainerError)
        -> (teamID: String, type: String, persistentID: String?, targetContentID: String?) {
        let path = PropertyListKeyPath([.key("info")])
        func invalid(_ reason: String) -> ActivityContainerError {
            ActivityContainerError(.invalidActivityJSON, reason, at: .byteOffset(start), keyPath: path)
        }
        // invalidActivityJSON
        guard let bytes else { throw invalid("the JSON field (activity type and team) is absent") }
        let node: StrictJSON.Node
        do {
            node = try StrictJSON.parse(bytes, maxDepth: 1, maxStringBytes: bytes.count)
        } catch {
            throw invalid("the JSON field is not strict JSON (\(error.code): \(error.reason), line \(error.position.line), column \(error.position.column))")
        }
        guard case .object(let members, _) = node else { throw invalid("the JSON field is \(node.kind), not an object") }
        // The four keys of `ActivityContainerLayout.infoKeys` (StrictJSON refuses a key given twice).
        var (teamID, type, persistentID, targetContentID): (String?, String?, String?, String?)
        for (key, value) in members {
            guard ActivityContainerLayout.infoKeys.contains(key) else { throw invalid("the JSON field has an unknown key \"\(key)\"") }
            guard case .string(let string, _) = value else { throw invalid("\"\(key)\" is \(value.kind), not a string") }
            switch key {
            case "teamID": teamID = string
            case "type": type = string
            case "persistentID": persistentID = string
            default: targetContentID = string
            }
        }
        guard let teamID else { throw invalid("the JSON field has no \"teamID\"") }
        guard let type else { throw invalid("the JSON field has no \"type\"") }
        if persistentID == "" { throw invalid("\"persistentID\" is empty; an unset identifier is left out") }
        if targetContentID == "" { throw invalid("\"targetContentID\" is empty; an unset identifier is left out") }
        return (teamID, type, persistentID, targetContentID)
    }

    /// A word as eight hexadecimal digits.
    static func hex8(_ word: UInt32) -> String {
        let digits = String(word, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
