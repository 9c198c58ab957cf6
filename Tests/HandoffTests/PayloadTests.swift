import ActivityContainer
import DocumentFormats
import Foundation
import Handoff
import KeyedArchive
import MPUserInfo
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// Specs/payload.md and Specs/versioning.md.
@Suite("Payload: the activity, the container, versioning, budgets")
struct PayloadTests {
    static let app = "iCloud.com.example.App"

    static func payload(_ userInfo: UserInfoDictionary = ["page": 3]) -> ActivityPayload {
        ActivityPayload(activityType: "com.example.shop.browse", title: "Browsing", webpageURL: UserInfoURL(relative: "https://shop.example.com/p/3"),
                        userInfo: userInfo, teamID: "ABCDE12345", persistentID: "browse-3", targetContentID: "product/3")
    }

    /// The wire form built without PayloadCodec (so without its checks): the
    /// container around the userInfo in `form`.
    static func wire(_ payload: ActivityPayload, form: UserInfoWireForm = .mp) throws -> Data {
        let userInfo = form == .mp ? try MPUserInfoWriter().write(payload.userInfo)
            : try KeyedArchiveWriter().write(.dictionary(payload.userInfo))
        let record = ActivityRecord(activityType: payload.activityType, teamID: payload.teamID, title: payload.title, userInfo: userInfo,
                                    persistentID: payload.persistentID, targetContentID: payload.targetContentID,
                                    webpageURL: payload.webpageURL?.relative, streamsEndpoint: payload.streamsEndpoint)
        return try ActivityContainerWriter().write(.activity(record))
    }

    /// The userInfo inside a wire form, read without PayloadCodec.
    static func userInfo(of data: Data) throws -> UserInfoDictionary {
        guard case .activity(let record) = try ActivityContainerReader().read(data), let bytes = record.userInfo else { return [:] }
        return try MPUserInfoReader().read(bytes)
    }

    // MARK: The activity on the wire

    @Test("a payload round-trips through the container, userInfo as MP (default) and as a keyed archive, compressed and not")
    func roundTrip() throws {
        var payload = Self.payload()
        payload.streamsEndpoint = Data([1, 2, 3])
        for form in UserInfoWireForm.allCases {
            for userInfo: UserInfoDictionary in [["page": 3], ["page": 3, "blob": .string(String(repeating: "abc", count: 1000))]] {
                for compresses in [true, false] {
                    payload.userInfo = userInfo
                    var codec = PayloadCodec(userInfoForm: form)
                    codec.compresses = compresses
                    let encoded = try codec.encode(payload)
                    let decoded = try PayloadCodec().decode(encoded.data)
                    #expect(decoded.payload == payload)
                    #expect(decoded.userInfoForm == form)
                    let (container, details) = try ActivityContainerReader().inspect(encoded.data)
                    #expect((details.compressedBytes != nil) == (compresses && userInfo.count == 2), "\(form) \(compresses)")
                    guard case .activity(let record) = container else { Issue.record("not an activity"); continue }
                    #expect(record.userInfo.map { MPUserInfoReader.hasMagic($0) } == (form == .mp))
                    #expect(record.teamID == "ABCDE12345")
                    #expect(record.webpageURL == "https://shop.example.com/p/3")
                }
            }
        }
    }

    @Test("property: every userInfo type round-trips through the container, as MP and as a keyed archive, compressed and not")
    func everyTypeThroughTheContainer() async {
        await propertyCheck(count: 120, input: UserInfoGenerator().generator) { value in
            for padding in [0, 3000] {
                var userInfo: UserInfoDictionary = ["v": value]
                if padding > 0 { userInfo["padding"] = .string(String(repeating: "p", count: padding)) }
                for form in UserInfoWireForm.allCases {
                    let bytes: Data
                    do { bytes = try form.encode(userInfo) } catch let error as UserInfoError where error.code == .reservedString { continue }
                    let record = ActivityRecord(activityType: "com.example.a", userInfo: bytes)
                    // Uncompressed by request; compressed as Apple's sender does when padded past 2,049 bytes.
                    let packet = try ActivityContainerWriter(compression: padding > 0 ? .apple : .never).write(.activity(record))
                    #expect((packet.prefix(4) == Data([1, 1, 0, 0])) == (padding > 0), "compressed exactly when padded")
                    guard case .activity(let read) = try ActivityContainerReader().read(packet), let field = read.userInfo else {
                        Issue.record("no userInfo")
                        continue
                    }
                    let decoded = try UserInfoWireForm.decode(field, limits: .default)
                    #expect(decoded.form == form)
                    #expect(decoded.userInfo == userInfo)
                }
            }
        }
    }

