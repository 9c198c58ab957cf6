import Foundation
import PropertyList
import Testing
import TypedJSON
import UserInfo

/// Specs/typed-json.md: the written form, and one row per refusal.
@Suite("Typed JSON")
struct TypedJSONTests {
    private func text(_ value: UserInfoValue) -> String { TypedJSONWriter.text(value) }

    private func readError(_ json: String) -> UserInfoError? {
        do {
            _ = try TypedJSONReader().readUserInfo(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("every type's written form, as the spec shows it")
    func writtenForms() throws {
        #expect(text("a\"b") == #"{"type":"string","value":"a\"b"}"#)
        #expect(text(-5) == #"{"type":"integer","value":"-5"}"#)
        #expect(text(.number(.integer(PropertyListInteger(UInt64.max)))) == #"{"type":"integer","value":"18446744073709551615"}"#)
        #expect(text(1.5) == #"{"type":"real","value":"1.5"}"#)
        #expect(text(.number(.real(-0.0))) == #"{"type":"real","value":"-0.0"}"#)
        #expect(text(.number(.real(.nan))) == #"{"type":"real","value":"nan"}"#)
        #expect(text(.number(.real(-.infinity))) == #"{"type":"real","value":"-inf"}"#)
        #expect(text(true) == #"{"type":"bool","value":true}"#)
        #expect(text(.date(Date(timeIntervalSinceReferenceDate: 0))) == #"{"type":"date","value":"2001-01-01T00:00:00Z"}"#)
        #expect(text(.date(Date(timeIntervalSinceReferenceDate: 0.25))) == #"{"type":"date","value":"2001-01-01T00:00:00.25Z"}"#)
        #expect(text(.date(Date(timeIntervalSinceReferenceDate: -0.25))) == #"{"type":"date","value":"2000-12-31T23:59:59.75Z"}"#)
        #expect(text(.date(Date(timeIntervalSinceReferenceDate: 1e12))) == #"{"type":"date","value":"+33689-09-27T01:46:40Z"}"#)
        #expect(text(.data(Data([0xDE, 0xAD]))) == #"{"type":"data","value":"3q0="}"#)
        #expect(text([1, nil]) == #"{"type":"array","value":[{"type":"integer","value":"1"},{"type":"null"}]}"#)
        #expect(text(["b": 1, "a": 2]) == #"{"type":"dict","value":{"a":{"type":"integer","value":"2"},"b":{"type":"integer","value":"1"}}}"#)
        #expect(text(.set(["b", "a"])) == #"{"type":"set","value":[{"type":"string","value":"a"},{"type":"string","value":"b"}]}"#)
        #expect(text(.uuid(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!)) == #"{"type":"uuid","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#)
        #expect(text(.url(UserInfoURL(relative: "a", base: UserInfoURL(relative: "https://x.org/")))) ==
                #"{"type":"url","relative":"a","base":{"type":"url","relative":"https://x.org/","base":null}}"#)
        #expect(String(decoding: try TypedJSONWriter().write(PropertyListValue.uid(7)), as: UTF8.self) == #"{"type":"uid","value":"7"}"#)
    }

    @Test("reading accepts what the spec allows: lower-case UUIDs, whitespace, a BOM, escapes")
    func accepted() throws {
        let json = "\u{FEFF} { \"value\" : [ {\"type\":\"uuid\",\"value\":\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"},\n {\"type\":\"string\",\"value\":\"\\u00e9\\ud83d\\ude00\\/\"} ], \"type\" : \"array\" } "
        #expect(try TypedJSONReader().readUserInfo(Data(json.utf8)) == [.uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "é😀/"])
        #expect(try TypedJSONReader().readUserInfo(Data(#"{"type":"date","value":"-0001-01-01T00:00:00Z"}"#.utf8)).dateValue != nil)
    }

    /// (rule, input) — every input is refused with that code.
    static let refusals: [(UserInfoError.Code, String)] = [
        (.invalidJSON, #"{"type":"null",}"#),
        (.invalidJSON, #"{"type":"null"} x"#),
        (.invalidJSON, #"{'type':'null'}"#),
        (.invalidJSON, #"{"type":"null"} // comment"#),
        (.invalidJSON, "{\"type\":\"string\",\"value\":\"a\u{1}\"}"),
        (.invalidJSON, #"{"type":"string","value":"\ud800"}"#),
        (.invalidJSON, #"{"type":"string","value":"\x41"}"#),
        (.invalidJSON, #"[1, 2"#),
        (.invalidJSON, #"{"type":"integer","value":01}"#),
        (.invalidJSON, ""),
        (.duplicateKey, #"{"type":"null","type":"null"}"#),
        (.duplicateKey, #"{"type":"dict","value":{"a":{"type":"null"},"a":{"type":"null"}}}"#),
        (.duplicateKey, "{\"type\":\"dict\",\"value\":{\"\u{E9}\":{\"type\":\"null\"},\"e\u{301}\":{\"type\":\"null\"}}}"),
        (.unknownType, #"{"type":"decimal","value":"1"}"#),
        (.notUserInfoType, #"{"type":"uid","value":"1"}"#),
        (.missingField, #"{"value":"x"}"#),
        (.missingField, #"{"type":"string"}"#),
        (.missingField, #"{"type":"url","relative":"a"}"#),
        (.unexpectedField, #"{"type":"null","value":null}"#),
        (.unexpectedField, #"{"type":"string","value":"x","extra":1}"#),
        (.wrongFieldType, #"{"type":"integer","value":5}"#),
        (.wrongFieldType, #"{"type":"bool","value":"true"}"#),
        (.wrongFieldType, #"{"type":"array","value":{}}"#),
        (.wrongFieldType, #"{"type":"url","relative":"a","base":{"type":"string","value":"x"}}"#),
        (.wrongFieldType, #"[]"#),
        (.wrongFieldType, #"{"type":5}"#),
        (.invalidNumber, #"{"type":"integer","value":"+5"}"#),
        (.invalidNumber, #"{"type":"integer","value":"05"}"#),
        (.invalidNumber, #"{"type":"integer","value":"-0"}"#),
        (.invalidNumber, #"{"type":"integer","value":"18446744073709551616"}"#),
        (.invalidNumber, #"{"type":"integer","value":"1e3"}"#),
        (.invalidNumber, #"{"type":"real","value":"1e999"}"#),
        (.invalidNumber, #"{"type":"real","value":"NaN"}"#),
        (.invalidNumber, #"{"type":"real","value":".5"}"#),
        (.invalidDate, #"{"type":"date","value":"2001-01-01 00:00:00Z"}"#),
        (.invalidDate, #"{"type":"date","value":"2001002001001-01-01T00:00:00Z"}"#),
        (.invalidDate, #"{"type":"date","value":"-9999999999999999-01-01T00:00:00Z"}"#),
        (.invalidDate, #"{"type":"date","value":"2001-02-30T00:00:00Z"}"#),
        (.invalidDate, #"{"type":"date","value":"2001-01-01T00:00:00+01:00"}"#),
        (.invalidDate, #"{"type":"date","value":"2001-01-01T00:00:00.50Z"}"#),
        (.invalidDate, #"{"type":"date","value":"12001-01-01T00:00:00Z"}"#),
        (.invalidBase64, #"{"type":"data","value":"3q0"}"#),
        (.invalidBase64, #"{"type":"data","value":"3q 0="}"#),
        (.invalidBase64, #"{"type":"data","value":"3q1="}"#),
        (.invalidUUID, #"{"type":"uuid","value":"E621E1F8C36C495A93FC0C247A3E6E5F"}"#),
        (.invalidUUID, #"{"type":"uuid","value":"{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}"}"#),
        (.invalidURL, #"{"type":"url","relative":"a b","base":null}"#),
        (.duplicateSetMember, #"{"type":"set","value":[{"type":"null"},{"type":"null"}]}"#),
        (.ambiguousSetMembers, #"{"type":"set","value":[{"type":"integer","value":"1"},{"type":"bool","value":true}]}"#),
    ]

    @Test("each malformed input is refused with its code", arguments: refusals.indices)
    func refused(_ index: Int) {
        let (code, json) = Self.refusals[index]
        #expect(readError(json)?.code == code, "\(json)")
    }

    @Test("errors carry line, column and key path")
    func location() {
        let error = readError("{\"type\":\"dict\",\"value\":{\n  \"cart\": {\"type\":\"array\",\"value\":[\n    {\"type\":\"integer\",\"value\":\"x\"}]}}}")
        #expect(error?.code == .invalidNumber)
        #expect(error?.location == .lineColumn(line: 3, column: 31))
        #expect(error?.keyPath.description == "cart[0]")
    }

    @Test("limits: depth, collection size, input size")
    func limits() {
        var deep = #"{"type":"null"}"#
        for _ in 0..<600 { deep = #"{"type":"array","value":["# + deep + "]}" }
        #expect(readError(deep)?.code == .depthLimitExceeded)
        var limits = PropertyListLimits()
        limits.maxInputBytes = 10
        #expect(throws: UserInfoError(.inputTooLarge, "")) { try TypedJSONReader(limits: limits).readUserInfo(Data(#"{"type":"null"}"#.utf8)) }
        limits = PropertyListLimits()
        limits.maxCollectionCount = 1
        #expect(throws: UserInfoError(.collectionLimitExceeded, "")) {
            try TypedJSONReader(limits: limits).readUserInfo(Data(#"{"type":"array","value":[{"type":"null"},{"type":"null"}]}"#.utf8))
        }
    }

    @Test("property-list mode: uid accepted, userInfo-only types refused")
    func propertyListMode() throws {
        #expect(try TypedJSONReader().readPropertyList(Data(#"{"type":"uid","value":"4294967295"}"#.utf8)) == .uid(UInt32.max))
        #expect(throws: UserInfoError(.invalidNumber, "")) { try TypedJSONReader().readPropertyList(Data(#"{"type":"uid","value":"4294967296"}"#.utf8)) }
        #expect(throws: UserInfoError(.notPlistNative, "")) { try TypedJSONReader().readPropertyList(Data(#"{"type":"set","value":[]}"#.utf8)) }
    }
}
