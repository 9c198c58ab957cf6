// The README's API example, run end to end: a Mac sends its Codable state as a
// Handoff payload and an iPhone reads it, the document moved into its own
// iCloud container; then each lower layer on its own. Exits 1 on any mismatch.
import Foundation
import PropertyList
import PropertyListXML
import PropertyListOpenStep
import UserInfo
import TypedJSON
import KeyedArchive
import MPUserInfo
import ActivityContainer
import DocumentFormats
import Handoff

struct TripState: Codable, Equatable {
    var document: URL
    var selection: [Int]
    var zoom: Double
}

func require(_ condition: Bool, _ what: String) {
    guard condition else {
        FileHandle.standardError.write(Data("client: FAILED: \(what)\n".utf8))
        exit(1)
    }
    print("ok: \(what)")
}

do {
    // Sender (a Mac): Codable state → userInfo → payload bytes.
    let state = TripState(
        document: URL(filePath: "/Users/ada/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip.plan"),
        selection: [3, 7], zoom: 1.25)
    let payload = ActivityPayload(activityType: "com.example.planner.edit",
                                  userInfo: try UserInfoEncoder().encodeDictionary(state))
    var mac = PayloadCodec(layout: .macOS(home: "/Users/ada", containers: ["iCloud.com.example.Planner"]))
    mac.versioning = PayloadVersioning(key: "com.example.planner.version", current: PayloadVersion(1, 0))
    let sent = try mac.encode(state, activity: ActivityPayload(activityType: "com.example.planner.edit"))   // straight from the state
    require(sent.data == (try mac.encode(payload)).data, "both sending paths write the same bytes")
    require(sent.data.count < 3072, "the payload is under Apple's 3 KB advice (\(sent.data.count) bytes)")

    // Receiver (an iPhone): bytes → payload → state, the document in its own container.
    var phone = PayloadCodec(layout: .iOS(containers: ["iCloud.com.example.Planner"]))
    phone.versioning = mac.versioning
    let received = try phone.decode(TripState.self, from: sent.data)   // straight into the state
    let restored = received.state
    require(restored.document.path
                == "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip.plan",
            "the document URL names the same file in the iPhone's container")
    require(restored.selection == state.selection && restored.zoom == state.zoom, "the rest of the state round-trips")
    require(received.activity.activityType == "com.example.planner.edit" && received.foundVersion == PayloadVersion(1, 0),
            "the activity's fields and version come with the state")
    // The same through the userInfo tree: the payload, then UserInfoDecoder.
    let tree = try UserInfoDecoder().decode(TripState.self, from: .dictionary(try phone.decode(sent.data).payload.userInfo))
    require(tree.document == restored.document && tree.selection == restored.selection, "both receiving paths agree")

    // PropertyList: a binary property list, written and read back.
    let plist = PropertyListValue.array([.string("café"), .integer(PropertyListInteger(42)), .bool(true)])
    let binary = try BinaryPropertyListWriter().write(plist)
    require(try BinaryPropertyListReader().read(binary) == plist, "a binary property list round-trips")

    // PropertyListXML: the same value as XML, through libxml2.
    let xml = try XMLPropertyListWriter().write(plist)
    require(try XMLPropertyListReader().read(xml) == plist, "an XML property list round-trips")

    // PropertyListOpenStep: an old-style text plist, as Xcode projects are written.
    let openStep = try OpenStepReader().read(Data("{ name = \"café\"; list = (1, <2a>); }".utf8))
    require(openStep == .dictionary(["name": .string("café"), "list": .array([.string("1"), .data(Data([0x2A]))])]),
            "an OpenStep property list reads")

    // KeyedArchive: the four types a plain plist cannot hold, in an NSKeyedArchiver archive.
    let userInfo = UserInfoValue.dictionary(["id": .uuid(UUID()), "nothing": .null])
    let archive = try KeyedArchiveWriter().write(userInfo)
    require(try KeyedArchiveReader().read(archive) == userInfo, "a keyed archive round-trips")

    // TypedJSON: the same userInfo as lossless JSON.
    let json = try TypedJSONWriter().write(userInfo)
    require(try TypedJSONReader().readUserInfo(json) == userInfo, "typed JSON round-trips")

    // DocumentFormats: one reader for any property list, the format detected.
    require(try Document.read(any: xml) == plist && Document.read(any: binary) == plist,
            "the format layer reads XML and binary alike")
    let xmlArchive = try UserInfoCodec().encode(userInfo, format: .xml)
    require(try UserInfoCodec().decode(xmlArchive) == userInfo, "a keyed archive in XML round-trips")

    // MPUserInfo: the same userInfo as Apple's "MP" MessagePack.
    guard case .dictionary(let dictionary) = userInfo else { exit(1) }
    let mp = try MPUserInfoWriter().writeBytes(dictionary)
    let mpBack = try MPUserInfoReader().read(mp)
    require(Array(mp.prefix(4)) == [0x4D, 0x50, 0x03, 0x05] && mpBack == dictionary, "an MP userInfo round-trips")

    // ActivityContainer: Apple's activity container around it, bzip2 when large.
    let record = ActivityRecord(activityType: "com.example.planner.edit", title: "Trip", userInfo: Data(mp))
    let container = try ActivityContainerWriter().write(.activity(record))
    require(try ActivityContainerReader().read(container) == .activity(record), "an activity container round-trips")
    require(sent.data.prefix(4) == Data([1, 0, 0, 0]), "PayloadCodec writes an activity container")

    // And Foundation's own reader opens our archive's plist.
    let foundationView = try PropertyListSerialization.propertyList(from: archive, format: nil)
    require((foundationView as? [String: Any])?["$archiver"] as? String == "NSKeyedArchiver",
            "Foundation reads our archive as an NSKeyedArchiver plist")
} catch {
    FileHandle.standardError.write(Data("client: FAILED: \(error)\n".utf8))
    exit(1)
}
