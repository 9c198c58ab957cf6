import Foundation
import KeyedArchive
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// Our archives open in Linux Foundation's NSKeyedUnarchiver (secure coding,
/// the ten classes, in a child process); peer-written archives open in ours.
@Suite("Keyed archives against peers")
struct ArchivePeerTests {
    static let goldenDirectory = Paths.golden.appendingPathComponent("keyed")

    static func golden(_ writer: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: goldenDirectory.appendingPathComponent(writer).path)) ?? []
        return entries.filter { $0.hasSuffix(".bplist") }.map { "\(writer)/\($0.dropLast(7))" }.sorted()
    }

    @Test("the golden archives are present")
    func present() {
        #expect(Self.golden("foundation").count >= 8)
        #expect(Self.golden("bpylist2").count >= 4)
    }

    @Test("archives by Linux Foundation and bpylist2 decode to the values their generators recorded",
          arguments: golden("foundation") + golden("bpylist2"))
    func goldenArchives(_ name: String) throws {
        let archive = try Data(contentsOf: Self.goldenDirectory.appendingPathComponent("\(name).bplist"))
        let expected = try PeerTypedJSON.userInfo(from: Data(contentsOf: Self.goldenDirectory.appendingPathComponent("\(name).json")))
        let decoded = try KeyedArchiveReader().read(archive)
        #expect(peerEqual(decoded, expected), "\(decoded)\nexpected\n\(expected)")
    }

    @Test("Foundation's NSKeyedUnarchiver reads our archives of golden and generated values as written")
    func foundationReadsOurArchives() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var values: [(String, UserInfoValue)] = []
        for name in Self.golden("foundation") + Self.golden("bpylist2") {
            values.append((name, try KeyedArchiveReader().read(Data(contentsOf: Self.goldenDirectory.appendingPathComponent("\(name).bplist")))))
        }
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (7, 8, 9, 10))
        let generator = UserInfoGenerator(peerSafe: true)
        for index in 0..<80 { values.append(("generated-\(index)", generator.value(depth: 0, using: &rng))) }
        var files: [URL] = []
        for (index, (_, value)) in values.enumerated() {
            let file = directory.appendingPathComponent("\(index).bplist")
            try KeyedArchiveWriter().write(value).write(to: file)
            files.append(file)
        }
        let readings = try Peers.foundationUnarchive(files)
        for ((name, value), reading) in zip(values, readings) {
            switch reading {
            case .success(let read):
                // Linux Foundation resolves URLs inside collections when it bridges them to Swift
                // (Specs/known-deviations.md), so URLs are compared by the absolute URL they name.
                #expect(peerEqual(Self.absoluteURLs(read), Self.absoluteURLs(value)), "Foundation read \(name) as\n\(read)\nwe wrote\n\(value)")
            case .failure(let failure):
                Issue.record("Foundation refused \(name): \(failure)")
            }
        }
    }


    @Test("Foundation's NSKeyedUnarchiver keeps a URL's base and relative string as we archive them")
    func foundationKeepsURLBase() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("url.bplist")
        let value = UserInfoValue.url(UserInfoURL(relative: "doc?id=1", base: UserInfoURL(relative: "https://www.example.com/dir/")))
        try KeyedArchiveWriter().write(value).write(to: file)
        #expect(try Peers.foundationUnarchive([file]).first.flatMap { try? $0.get() } == value)
    }

    /// The value with every URL replaced by the absolute URL it names.
    static func absoluteURLs(_ value: UserInfoValue) -> UserInfoValue {
        switch value {
        case .url(let url): return .url(UserInfoURL(relative: url.url?.absoluteString ?? url.relative))
        case .array(let elements): return .array(elements.map(absoluteURLs))
        case .set(let set): return .set(UserInfoSet(set.members.map(absoluteURLs)))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(absoluteURLs))
        default: return value
        }
    }
}