    @Test("errorPacket: an error packet decodes to an error, not an activity; malformedPayload wraps the container's error")
    func errorPacket() throws {
        let packet = try ActivityContainerWriter().write(.errorPacket(Data([1, 2, 3])))
        #expect(throws: PayloadError(.errorPacket, "")) { try PayloadCodec().decode(packet) }
        do {
            _ = try PayloadCodec().decode(Data([1, 0, 0, 0, 0]))
            Issue.record("decoded")
        } catch {
            #expect(error.code == .malformedPayload)
            #expect(error.innermostCode == .truncated)
        }
        // An archived userInfo that is not a dictionary.
        var record = ActivityRecord(activityType: "com.example.a", userInfo: try KeyedArchiveWriter().write([1, 2]))
        #expect(throws: PayloadError(.malformedPayload, "")) { try PayloadCodec().decode(ActivityContainerWriter().write(.activity(record))) }
        record.userInfo = nil
        #expect(try PayloadCodec().decode(ActivityContainerWriter().write(.activity(record))).payload.userInfo.isEmpty)
    }

    @Test("invalidActivityType: non-empty reverse-DNS characters")
    func activityType() {
        for bad in ["", "com..example", ".com.example", "com.example.", "com example", "com/example", "ü.example", "com.exa:mple"] {
            var payload = Self.payload()
            payload.activityType = bad
            #expect(throws: PayloadError(.invalidActivityType, "")) { try payload.validate() }
        }
        for good in ["com.example.shop.browse", "Browse", "com.example.view-document", "a_b.c-d.9"] {
            var payload = Self.payload()
            payload.activityType = good
            #expect(throws: Never.self) { try payload.validate() }
        }
    }

    @Test("invalidWebpageURL: only http and https, compared case-insensitively")
    func webpageURL() throws {
        for good in ["https://x.example", "HTTP://x.example/p?q=1", "hTTpS://x.example#f"] {
            var payload = Self.payload()
            payload.webpageURL = UserInfoURL(relative: good)
            try payload.validate()
        }
        for bad in ["ftp://x.example", "file:///etc/passwd", "javascript:alert(1)", "x.example", "https:///nohost", "mailto:a@b.c"] {
            var payload = Self.payload()
            payload.webpageURL = UserInfoURL(relative: bad)
            #expect(throws: PayloadError(.invalidWebpageURL, "")) { try payload.validate() }
        }
    }

    @Test("missingRequiredKeys: on encode every required key is present, and the error names the missing ones; the keys are not sent")
    func requiredKeys() throws {
        var payload = Self.payload()
        payload.requiredUserInfoKeys = ["page", "cart", "user"]
        do {
            _ = try PayloadCodec().encode(payload)
            Issue.record("encoded")
        } catch {
            #expect(error.code == .missingRequiredKeys)
            #expect(error.reason.hasSuffix("cart, user"))
        }
        payload.requiredUserInfoKeys = ["page"]
        #expect(try PayloadCodec().decode(PayloadCodec().encode(payload).data).payload.requiredUserInfoKeys == nil)
    }

    @Test("invalidEnvelope: the typed-JSON envelope's unknown fields and wrong types are refused")
    func envelopeShape() throws {
        let envelope = Self.payload().envelope.dictionaryValue!
        #expect(try ActivityPayload(envelope: .dictionary(envelope)) == Self.payload())
        for (field, value) in [("extra", 1), ("keywords", ["a"]), ("expirationDate", .date(Date())), ("teamID", 1), ("title", ["x"]),
                               ("webpageURL", "https://a.b/"), ("streamsEndpoint", "x"), ("requiredUserInfoKeys", ["a"])] as [(String, UserInfoValue)] {
            var changed = envelope
            changed[field] = value
            #expect(throws: PayloadError(.invalidEnvelope, "")) { try ActivityPayload(envelope: .dictionary(changed)) }
        }
        #expect(throws: PayloadError(.invalidEnvelope, "")) { try ActivityPayload(envelope: ["userInfo": [:]]) }
        #expect(throws: PayloadError(.invalidEnvelope, "")) { try ActivityPayload(envelope: [1]) }
        #expect(throws: PayloadError(.malformedPayload, "")) { try PayloadCodec().decode(Data("not a payload".utf8)) }
    }

