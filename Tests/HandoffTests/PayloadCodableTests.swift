import ActivityContainer
import DocumentFormats
import Foundation
import Handoff
import MPUserInfo
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// Specs/payload.md, "Codable states": `PayloadCodec.decode(_:from:decoder:)`
/// equals `decode(_:)` then `UserInfoDecoder` (the tree path), states and
/// errors alike, and reads MP userInfo directly.
@Suite("PayloadCodec: Codable states, the direct path against the tree path")
struct PayloadCodableTests {
    static let container = "iCloud.com.example.Planner"

    static let mac: PayloadCodec = {
        var codec = PayloadCodec(layout: .macOS(home: "/Users/ada", containers: [container]))
        codec.versioning = PayloadVersioning(key: "version", current: PayloadVersion(2, 1))
        return codec
    }()

    /// Receivers: versioned with and without a migration, unversioned, without containers, reporting costs.
    static let phones: [PayloadCodec] = {
        var versioned = PayloadCodec(layout: .iOS(containers: [container, "iCloud.com.example.Other"]))
        versioned.versioning = mac.versioning
        var migrating = versioned
        migrating.versioning!.migrations = [PayloadMigration("rename", from: PayloadVersion(1, 0), to: PayloadVersion(2, 0)) { userInfo in
            var moved = userInfo
            moved["title"] = moved["name"]
            moved["name"] = nil
            return moved
        }, PayloadMigration("minor", from: PayloadVersion(2, 0), to: PayloadVersion(2, 1)) { $0 }]
        var lenient = versioned
        lenient.versioning!.assumedVersionWhenMissing = PayloadVersion(2, 0)
        var costly = versioned
        costly.reportsCostPerKeyPath = true
        return [versioned, migrating, lenient, PayloadCodec(), PayloadCodec(layout: .iOS(containers: [])), costly]
    }()

    struct Stop: Codable, Equatable { var name: String; var nights: Int }
    struct Trip: Codable, Equatable {
        var title: String; var document: URL; var stops: [Stop]; var link: URL?; var flags: [String: Bool]
    }

    /// What a decoding gave: the state and the activity's fields, or the error's text.
    enum Outcome: Equatable, CustomStringConvertible {
        case decoded(Trip, ActivityPayload, UserInfoWireForm, PayloadVersion?), error(String)
        init(_ body: () throws -> DecodedState<Trip>) {
            do {
                let decoded = try body()
                self = .decoded(decoded.state, decoded.activity, decoded.userInfoForm, decoded.foundVersion)
            } catch { self = .error("\(error)") }
        }
        var description: String {
            switch self {
            case .decoded(let trip, _, _, let version): "\(trip) at \(version.map { "\($0)" } ?? "no version")"
            case .error(let text): "error \(text)"
            }
        }
    }

    static func agree(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        for phone in phones {
            let tree = Outcome { try phone.treeDecode(Trip.self, from: data, decoder: UserInfoDecoder()) }
            #expect(Outcome { try phone.decode(Trip.self, from: data) } == tree, sourceLocation: sourceLocation)
        }
    }

    /// A container around `userInfo` as MP, written without PayloadCodec's checks.
    static func wire(_ userInfo: UserInfoDictionary, title: String? = "Trip") throws -> Data {
        let record = ActivityRecord(activityType: "com.example.planner.edit", teamID: "ABCDE12345", title: title,
                                    userInfo: try MPUserInfoWriter().write(userInfo), webpageURL: "https://example.com/trip")
        return try ActivityContainerWriter().write(.activity(record))
    }

    static let trip = Trip(
        title: "Portugal", document: URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip 1.plan"),
        stops: [Stop(name: "Lisbon", nights: 2), Stop(name: "Évora", nights: 1)], link: URL(string: "https://example.com/t/1"),
        flags: ["metric": true, "offline": false])

