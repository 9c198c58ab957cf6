import DocumentFormats
import Foundation
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

@Suite("Keyed archives in XML (the format layer's UserInfoCodec)")
struct XMLArchiveRoundTripTests {
    @Test("value → XML archive → value is exact, for values XML can carry")
    func xmlArchiveRoundTrip() async {
        await propertyCheck(count: 200, input: UserInfoGenerator().generator) { value in
            // Control characters and leading U+FEFF have no XML form: those values are refused, not mangled.
            guard let data = try? UserInfoCodec().encode(value, format: .xml) else { return }
            #expect(data.starts(with: Array("<?xml".utf8)))
            let decoded = try UserInfoCodec().decode(data)
            // NS.time is a real, so dates keep their fractions; only NaN payloads may differ.
            #expect(peerEqual(decoded, value))
        }
    }

}