    @Test("payload decode limits: 64 KB input, depth 32, 4,096 members")
    func decodeLimits() throws {
        var deep: UserInfoValue = 1
        for _ in 0..<40 { deep = [deep] }
        let data = try Self.wire(Self.payload(["deep": deep]))
        #expect(throws: PayloadError(.malformedPayload, "")) { try PayloadCodec().decode(data) }
        let big = try ActivityContainerWriter(compression: .never).write(.activity(ActivityRecord(
            activityType: "com.example.a", userInfo: try MPUserInfoWriter().write(["page": 1, "blob": .data(Data(count: 70_000))]))))
        do {
            _ = try PayloadCodec().decode(big)
            Issue.record("decoded")
        } catch {
            #expect(error.innermostCode == .inputTooLarge)
        }
        var relaxed = PayloadCodec()
        relaxed.limits = .default
        #expect(try relaxed.decode(big).payload.userInfo["blob"]?.dataValue?.count == 70_000)
    }

    /// Specs/payload.md, "payloadLimits".
    @Test("payloadLimits: MP too small to reach a limit is not decoded again (the bound is sound); encode refuses exactly what decode would")
    func payloadLimitsBound() async {
        func containsURL(_ value: UserInfoValue) -> Bool {
            switch value {
            case .url: return true
            case .array(let elements): return elements.contains(where: containsURL)
            case .set(let set): return set.members.contains(where: containsURL)
            case .dictionary(let dictionary): return dictionary.values.contains(where: containsURL)
            default: return false
            }
        }
        var variants: [PropertyListLimits] = [.payload, .default]
        // (Not maxInputBytes: it bounds the whole container too, which encode reads back.)
        for change in 0..<5 {
            var limits = PropertyListLimits.payload
            switch change {
            case 0: limits.maxObjects = 6
            case 1: limits.maxCollectionCount = 3
            case 2: limits.maxStringBytes = 4
            case 3: limits.maxDataBytes = 4
            default: limits.maxExpandedBytes = 120
            }
            variants.append(limits)
        }
        var skipped = 0
        await propertyCheck(count: 300, input: UserInfoGenerator(maxDepth: 3).generator) { value in
            guard !containsURL(value) else { return }
            let userInfo: UserInfoDictionary = ["v": value]
            for limits in variants {
                guard let bytes = try? MPUserInfoWriter(limits: WriterLimits(limits)).writeBytes(userInfo) else { continue }
                let reads = (try? MPUserInfoReader(limits: limits).read(bytes)) != nil
                if UserInfoWireForm.mp.readsWithinLimits(byteCount: bytes.count, limits) {
                    skipped += 1
                    #expect(reads, "the bound let through \(bytes.count) bytes that \(limits) refuses")
                }
                var codec = PayloadCodec(limits: limits)
                codec.compresses = false
                let encodes = (try? codec.encode(ActivityPayload(activityType: "com.example.a", userInfo: userInfo))) != nil
                #expect(encodes == reads, "encode \(encodes), decode \(reads) under \(limits)")
            }
        }
        #expect(skipped > 100)
    }

    // MARK: Versioning

    static let versioning = PayloadVersioning(key: "com.example.shop.version", current: PayloadVersion(2, 1))

    @Test("version parsing: major.minor only")
    func versionParsing() {
        #expect(PayloadVersion("2.1") == PayloadVersion(2, 1))
        #expect(PayloadVersion("10.0")! > PayloadVersion("9.9")!)
        for bad in ["2", "2.1.0", "v2.1", "2.x", "02.1", "-1.0", "2.", ".1", "", "1e3.0"] {
            #expect(PayloadVersion(bad) == nil, "\(bad)")
        }
    }

