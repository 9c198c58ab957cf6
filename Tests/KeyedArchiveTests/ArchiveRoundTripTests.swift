import Foundation
import KeyedArchive
import PropertyBased
import PropertyList
import TestSupport
import Testing
import TypedJSON
import UserInfo

@Suite("Keyed archive and typed JSON round trips (property-based)")
struct ArchiveRoundTripTests {
    @Test("value → archive → value is exact (binary)")
    func archiveRoundTrip() async {
        await propertyCheck(count: 300, input: UserInfoGenerator().generator) { value in
            let data = try KeyedArchiveWriter().write(value)
            #expect(try KeyedArchiveReader().read(data) == value)
        }
    }

    @Test("archiving is deterministic: decode then re-encode gives the same bytes")
    func archiveDeterministic() async {
        await propertyCheck(count: 150, input: UserInfoGenerator().generator) { value in
            let data = try KeyedArchiveWriter().write(value)
            #expect(try KeyedArchiveWriter().write(KeyedArchiveReader().read(data)) == data)
        }
    }

    @Test("value → typed JSON → value is exact (NaN payloads aside), compact and pretty")
    func typedJSONRoundTrip() async {
        await propertyCheck(count: 300, input: UserInfoGenerator().generator) { value in
            for pretty in [false, true] {
                let text = try TypedJSONWriter(pretty: pretty).write(value)
                let back = try TypedJSONReader().readUserInfo(text)
                #expect(peerEqualExceptNaNPayload(back, value), "\(String(decoding: text, as: UTF8.self))")
            }
        }
    }

    @Test("property list → typed JSON → property list is exact")
    func plistTypedJSONRoundTrip() async {
        await propertyCheck(count: 300, input: ValueGenerator().generator) { value in
            let back = try TypedJSONReader().readPropertyList(try TypedJSONWriter().write(value))
            #expect(back == value || (back.containsNaN && peerEqual(back, value)))
        }
    }

    @Test("typed-JSON dates read back to the very same double, fractions included")
    func exactDates() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -1e11...1e11)) { seconds in
            let value = UserInfoValue.date(Date(timeIntervalSinceReferenceDate: seconds))
            let back = try TypedJSONReader().readUserInfo(try TypedJSONWriter().write(value))
            #expect(back == value, "\(seconds)")
        }
    }
}

/// Exact equality, except that NaNs match whatever their payload (typed JSON writes `nan`).
func peerEqualExceptNaNPayload(_ a: UserInfoValue, _ b: UserInfoValue) -> Bool {
    a == b || peerEqual(a, b) && TypedJSONWriter.text(a) == TypedJSONWriter.text(b)
}

extension PropertyListValue {
    var containsNaN: Bool {
        switch self {
        case .real(let r): return r.isNaN
        case .array(let a): return a.contains { $0.containsNaN }
        case .dictionary(let d): return d.contains { $0.value.containsNaN }
        default: return false
        }
    }
}
