import ActivityContainer
import Foundation
import Handoff
import MPUserInfo
@_spi(ByteKit) import PropertyList
import Testing
import UserInfo

/// Specs/architecture.md, "One bounded walk": what reads a decoded value has
/// the budget of the bytes the value was read from. For a bzip2-compressed
/// activity container, those are the bytes it inflates to, not the few it
/// holds: a container of 2 KB whose MP userInfo inflates to 1.4 MB prints
/// and reads whole.
@Suite("Wire forms: the budget of a compressed container is its inflated size")
struct WireBudgetTests {
    static func compressedContainer() throws -> [UInt8] {
        let text = String(repeating: "x", count: 40)
        let userInfo: UserInfoDictionary = ["k": .array(Array(repeating: .string(text), count: 30_000))]
        let mp = try MPUserInfoWriter().write(userInfo)
        let record = ActivityRecord(activityType: "com.example.planner.edit", teamID: "ABCDE12345", userInfo: mp)
        return Array(try ActivityContainerWriter().write(.activity(record)))
    }

    @Test("print and read a 2 KB container that inflates to 1.4 MB, past the 1 MiB floor of its own bytes")
    func compressedContainerReads() throws {
        let bytes = try Self.compressedContainer()
        #expect(bytes.count < 8_192, "\(bytes.count) bytes: compressed")
        let expanded = try #require(try WireDocuments.read(bytes))
        #expect(expanded.inputBytes > 1 << 20)
        // The userInfo's expanded size is past the budget of the container's own bytes…
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) {
            try ValueWalk.expandedSize(of: expanded.value, budget: PropertyListLimits.default.expansionBudget(inputBytes: bytes.count))
        }
        // …and within that of the bytes it inflates to: print renders it whole.
        let text = try #require(try WireDocuments.description(bytes))
        #expect(text.components(separatedBy: "\n").count > 30_000)
    }
}