    @Test("encoding stamps the version key")
    func stamping() throws {
        var codec = PayloadCodec()
        codec.versioning = Self.versioning
        let data = try codec.encode(Self.payload()).data
        #expect(try Self.userInfo(of: data)["com.example.shop.version"] == "2.1")
    }

    private func decode(version: String?, with versioning: PayloadVersioning = Self.versioning) throws(PayloadError) -> DecodedPayload {
        var userInfo: UserInfoDictionary = ["page": 3]
        if let version { userInfo[versioning.key] = .string(version) }
        var codec = PayloadCodec()
        codec.versioning = versioning
        let data = try? Self.wire(Self.payload(userInfo))
        return try codec.decode(data!)
    }

    @Test("missingVersion: an error, or the assumed version when the caller says so")
    func missingVersion() throws {
        #expect(throws: PayloadError(.missingVersion, "")) { try decode(version: nil) }
        var assuming = Self.versioning
        assuming.assumedVersionWhenMissing = PayloadVersion(2, 0)
        #expect(try decode(version: nil, with: assuming).foundVersion == PayloadVersion(2, 0))
    }

    @Test("unsupportedVersion: a newer major is refused; a newer minor is accepted")
    func newerVersions() throws {
        do {
            _ = try decode(version: "3.0")
            Issue.record("decoded")
        } catch {
            #expect(error.code == .unsupportedVersion)
            #expect(error.reason == "unsupportedVersion(found: 3.0, supported: 2.x)")
        }
        #expect(try decode(version: "2.7").foundVersion == PayloadVersion(2, 7))
        #expect(throws: PayloadError(.invalidVersion, "")) { try decode(version: "two") }
    }

    @Test("older versions pass through the registered migrations, chained, to the current version")
    func migrations() throws {
        var versioning = Self.versioning
        versioning.migrations = [
            PayloadMigration("page becomes pageIndex", from: PayloadVersion(1, 0), to: PayloadVersion(1, 5)) { userInfo in
                var next = userInfo
                next["pageIndex"] = next["page"]
                next["page"] = nil
                return next
            },
            PayloadMigration("add cart", from: PayloadVersion(1, 5), to: PayloadVersion(2, 0)) { userInfo in
                var next = userInfo
                next["cart"] = []
                return next
            },
        ]
        let decoded = try decode(version: "1.0", with: versioning)
        #expect(decoded.foundVersion == PayloadVersion(1, 0))
        #expect(decoded.payload.userInfo == ["pageIndex": 3, "cart": [], "com.example.shop.version": "2.0"])
        // An older minor of the current major without a migration is accepted as it is.
        #expect(try decode(version: "2.0", with: versioning).payload.userInfo["com.example.shop.version"] == "2.0")
        #expect(throws: PayloadError(.noMigrationPath, "")) { try decode(version: "0.9", with: versioning) }
    }

    @Test("migrationFailed: a failing step is named")
    func failingMigration() {
        struct Broken: Error {}
        var versioning = Self.versioning
        versioning.migrations = [PayloadMigration("split address", from: PayloadVersion(1, 0), to: PayloadVersion(2, 0)) { _ in throw Broken() }]
        do {
            _ = try decode(version: "1.0", with: versioning)
            Issue.record("decoded")
        } catch {
            #expect(error.code == .migrationFailed)
            #expect(error.reason.contains("\"split address\""))
        }
    }

    // MARK: Budgets

    @Test("the cost report: total, and bytes per key path that removing the key saves (give or take a narrowing count field), largest first")
    func costReport() throws {
        let userInfo: UserInfoDictionary = ["thumbnail": .data(Data(count: 900)), "title": "A title", "cart": [["sku": "A-100", "note": .string(String(repeating: "n", count: 200))]], "page": 3]
        let report = try PayloadCodec.cost(of: userInfo, form: .keyedArchive)
        #expect(report.total == (try KeyedArchiveWriter().write(.dictionary(userInfo)).count))
        #expect(report.entries.first?.keyPath.description == "thumbnail")
        #expect(report.entries.map(\.bytes) == report.entries.map(\.bytes).sorted(by: >))
        #expect(report.entries.contains { $0.keyPath.description == "cart[0].note" })
        for key in userInfo.keys {
            var smaller = userInfo
            smaller[key] = nil
            let saved = report.total - (try KeyedArchiveWriter().write(.dictionary(smaller)).count)
            // Exact but for count fields that narrow ($objects here: 16 objects need a 3-byte count, 14 one byte).
            let reported = try #require(report.entries.first { $0.keyPath.description == key }?.bytes)
            #expect(abs(reported - saved) <= 4, "\(key): reported \(reported), saved \(saved)")
            #expect(saved > 0)
        }
    }

