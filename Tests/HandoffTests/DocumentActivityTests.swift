import DocumentFormats
import Foundation
import Handoff
import PropertyList
import TestSupport
import Testing
import UserInfo

/// Document-based Handoff (Specs/payload.md, "Document activities"): the
/// document URL under NSUserActivityDocumentURL, made on "macOS" and opened
/// in the "iOS" container; the app's document types, read from Info.plists
/// Xcode wrote (../shared/realworld).
@Suite("Document activities and the app's document types")
struct DocumentActivityTests {
    static let app = "iCloud.com.example.Planner"
    static let macDocument = "file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip%20Notes.plan"

    @Test("a document activity made on macOS opens its document in the iOS container")
    func macToPhone() throws {
        let activity = DocumentActivity(activityType: "com.example.planner.document", documentURL: UserInfoURL(relative: Self.macDocument),
                                        userInfo: ["selection": [3, 7]])
        let payload = try activity.payload(title: "Trip Notes")
        #expect(payload.userInfo[DocumentActivity.documentURLKey] == .url(UserInfoURL(relative: Self.macDocument)))
        let sent = try PayloadCodec(layout: .macOS(home: "/Users/ada", containers: [Self.app])).encode(payload)
        #expect(!String(decoding: sent.data, as: UTF8.self).contains("/Users/ada"))
        let received = try PayloadCodec(layout: .iOS(containers: [Self.app])).decode(sent.data)
        let opened = try DocumentActivity(reading: received.payload)
        #expect(opened.activityType == "com.example.planner.document")
        #expect(opened.documentURL.url?.path(percentEncoded: false) == "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~Planner/Documents/Trip Notes.plan")
        #expect(opened.userInfo == ["selection": [3, 7]])
        #expect(opened.pathExtension == "plan")
        // A file in no synced container does not travel.
        let outside = DocumentActivity(activityType: "com.example.planner.document", documentURL: UserInfoURL(relative: "file:///Users/ada/Desktop/Trip.plan"))
        #expect(throws: PayloadError(.fileOutsideContainer, "")) { try PayloadCodec(layout: .macOS(home: "/Users/ada", containers: [Self.app])).encode(try outside.payload()) }
    }

