import Foundation
import PropertyList
import TestSupport
import Testing

/// Document-based Handoff from the command line (Specs/payload.md, "Document
/// activities"): the README's worked example for a document-based app, and
/// each refusal of `payload check --info-plist` and `lint --handoff`.
@Suite("plistkit: document activities")
struct DocumentHandoffCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The README's Info.plist: one document type, its exported content type.
    static let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>CFBundleDocumentTypes</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>CFBundleTypeName</key>
        \t\t\t<string>Plan</string>
        \t\t\t<key>LSItemContentTypes</key>
        \t\t\t<array>
        \t\t\t\t<string>com.example.planner.plan</string>
        \t\t\t</array>
        \t\t\t<key>NSUbiquitousDocumentUserActivityType</key>
        \t\t\t<string>com.example.planner.document</string>
        \t\t</dict>
        \t</array>
        \t<key>UTExportedTypeDeclarations</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>UTTypeIdentifier</key>
        \t\t\t<string>com.example.planner.plan</string>
        \t\t\t<key>UTTypeTagSpecification</key>
        \t\t\t<dict>
        \t\t\t\t<key>public.filename-extension</key>
        \t\t\t\t<array>
        \t\t\t\t\t<string>plan</string>
        \t\t\t\t</array>
        \t\t\t</dict>
        \t\t</dict>
        \t</array>
        </dict>
        </plist>

        """

    @Test("the README's example: made on macOS with --document, accepted by the app's Info.plist, opened in the iOS container")
    func workedExample() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let info = directory.appendingPathComponent("Info.plist")
        try Data(Self.infoPlist.utf8).write(to: info)
        // Written in Xcode's layout: plutil would write these bytes back as they are.
        #expect(try run(CLITests.plistkit, ["convert", info.path, "--format", "xml1"]).stdout == Data(Self.infoPlist.utf8))
        let lint = try run(CLITests.plistkit, ["lint", "--handoff", info.path])
        #expect(Self.text(lint.stdout) == "\(info.path): OK\n")
        let envelope = directory.appendingPathComponent("doc.json")
        try Data(#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.document"},"userInfo":{"type":"dict","value":{"zoom":{"type":"real","value":"1.25"}}}}}"#.utf8).write(to: envelope)
        let payload = directory.appendingPathComponent("doc.payload").path
        func encode(_ document: String, to file: String) throws -> (status: Int32, stdout: Data, stderr: Data) {
            try run(CLITests.plistkit, ["payload", "encode", envelope.path, "--document", document,
                                        "--layout", "macos:/Users/ada", "--container", "iCloud.com.example.Planner", "-o", file])
        }
        let encoded = try encode("file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan", to: payload)
        #expect(encoded.status == 0, "\(Self.text(encoded.stderr))")
        let receiver = ["--layout", "ios", "--container", "iCloud.com.example.Planner"]
        let checked = try run(CLITests.plistkit, ["payload", "check", payload, "--info-plist", info.path] + receiver)
        #expect(checked.status == 0, "\(Self.text(checked.stderr))")
        let decoded = try run(CLITests.plistkit, ["payload", "decode", payload] + receiver)
        #expect(decoded.status == 0)
        let envelopeOut = try #require(try JSONSerialization.jsonObject(with: decoded.stdout) as? [String: Any])
        let userInfo = try #require(((envelopeOut["value"] as? [String: Any])?["userInfo"] as? [String: Any])?["value"] as? [String: Any])
        #expect((userInfo["NSUserActivityDocumentURL"] as? [String: Any])?["relative"] as? String
                == "file:///private/var/mobile/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan")
        #expect(userInfo["zoom"] != nil)

        // Refusals: a document of no declared type; one whose type continues another activity.
        let notes = directory.appendingPathComponent("notes.payload").path
        #expect(try encode("file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Notes.txt", to: notes).status == 0)
        let undeclared = try run(CLITests.plistkit, ["payload", "check", notes, "--info-plist", info.path] + receiver)
        #expect(undeclared.status == 1)
        #expect(Self.text(undeclared.stderr).contains(#": undeclaredDocumentType: the document has the extension ".txt""#))
        let other = directory.appendingPathComponent("other.json")
        try Data(#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.browse"},"userInfo":{"type":"dict","value":{}}}}"#.utf8).write(to: other)
        #expect(try run(CLITests.plistkit, ["insert", "NSUserActivityTypes", info.path, "--json", #"["com.example.planner.browse"]"#]).status == 0)
        let browse = directory.appendingPathComponent("browse.payload").path
        #expect(try run(CLITests.plistkit, ["payload", "encode", other.path, "--document",
                                            "file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan",
                                            "--layout", "macos:/Users/ada", "--container", "iCloud.com.example.Planner", "-o", browse]).status == 0)
        let mismatch = try run(CLITests.plistkit, ["payload", "check", browse, "--info-plist", info.path] + receiver)
        #expect(mismatch.status == 1)
        #expect(Self.text(mismatch.stderr).contains(#": documentActivityMismatch: the document (the extension ".plan") is of the document type "Plan", which declares "com.example.planner.document", not "com.example.planner.browse""#))
        // Sending: a file in no synced container, a URL that is no file, a userInfo that has the key already.
        #expect(Self.text(try encode("file:///Users/ada/Desktop/Trip.plan", to: notes).stderr).contains(": fileOutsideContainer: "))
        #expect(Self.text(try encode("https://example.com/Trip.plan", to: notes).stderr).contains(": documentNotFileURL: "))
        try Data(#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.document"},"userInfo":{"type":"dict","value":{"NSUserActivityDocumentURL":{"type":"string","value":"x"}}}}}"#.utf8).write(to: envelope)
        #expect(Self.text(try encode("file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/Trip.plan", to: notes).stderr)
            .contains(": documentKeyInUse: "))
        // lint --handoff: a document type's content type nobody declares.
        #expect(try run(CLITests.plistkit, ["insert", "CFBundleDocumentTypes.0.LSItemContentTypes.1", info.path, "--string", "com.example.sketch"]).status == 0)
        #expect(Self.text(try run(CLITests.plistkit, ["lint", "--handoff", info.path]).stdout).contains(": undeclaredContentType: "))
    }
}