    @Test("soft limit warns; hard limit fails with overBudget(size:limit:)")
    func budgets() throws {
        let bulky = Self.payload(["page": 3, "blob": .data(Data(count: 4000))])
        let encoded = try PayloadCodec().encode(bulky)
        #expect(encoded.cost.warnings.count == 1)
        #expect(encoded.cost.total > 3072)
        var strict = PayloadCodec()
        strict.budget = SizeBudget(softLimit: 3072, hardLimit: 4000)
        do {
            _ = try strict.encode(bulky)
            Issue.record("encoded")
        } catch {
            #expect(error.code == .overBudget)
            #expect(error.reason == "overBudget(size: \(encoded.cost.total), limit: 4000)")
        }
        #expect(try PayloadCodec().encode(Self.payload()).cost.warnings.isEmpty)
    }

    // MARK: The worked example (README)

    @Test("worked example: a document in a synced container, encoded on macOS, decoded on iOS")
    func workedExample() throws {
        let document = URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~App/Documents/Trip.plan")
        let payload = ActivityPayload(activityType: "com.example.planner.edit", title: "Editing Trip",
                                      userInfo: ["document": .url(UserInfoURL(document)), "selection": [3, 7], "zoom": 1.25])
        var mac = PayloadCodec(layout: .macOS(home: "/Users/ada", containers: [Self.app]))
        mac.versioning = PayloadVersioning(key: "com.example.planner.version", current: PayloadVersion(1, 0))
        let sent = try mac.encode(payload)
        #expect(sent.cost.warnings.isEmpty)
        #expect(!String(decoding: sent.data, as: UTF8.self).contains("/Users/ada"))
        var phone = PayloadCodec(layout: .iOS(containers: [Self.app]))
        phone.versioning = mac.versioning
        let received = try phone.decode(sent.data)
        #expect(received.payload.userInfo["document"]?.urlValue?.url?.path(percentEncoded: false) ==
                "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~App/Documents/Trip.plan")
        #expect(received.payload.userInfo["zoom"] == 1.25)
    }
}

/// Specs/payload.md, "Configuration": what a caller sets is refused with a
/// typed error before any byte is read or written, never trapped on.
@Suite("Payload configuration and the one payload path")
struct PayloadConfigurationTests {
    static let app = "iCloud.com.example.App"

