import DocumentFormats
import Foundation
import KeyedArchive
import PropertyList
import PropertyListOpenStep
import TestSupport
import Testing

/// What Apple's tools wrote comes back byte for byte (Specs/openstep.md, "Xcode
/// projects"; Specs/xml-plist.md, "Writer"), checked against their own files.
@Suite("Real files: Apple's layouts, byte for byte")
struct RealLayoutTests {
    typealias Entry = RealWorldTests.Entry

    /// Projects that Xcode did not write as they are, and what each one is;
    /// each reason is checked to hold for its file.
    enum ProjectException {
        /// A pre-Xcode-3 `.xcode` project (objectVersion 39: no sections, no
        /// reference comments, `isa` among the sorted keys): written in Xcode's
        /// current layout instead, deterministically.
        case preXcode3
        /// A copy renamed after Xcode wrote it: its text records the name of the
        /// project it was copied from, and comes back byte for byte with that name.
        case renamedCopy(recordedName: String)
        /// One line edited by hand after Xcode wrote it (Xcode would write it otherwise).
        case handEdited(line: String)
    }

    static let projectExceptions: [String: ProjectException] = [
        "adium+adium/Plugins__Bonjour__libezv__libezv.xcode__project.pbxproj": .preXcode3,
        "adium+adium/hist-675b697b0e__offlinegroup__Plugins__SQL Logger__Metacontact Importer__Metacontact Importer.xcode__project.pbxproj": .preXcode3,
        "adium+adium/Frameworks__AutoHyperlinks Framework__AutoHyperlinks.framework.wtf.xcodeproj__project.pbxproj": .renamedCopy(recordedName: "AutoHyperlinks.framework"),
        // A path with no character Xcode quotes, quoted.
        "realm+realm-swift/examples__installation__Static__StaticExample.xcodeproj__project.pbxproj":
            .handEdited(line: "path = \"../../../build/Static/Realm.xcframework\";"),
    ]

    static func exception(_ entry: Entry) -> ProjectException? {
        projectExceptions.first { entry.name.hasSuffix($0.key) }?.value
    }