    @Test("documentKeyInUse, documentNotFileURL, missingDocumentURL, documentURLNotURL")
    func refusals() throws {
        let url = UserInfoURL(relative: Self.macDocument)
        #expect(throws: PayloadError(.documentKeyInUse, "")) {
            try DocumentActivity(activityType: "a.b", documentURL: url, userInfo: [DocumentActivity.documentURLKey: "x"]).payload()
        }
        #expect(throws: PayloadError(.documentNotFileURL, "")) {
            try DocumentActivity(activityType: "a.b", documentURL: UserInfoURL(relative: "https://example.com/Trip.plan")).payload()
        }
        #expect(throws: PayloadError(.missingDocumentURL, "")) { try DocumentActivity(reading: ActivityPayload(activityType: "a.b", userInfo: ["x": 1])) }
        #expect(throws: PayloadError(.documentURLNotURL, "")) {
            try DocumentActivity(reading: ActivityPayload(activityType: "a.b", userInfo: [DocumentActivity.documentURLKey: .string(Self.macDocument)]))
        }
        // Received: an https URL under the key is no document in a synced container.
        let web = ActivityPayload(activityType: "a.b", userInfo: [DocumentActivity.documentURLKey: .url(UserInfoURL(relative: "https://example.com/Trip.plan"))])
        let received = try PayloadCodec(layout: .iOS(containers: [Self.app])).decode(try PayloadCodec().encode(web).data)
        #expect(throws: PayloadError(.documentNotFileURL, "")) { try DocumentActivity(reading: received.payload) }
    }

    static var realworld: URL { Paths.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/realworld/files") }

    /// Python's plistlib (a peer) on the same Info.plist: for each extension
    /// the app names anywhere, the indexes of the document types Launch
    /// Services' rule (Specs/payload.md, "Document activities") matches.
    static func peerMatches(_ file: URL) throws -> [String: [Int]] {
        let script = """
        import json, plistlib, sys
        info = plistlib.load(open(sys.argv[1], "rb"))
        declared = {}
        for key in ("UTExportedTypeDeclarations", "UTImportedTypeDeclarations"):
            for t in info.get(key, []):
                tags = t.get("UTTypeTagSpecification", {}).get("public.filename-extension", [])
                tags = [tags] if isinstance(tags, str) else tags
                declared.setdefault(t["UTTypeIdentifier"], []).extend(x.lower() for x in tags)
        types = info.get("CFBundleDocumentTypes", [])
        extensions = set(x for ts in declared.values() for x in ts)
        extensions |= set(x.lower() for d in types for x in d.get("CFBundleTypeExtensions", []))
        out = {}
        for e in sorted(extensions):
            if not e: continue
            out[e] = [i for i, d in enumerate(types)
                      if e in [x.lower() for x in d.get("CFBundleTypeExtensions", [])]
                      or any(e in declared.get(c, []) for c in d.get("LSItemContentTypes", []))]
        print(json.dumps(out))
        """
        let python = try #require(which("python3"), "python3 is not installed")
        let result = try run(python, ["-c", script, file.path])
        try #require(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        return try JSONDecoder().decode([String: [Int]].self, from: result.stdout)
    }

    @Test("real Info.plists: document types and declared content types read; extensions matched as plistlib computes them")
    func realInfoPlists() throws {
        for name in ["iina+iina/iina__Info.plist", "adium+adium/Frameworks__AIUtilities__Other__Adium Spotlight Importer__Info.plist"] {
            let file = Self.realworld.appendingPathComponent(name)
            let declarations = try AppDeclarations(infoPlist: try Document.read(document: Array(try Data(contentsOf: file))).value)
            let expected = try Self.peerMatches(file)
            #expect(!declarations.documentTypes.isEmpty, "\(name)")
            for (pathExtension, indexes) in expected {
                #expect(declarations.documentTypes(forExtension: pathExtension).map(\.index) == indexes, "\(name): .\(pathExtension)")
                #expect(declarations.documentTypes(forExtension: pathExtension.uppercased()).map(\.index) == indexes, "\(name): .\(pathExtension) upper-cased")
            }
            if name.hasPrefix("iina") {
                // Its exported and imported content types are read with their extensions.
                #expect(expected.count > 50)
                #expect(declarations.declaredExtensions["io.iina.iinaplugin"] == ["iinaplugin"])
                #expect(declarations.declaredExtensions["io.iina.flash"] == ["flv", "f4v", "f4p", "f4a", "f4b"])
                #expect(declarations.documentTypes(forExtension: "iinaplugin").map(\.contentTypes).contains(["io.iina.iinaplugin"]))
            }
        }
    }

    @Test("undeclaredDocumentType and documentActivityMismatch on IINA's document types given activity types")
    func documentTypesChecked() throws {
        let file = Self.realworld.appendingPathComponent("iina+iina/iina__Info.plist")
        guard case .dictionary(var info) = try Document.read(document: Array(try Data(contentsOf: file))).value,
              case .array(var types) = info["CFBundleDocumentTypes"], case .dictionary(var matroska) = types[0] else {
            Issue.record("IINA's Info.plist has no document types")
            return
        }
        // Matroska video (mkv, mka, mk3d, mks) continues io.iina.watch; the others declare none.
        matroska["NSUbiquitousDocumentUserActivityType"] = "io.iina.watch"
        types[0] = .dictionary(matroska)
        info["CFBundleDocumentTypes"] = .array(types)
        let declarations = try AppDeclarations(infoPlist: .dictionary(info))
        func document(_ name: String, _ type: String) -> DocumentActivity {
            DocumentActivity(activityType: type, documentURL: UserInfoURL(relative: "file:///private/var/mobile/Library/Mobile%20Documents/iCloud~io~iina/Documents/" + name))
        }
        try declarations.accept(document: document("Film.MKV", "io.iina.watch"))
        #expect(throws: PayloadError(.documentActivityMismatch, "")) { try declarations.accept(document: document("Film.mkv", "io.iina.other")) }
        // mka is also Matroska audio (no activity type): one of the matches declaring it is enough.
        try declarations.accept(document: document("Song.mka", "io.iina.watch"))
        // rmvb is only Real Media, which declares none.
        do {
            try declarations.accept(document: document("Clip.rmvb", "io.iina.watch"))
            Issue.record("accepted a document whose type declares no activity type")
        } catch {
            #expect(error.code == .documentActivityMismatch)
            #expect(error.reason.contains("declares no activity type"))
        }
        #expect(throws: PayloadError(.undeclaredDocumentType, "")) { try declarations.accept(document: document("Notes.plan", "io.iina.watch")) }
        #expect(throws: PayloadError(.undeclaredDocumentType, "")) { try declarations.accept(document: document("README", "io.iina.watch")) }
        #expect(declarations.allActivityTypes == ["io.iina.watch"])
    }

    @Test("lint: undeclaredContentType for a document type with an activity type; system types need no declaration")
    func contentTypesDeclared() throws {
        let info: PropertyListValue = [
            "CFBundleDocumentTypes": [
                ["CFBundleTypeName": "Plan", "LSItemContentTypes": ["com.example.planner.plan", "public.json"],
                 "NSUbiquitousDocumentUserActivityType": "com.example.planner.document"],
                ["CFBundleTypeName": "Other", "LSItemContentTypes": ["com.example.undeclared.other"]],
                ["CFBundleTypeName": "Sketch", "LSItemContentTypes": ["com.example.sketch"], "NSUbiquitousDocumentUserActivityType": "com.example.planner.document"],
            ],
            "UTExportedTypeDeclarations": [
                ["UTTypeIdentifier": "com.example.planner.plan", "UTTypeConformsTo": ["public.data"],
                 "UTTypeTagSpecification": ["public.filename-extension": ["plan"], "public.mime-type": "application/x-plan"]],
            ],
        ]
        let declarations = try AppDeclarations(infoPlist: info)
        #expect(declarations.problems().map(\.code) == [.undeclaredContentType])
        #expect(declarations.problems().first?.reason.contains("com.example.sketch") == true)
        // The exported type's extension (a single string is read too) matches its document type.
        #expect(declarations.documentTypes(forExtension: "PLAN").map(\.index) == [0])
        let single = try AppDeclarations(infoPlist: ["UTImportedTypeDeclarations": [["UTTypeIdentifier": "x.y", "UTTypeTagSpecification": ["public.filename-extension": "xy"]]]])
        #expect(single.declaredExtensions == ["x.y": ["xy"]])
        // Shapes Xcode never writes are refused, by place.
        for (bad, place) in [(["CFBundleDocumentTypes": [["LSItemContentTypes": "public.json"]]], "CFBundleDocumentTypes.0.LSItemContentTypes"),
                             (["UTExportedTypeDeclarations": [["UTTypeIdentifier": 3]]], "UTExportedTypeDeclarations.0.UTTypeIdentifier"),
                             (["UTImportedTypeDeclarations": [["UTTypeIdentifier": "a", "UTTypeTagSpecification": ["public.filename-extension": [1]]]]],
                              "UTImportedTypeDeclarations.0.UTTypeTagSpecification.public\\.filename-extension.0")] as [(PropertyListValue, String)] {
            do {
                _ = try AppDeclarations(infoPlist: bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == .malformedDeclarations)
                #expect(error.reason.hasPrefix(place + " is "), "\(error.reason)")
            }
        }
    }
}