    @Test("invalidLayout: relative, unnormalised or controlled roots and bad container identifiers")
    func layouts() throws {
        let data = try PayloadCodec().encode(PayloadTests.payload()).data
        for root in ["relative", "", "/a//b", "/a/./b", "/a/../b", "/a/b/..", "/a\u{85}b", "/a\nb", "//a"] {
            #expect(throws: PayloadError(.invalidLayout, ""), "\(root)") { try PayloadCodec(layout: ContainerLayout(root: root)).decode(data) }
            #expect(throws: PayloadError(.invalidLayout, ""), "\(root)") { try PayloadCodec(layout: ContainerLayout(root: root)).encode(PayloadTests.payload()) }
            #expect(ContainerLayout.parse("root:" + root) == nil, "\(root)")
        }
        #expect(throws: PayloadError(.invalidLayout, "")) { try PayloadCodec(layout: .macOS(home: "Users/ada")).decode(data) }
        for identifier in ["", "a", "a..b", "é.b", "a.b c"] {
            #expect(throws: PayloadError(.invalidLayout, ""), "\(identifier)") {
                try PayloadCodec(layout: .iOS(containers: [Self.app, identifier])).decode(data)
            }
            #expect(throws: PayloadError(.invalidLayout, "")) { try URLTranslator().incoming(1, to: .iOS(containers: [identifier])) }
        }
        // Roots that are fine: "/", a trailing slash (dropped).
        _ = try PayloadCodec(layout: ContainerLayout(root: "/")).decode(data)
        #expect(ContainerLayout(root: "/srv/icloud//").root == "/srv/icloud")
        try ContainerLayout(root: "/srv/icloud//").validate()
    }

    @Test("invalidVersioning: empty key, negative versions, migrations that do not move forward or start twice")
    func versioning() throws {
        let data = try PayloadCodec().encode(PayloadTests.payload()).data
        func step(_ from: PayloadVersion, _ to: PayloadVersion) -> PayloadMigration { PayloadMigration("m", from: from, to: to) { $0 } }
        var cases: [PayloadVersioning] = [
            PayloadVersioning(key: "", current: PayloadVersion(1, 0)),
            PayloadVersioning(key: "v", current: PayloadVersion(-1, 0)),
            PayloadVersioning(key: "v", current: PayloadVersion(1, -2)),
            PayloadVersioning(key: "v", current: PayloadVersion(1, 0), assumedVersionWhenMissing: PayloadVersion(Int.min, 0)),
        ]
        for migrations in [[step(PayloadVersion(2, 0), PayloadVersion(1, 0))], [step(PayloadVersion(1, 0), PayloadVersion(1, 0))],
                           [step(PayloadVersion(1, 0), PayloadVersion(3, 0))], [step(PayloadVersion(-1, 0), PayloadVersion(1, 0))],
                           [step(PayloadVersion(0, 0), PayloadVersion(1, 0)), step(PayloadVersion(0, 0), PayloadVersion(0, 5))]] {
            var versioning = PayloadVersioning(key: "v", current: PayloadVersion(2, 0))
            versioning.migrations = migrations
            cases.append(versioning)
        }
        for versioning in cases {
            #expect(throws: PayloadError(.invalidVersioning, "")) { try PayloadCodec(versioning: versioning).decode(data) }
            #expect(throws: PayloadError(.invalidVersioning, "")) { try PayloadCodec(versioning: versioning).encode(PayloadTests.payload()) }
            #expect(throws: PayloadError(.invalidVersioning, "")) { try versioning.check(["v": "1.0"]) }
        }
    }

    @Test("invalidBudget and invalidLimits: negative limits, a depth over the supported one")
    func budgetsAndLimits() throws {
        let data = try PayloadCodec().encode(PayloadTests.payload()).data
        for budget in [SizeBudget(softLimit: -1), SizeBudget(hardLimit: -5), SizeBudget(softLimit: Int.min, hardLimit: Int.min)] {
            #expect(throws: PayloadError(.invalidBudget, "")) { try PayloadCodec(budget: budget).encode(PayloadTests.payload()) }
        }
        var limits = PropertyListLimits.payload
        limits.maxDepth = 1 << 20
        #expect(throws: PayloadError(.invalidLimits, "")) { try PayloadCodec(limits: limits).decode(data) }
        limits = .payload
        limits.maxObjects = -1
        #expect(throws: PayloadError(.invalidLimits, "")) { try PayloadCodec(limits: limits).decode(data) }
    }

    @Test("nothing lost: required keys holding café in NFC and in NFD are refused, not merged")
    func canonicallyEquivalentKeywords() throws {
        let field = "requiredUserInfoKeys"
        var envelope = PayloadTests.payload(["caf\u{E9}": 1, "cafe\u{301}x": 2]).envelope.dictionaryValue!
        envelope[field] = .set([.string("caf\u{E9}"), .string("cafe\u{301}")])
        do {
            _ = try ActivityPayload(envelope: .dictionary(envelope))
            Issue.record("\(field): read, one spelling dropped")
        } catch {
            #expect(error.code == .invalidEnvelope)
            #expect(error.keyPath.description == field)
        }
    }

    @Test("the cost per key path is computed on request; the total and the budget always")
    func costOnRequest() throws {
        let payload = PayloadTests.payload(["page": 1, "b": ["c": "text"]])
        let plain = try PayloadCodec().encode(payload)
        #expect(plain.cost.entries.isEmpty)
        #expect(plain.cost.total > 0)
        #expect(try PayloadCodec().decode(plain.data).cost == nil)
        var detailed = PayloadCodec()
        detailed.reportsCostPerKeyPath = true
        let encoded = try detailed.encode(payload)
        #expect(encoded.cost.total == plain.cost.total)
        #expect(Set(encoded.cost.entries.map(\.keyPath.description)) == ["page", "b", "b.c"])
        let decoded = try detailed.decode(encoded.data)
        #expect(decoded.cost == encoded.cost)
        #expect(throws: PayloadError(.overBudget, "")) { try SizeBudget(hardLimit: 10).check(encoded.cost.total) }
    }
}

