import DocumentFormats
import FoundationEssentials
import KeyedArchive
import PropertyList
import PropertyListXML
import Testing
import TypedJSON
import UserInfo

/// `invalidDate` (Specs/value-model.md): a date is finite and within ±10¹⁵ seconds
/// of 2001, in every reader and writer, so that every format carries every date.
/// Found by fuzzing: a keyed archive with NS.time = 1e300 decoded, and the
/// typed-JSON writer then trapped (`Corpus/regressions/keyed-decode-date-beyond-typed-json`).
@Suite("invalidDate: the date range every format shares")
struct DateRangeTests {
    static let outsideSeconds: [Double] = [1e15 + 1, -1e15 - 1, 1e300, -.greatestFiniteMagnitude, .infinity, .nan]
    static let edgeSeconds: [Double] = [1e15, -1e15, 0, -0.5]

    @Test("binary plist reader and writer", arguments: outsideSeconds)
    func binary(seconds: Double) throws {
        let date = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
        #expect(throws: PropertyListError(.invalidDate, "")) { try BinaryPropertyListWriter().write(date) }
        // The same file with a valid date, then its 8 date bytes replaced.
        var bytes = try BinaryPropertyListWriter().writeBytes(.date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(bytes[8] == 0x33)
        withUnsafeBytes(of: seconds.bitPattern.bigEndian) { bytes.replaceSubrange(9..<17, with: $0) }
        #expect(throws: PropertyListError(.invalidDate, "")) { try BinaryPropertyListReader().read(bytes) }
    }

    @Test("keyed archives, XML and typed JSON", arguments: outsideSeconds)
    func others(seconds: Double) throws {
        let date = UserInfoValue.date(Date(timeIntervalSinceReferenceDate: seconds))
        #expect(throws: UserInfoError(.invalidDate, "")) { try KeyedArchiveWriter().write(["d": date]) }
        #expect(throws: PropertyListError(.invalidDate, "")) {
            try XMLPropertyListWriter().write(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        }
        // An archive whose NS.time was patched after writing.
        let archive = try KeyedArchiveWriter().archive(.date(Date(timeIntervalSinceReferenceDate: 7)))
        var top = try #require(archive.dictionaryValue)
        let objects = try #require(top["$objects"]?.arrayValue).map { object -> PropertyListValue in
            guard var fields = object.dictionaryValue, fields["NS.time"] != nil else { return object }
            fields["NS.time"] = .real(seconds)
            return .dictionary(fields)
        }
        top["$objects"] = .array(objects)
        #expect(throws: UserInfoError(.invalidDate, "")) { try KeyedArchiveReader().unarchive(.dictionary(top)) }
        // The typed-JSON writer spells it so that its reader refuses it.
        let json = try TypedJSONWriter().write(date)
        #expect(throws: UserInfoError(.invalidDate, "")) { try TypedJSONReader().readUserInfo(json) }
    }

    @Test("typed JSON refuses a nine-digit year beyond the range")
    func typedJSONYear() {
        #expect(throws: UserInfoError(.invalidDate, "")) {
            try TypedJSONReader().readUserInfo(Data(#"{"type":"date","value":"+999999999-01-01T00:00:00Z"}"#.utf8))
        }
    }

    @Test("the edges of the range travel through every format", arguments: edgeSeconds)
    func edges(seconds: Double) throws {
        let value: UserInfoValue = ["d": .date(Date(timeIntervalSinceReferenceDate: seconds))]
        for format in [DocumentFormat.binary, .xml] {
            #expect(try UserInfoCodec().decode(UserInfoCodec().encode(value, format: format)) == value)
        }
        #expect(try TypedJSONReader().readUserInfo(try TypedJSONWriter().write(value)) == value)
    }
}