    @Test("a state sent from the Mac opens on the phone, directly: the document URL in the phone's container, the version found")
    func macToPhone() throws {
        let data = try Self.mac.encode(ActivityPayload(activityType: "com.example.planner.edit", userInfo: try UserInfoEncoder().encodeDictionary(Self.trip))).data
        let phone = Self.phones[0]
        #expect(try phone.directDecode(Trip.self, from: data, decoder: UserInfoDecoder()) != nil)
        let received = try phone.decode(Trip.self, from: data)
        #expect(received.state.document.path.hasSuffix("/iCloud~com~example~Planner/Documents/Trip 1.plan"))
        #expect(!received.state.document.path.hasPrefix("/Users/ada"))
        #expect(received.state.stops == Self.trip.stops && received.foundVersion == PayloadVersion(2, 1))
        #expect(received.activity.userInfo.isEmpty && received.activity.activityType == "com.example.planner.edit")
        Self.agree(data)
    }

    /// The userInfo of a sent trip, as the wire carries it (the document as a container reference).
    static func sentUserInfo() throws -> UserInfoDictionary {
        let data = try mac.encode(ActivityPayload(activityType: "com.example.planner.edit", userInfo: try UserInfoEncoder().encodeDictionary(trip))).data
        guard case .activity(let record) = try ActivityContainerReader().read(data) else { throw CancellationError() }
        return try MPUserInfoReader().read(record.userInfo!)
    }

    @Test("versions (missing, not a string, older and newer majors and minors, with and without a migration) and URLs (references to known and unknown containers, escapes, raw file URLs, other schemes): the tree path's answer")
    func variants() throws {
        let sent = try Self.sentUserInfo()
        let versions: [UserInfoValue?] = [nil, "2.1", "2.0", "2.7", "1.0", "1.5", "3.0", "x", 21, .dictionary(["v": "2.1"])]
        let urls: [String] = [
            "icloud-container:iCloud.com.example.Planner/Documents/Trip%201.plan", "icloud-container:iCloud.com.example.Other/a",
            "icloud-container:iCloud.com.example.Unknown/a", "icloud-container:iCloud.com.example.Planner/../etc/passwd",
            "icloud-container:iCloud.com.example.Planner/a%2F%CC%81b", "file:///Users/ada/Trip.plan", "mailto:ada@example.com",
            "https://example.com/t/2", "icloud-container:iCloud.com.example.Planner/",
        ]
        for version in versions {
            for url in urls {
                var userInfo = sent
                userInfo["version"] = version
                userInfo["document"] = .url(UserInfoURL(relative: url))
                Self.agree(try Self.wire(userInfo))
                // The same URL where the state does not read it: still translated, still refused.
                userInfo["document"] = .url(UserInfoURL(relative: "https://example.com/doc"))
                userInfo["extra"] = [.url(UserInfoURL(relative: url))]
                Self.agree(try Self.wire(userInfo))
            }
        }
        // What the tape leaves to the tree: a based URL, a set, a key beyond ASCII; and a missing userInfo.
        var based = sent
        based["link"] = .url(UserInfoURL(relative: "t/3", base: UserInfoURL(relative: "https://example.com/")))
        var set = sent
        set["tags"] = .set(UserInfoSet(["a", "b"]))
        var accented = sent
        accented["titré"] = "x"
        for userInfo in [based, set, accented] {
            #expect(try Self.phones[0].directDecode(Trip.self, from: try Self.wire(userInfo), decoder: UserInfoDecoder()) == nil)
            Self.agree(try Self.wire(userInfo))
        }
        Self.agree(try ActivityContainerWriter().write(.activity(ActivityRecord(activityType: "com.example.planner.edit"))))
    }

    // MARK: Encoding

    /// Senders: versioned (the Mac), unversioned, without containers, with tight limits, a hard budget, costs per key path, keyed archives.
    static let macs: [PayloadCodec] = {
        var plain = mac
        plain.versioning = nil
        var tight = mac
        tight.limits.maxStringBytes = 40
        var budgeted = mac
        budgeted.budget = SizeBudget(softLimit: 100, hardLimit: 300)
        var costly = mac
        costly.reportsCostPerKeyPath = true
        var archived = mac
        archived.userInfoForm = .keyedArchive
        var shallow = mac
        shallow.limits.maxDepth = 2
        return [mac, plain, PayloadCodec(), tight, budgeted, costly, archived, shallow]
    }()