/// Specs/payload.md, "Cost report": each entry's cost, computed in one pass,
/// against the bytes removing the entry really saves (re-encoding without it).
@Suite("Cost report in one pass")
struct CostReportTests {
    static func size(_ userInfo: UserInfoDictionary) throws -> Int { try KeyedArchiveWriter().write(.dictionary(userInfo)).count }

    static func removing(_ path: ArraySlice<PropertyListKeyPath.Component>, from value: UserInfoValue) -> UserInfoValue {
        guard let first = path.first else { return value }
        switch (first, value) {
        case (.key(let key), .dictionary(var dictionary)):
            if path.count == 1 { dictionary[key] = nil } else if let member = dictionary[key] {
                dictionary[key] = removing(path.dropFirst(), from: member)
            }
            return .dictionary(dictionary)
        case (.index(let index), .array(var elements)):
            elements[index] = removing(path.dropFirst(), from: elements[index])
            return .array(elements)
        default:
            return value
        }
    }

    /// The offset and reference widths in a binary plist's trailer.
    static func widths(_ bytes: Data) -> [UInt8] { Array(bytes.suffix(26).prefix(2)) }

    @Test("property: every entry's cost is what removing it saves, at the archive's widths")
    func costsAgainstReencoding() async throws {
        await propertyCheck(count: 80, input: UserInfoGenerator().generator) { value in
            guard case .dictionary(let userInfo) = value else { return }
            let report = try PayloadCodec.cost(of: userInfo, form: .keyedArchive)
            let whole = try KeyedArchiveWriter().write(.dictionary(userInfo))
            #expect(report.total == whole.count)
            for entry in report.entries {
                guard case .dictionary(let smaller) = Self.removing(entry.keyPath.components[...], from: .dictionary(userInfo)) else { continue }
                let reduced = try KeyedArchiveWriter().write(.dictionary(smaller))
                // Removing objects can narrow every offset or reference of the file (a
                // width crossing 256 or 65,536): the report is at the archive's widths.
                guard Self.widths(reduced) == Self.widths(whole) else { continue }
                let saved = whole.count - reduced.count
                // Count fields of 15 or more members, and UIDs crossing 256, may narrow by a byte or two.
                #expect(abs(saved - entry.bytes) <= 4, "\(entry.keyPath): saved \(saved), reported \(entry.bytes)")
            }
        }
    }

    @Test("property: in MP, every entry's cost is exactly what removing it saves (but a map header narrowing at 16 members)")
    func mpCostsAgainstReencoding() async throws {
        await propertyCheck(count: 120, input: UserInfoGenerator().generator) { value in
            let userInfo: UserInfoDictionary = ["v": value, "w": [value]]
            let report = try PayloadCodec.cost(of: userInfo)
            let whole = try MPUserInfoWriter().writeBytes(userInfo)
            #expect(report.total == whole.count)
            #expect(!report.entries.isEmpty)
            for entry in report.entries {
                guard case .dictionary(let smaller) = Self.removing(entry.keyPath.components[...], from: .dictionary(userInfo)) else { continue }
                let saved = whole.count - (try MPUserInfoWriter().writeBytes(smaller)).count
                #expect(saved == entry.bytes || saved == entry.bytes + 2, "\(entry.keyPath): saved \(saved), reported \(entry.bytes)")
            }
        }
    }
    // That the report is one pass (n against 4n keys, keyed-archive form) is
    // counted in ScalingTests, "payload check: the per-key cost report in one pass".
}