    static func lines(_ bytes: [UInt8]) -> [Substring] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("every project Xcode wrote comes back byte for byte, named from its .xcodeproj's path; the others are named and put into Xcode's layout")
    func xcodeProjects() throws {
        let entries = try RealWorldTests.entries("pbxproj")
        #expect(entries.count == 81)
        var identical = 0
        for entry in entries {
            let original = try RealWorldTests.bytes(entry)
            let reading = try Document.read(document: original)
            #expect(reading.format == .xcodeProject)
            // As plistkit names it: from the path (NAME.xcodeproj/project.pbxproj), else as
            // the text records it (Realm renamed two bundles `.notxcodeproj` to hide them from Xcode).
            let name = Document.xcodeProjectName(given: nil, path: entry.originalPath, input: original)
            #expect(name == XcodeProject.name(forPath: entry.originalPath) || entry.originalPath.contains(".notxcodeproj/"))
            let written = try Document.writeBytes(reading.value, as: .xcodeProject, projectName: name)
            // Whatever the input, our output is a fixed point: read and written again, the same bytes.
            #expect(try Document.writeBytes(try Document.read(document: written).value, as: .xcodeProject, projectName: name) == written,
                    "\(entry.name): not deterministic")
            switch Self.exception(entry) {
            case nil:
                #expect(written == original, "\(entry.name): differs from what Xcode wrote")
                if written == original { identical += 1 }
            case .preXcode3?:
                let text = String(decoding: original, as: UTF8.self)
                #expect(text.contains("objectVersion = 39;") && !text.contains("/* Begin "), "\(entry.name) is not a pre-Xcode-3 project")
                #expect(String(decoding: written, as: UTF8.self).contains("/* Begin PBXProject section */"))
            case .renamedCopy(let recorded)?:
                #expect(XcodeProject.recordedName(in: original) == recorded && recorded != name, "\(entry.name): not a renamed copy")
                #expect(try Document.writeBytes(reading.value, as: .xcodeProject, projectName: recorded) == original)
            case .handEdited(let line)?:
                let (theirs, ours) = (Self.lines(original), Self.lines(written))
                #expect(theirs.count == ours.count)
                let differing = zip(theirs, ours).filter { $0 != $1 }
                #expect(differing.count == 1 && differing.first?.0.contains(line) == true, "\(entry.name): \(differing)")
            }
        }
        #expect(identical == 77)
    }

    /// XML plists not in CoreFoundation's current layout, and what each one is;
    /// each reason is checked to hold for its file.
    enum XMLException {
        /// Mac OS X 10.0–10.3's writer: the "Apple Computer" public identifier,
        /// empty containers as an open and a close tag.
        case appleComputerDoctype
        /// Reals in the shortest form that reads back (Xcode's test-baseline
        /// writer); CoreFoundation writes 17 significant digits.
        case shortestReals
        /// Written by another tool or edited by hand: indentation other than tabs,
        /// or entity references (`&apos;`, `&quot;`) that Apple's writer never uses.
        case notApples(String)
    }

    static let xmlExceptions: [String: XMLException] = [
        "Alamofire+Alamofire/docs__docsets__Alamofire.docset__Contents__Info.plist": .notApples("  <dict>"),
        "CocoaLumberjack+CocoaLumberjack/Integration__macOSSwiftIntegration__macOSSwiftIntegration.entitlements": .notApples("    <key>"),
        "ViennaRSS+vienna-rss/Vienna.xcodeproj__xcshareddata__IDETemplateMacros.plist": .notApples("&quot;"),
        "ViennaRSS+vienna-rss/Vienna__Resources__DemoFeeds.plist": .notApples("&apos;"),
        "iina+iina/iina__Info.plist": .notApples("&apos;"),
        "adium+adium/Plugins__Purple Service__PurpleDefaultsGroupWise.plist": .appleComputerDoctype,
        "adium+adium/Plugins__Purple Service__Resources__es.lproj__ESPurpleMeanwhileAccountView.nib__info.nib": .appleComputerDoctype,
        "adium+adium/Plugins__WebKit Message View__WebKitAdvancedPreferencesView.nib__info.nib": .appleComputerDoctype,
        "adium+adium/Resources__AccountPrefs.plist": .appleComputerDoctype,
        "realm+realm-swift/Realm.xcodeproj__xcshareddata__xcbaselines__5D660FD71BE98C7C0021E04F.xcbaseline__6890B8D9-CE81-403E-8EF6-B95A367D65B5.plist": .shortestReals,
        "realm+realm-swift/Realm.xcodeproj__xcshareddata__xcbaselines__E856D1DE195614A400FB2FCF.xcbaseline__2EB6396F-9FD1-4243-AA83-2D9F9D4DD919.plist": .shortestReals,
    ]

    @Test("every XML plist in CoreFoundation's layout comes back byte for byte (keys sorted, or in the file's own order)")
    func xmlPlists() throws {
        let entries = try RealWorldTests.entries("xml")
        var identical = 0
        for entry in entries {
            let original = try RealWorldTests.bytes(entry)
            let value = try Document.read(document: original).value
            let sorted = try Document.writeBytes(value, as: .xml)
            let insertion = try Document.writeBytes(value, as: .xml, keyOrder: .insertion)
            let same = sorted == original || insertion == original
            let text = String(decoding: original, as: UTF8.self)
            switch xmlException(entry) {
            case nil:
                #expect(same, "\(entry.name): differs from what Apple's tools wrote")
                if same { identical += 1 }
            case .appleComputerDoctype?:
                #expect(text.contains("-//Apple Computer//DTD PLIST 1.0//EN") && !same, "\(entry.name)")
            case .shortestReals?:
                let reals = text.components(separatedBy: "<real>").dropFirst().map { $0.prefix { $0 != "<" } }
                #expect(!reals.isEmpty && reals.allSatisfy { $0.filter(\.isNumber).count < 17 } && !same, "\(entry.name)")
            case .notApples(let mark)?:
                #expect(text.contains(mark) && !same, "\(entry.name)")
            }
        }
        #expect(identical == entries.count - Self.xmlExceptions.count)
    }

    func xmlException(_ entry: Entry) -> XMLException? {
        Self.xmlExceptions.first { entry.name.hasSuffix($0.key) }?.value
    }

    @Test(".strings files in UTF-16 (both byte orders) and UTF-8 (with and without a mark) are written back in their encoding, and over themselves byte for byte")
    func stringsFiles() throws {
        var encodings: [TextEncoding: Int] = [:]
        var commentOnly = 0, identical = 0
        for entry in try RealWorldTests.entries("strings") where RealWorldTests.expectedRefusal(entry) == nil {
            let original = try RealWorldTests.bytes(entry)
            let reading = try Document.read(document: original)
            #expect(reading.format == .strings, "\(entry.name)")
            let encoding = try #require(reading.textEncoding)
            encodings[encoding, default: 0] += 1
            if reading.value == .dictionary([:]) { commentOnly += 1 }
            let written = try Document.writeBytes(reading.value, as: .strings, keyOrder: .insertion, textEncoding: encoding)
            #expect(Array(written.prefix(encoding.byteOrderMark.count)) == encoding.byteOrderMark)
            let back = try Document.read(document: written)
            #expect(back.value == reading.value && back.textEncoding == encoding && back.format == .strings, "\(entry.name)")
            // The file's own order is kept.
            #expect(back.value.dictionaryValue?.keys.elementsEqual(reading.value.dictionaryValue?.keys ?? []) == true)
            // Written over itself (as an edit that changes nothing), byte for byte, comments and all.
            #expect(try Document.writeBytes(reading.value, as: .strings, keyOrder: .insertion, textEncoding: encoding, over: reading) == original,
                    "\(entry.name)")
            identical += 1
        }
        #expect(identical == 102)
        // The corpus holds every encoding Apple's tools write .strings in, and Xcode's comment-only template.
        #expect(Set(encodings.keys) == Set(TextEncoding.allCases), "\(encodings)")
        #expect(commentOnly > 0)
    }

    @Test("every archive reads as a graph with all its $top keys (Xcode's State, a nib's IB.objectdata)")
    func archivesAsGraphs() throws {
        var tops: Set<[String]> = []
        for entry in try RealWorldTests.entries("archive") where RealWorldTests.expectedRefusal(entry) == nil {
            let plist = try Document.read(document: try RealWorldTests.bytes(entry)).value
            let graph = try KeyedArchiveGraph(archive: plist)
            let keys = Array(graph.top.keys).sorted()
            tops.insert(keys)
            // Each $top reference names an object, shown in the rendering with every key.
            for case .uid(let uid) in graph.top.values { #expect(Int(uid) < graph.objects.count) }
            #expect(try graph.rendered()["top"]?.dictionaryValue?.count == keys.count)
            // Not an archive of one userInfo value: no root for the ten-type reader.
            #expect(graph.root == nil)
        }
        #expect(tops == [["State"], ["IB.objectdata"], ["IB.objectdata", "IB.systemFontUpdateVersion"]])
    }
}