    /// What an encoding gave: its bytes and cost, or its error's text.
    enum Sent: Equatable {
        case sent(Data, CostReport), error(String)
        init(_ body: () throws -> EncodedPayload) {
            do {
                let encoded = try body()
                self = .sent(encoded.data, encoded.cost)
            } catch { self = .error("\(error)") }
        }
    }

    struct Versioned: Encodable { var version: String; var page: Int }

    @Test("encoding a state: the tree path's bytes and cost, or its error, directly where it can (URLs in and outside containers, other schemes, the version key, limits, budgets, forms)")
    func encoding() throws {
        let activity = ActivityPayload(activityType: "com.example.planner.edit", title: "Trip", webpageURL: UserInfoURL(relative: "https://example.com/t"))
        let documents = ["/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip 1.plan",
                         "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Café.plan",
                         "/Users/ada/Library/Mobile Documents/iCloud~com~example~Other/a", "/Users/ada/Desktop/a.plan",
                         "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Docs/"]
        let links: [URL?] = [nil, URL(string: "https://example.com/t/1"), URL(string: "mailto:ada@example.com"), URL(string: "javascript:alert(1)")]
        var directly = 0
        for document in documents {
            for link in links {
                var trip = Self.trip
                trip.document = URL(filePath: document)
                trip.link = link
                for sender in Self.macs {
                    let tree = Sent { try sender.treeEncode(trip, activity: activity, encoder: UserInfoEncoder()) }
                    #expect(Sent { try sender.encode(trip, activity: activity) } == tree, "\(document) \(String(describing: link))")
                    // The direct path gives bytes, hands over (nil), or throws the tree path's error from the bytes on.
                    if case .some(.some) = try? sender.directEncode(trip, activity: activity, encoder: UserInfoEncoder()) { directly += 1 }
                }
            }
        }
        #expect(directly >= 12)  // at least the three files in the container, with either link, from the two Macs
        // The state writes the version key itself: the tree stamps it in place.
        for sender in Self.macs {
            let state = Versioned(version: "0.1", page: 3)
            #expect(Sent { try sender.encode(state, activity: activity) } == Sent { try sender.treeEncode(state, activity: activity, encoder: UserInfoEncoder()) })
        }
        // URLs inside a value mapped whole (a set) are the tree's to translate: handed over.
        let inSet = ["files": Set([URL(filePath: documents[0]), URL(filePath: documents[3])])]
        let inSetInContainer = ["files": Set([URL(filePath: documents[0])])]
        for sender in Self.macs {
            for state in [inSet, inSetInContainer] {
                #expect(Sent { try sender.encode(state, activity: activity) } == Sent { try sender.treeEncode(state, activity: activity, encoder: UserInfoEncoder()) })
                #expect((try? sender.directEncode(state, activity: activity, encoder: UserInfoEncoder())) ?? nil == nil)
            }
        }
        // Many members (a 16-bit top header after the stamp) and a payload compressed on the wire.
        let wide = Dictionary(uniqueKeysWithValues: (0..<15).map { ("k\($0)", String(repeating: "x", count: 200)) })
        #expect(Sent { try Self.mac.encode(wide, activity: activity) } == Sent { try Self.mac.treeEncode(wide, activity: activity, encoder: UserInfoEncoder()) })
        #expect(try Self.mac.directEncode(wide, activity: activity, encoder: UserInfoEncoder()) != nil)
    }

    @Test("mutated payloads: the same state or the same error on both paths")
    func mutated() async throws {
        let data = [UInt8](try Self.mac.encode(ActivityPayload(activityType: "com.example.planner.edit", userInfo: try UserInfoEncoder().encodeDictionary(Self.trip))).data)
        let mutations = Gen.int(in: 0...Int.max).array(of: 1...4)
        await propertyCheck(count: 500, input: mutations) { seeds in
            Self.agree(Data(TestSupport.mutated(data, by: seeds)))
        }
    }
}
