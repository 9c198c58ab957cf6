import ActivityContainer
import Foundation
import PropertyList
import TestSupport
import Testing

/// A field word and its bytes (TestSupport's, built by hand from the spec).
func field(_ bytes: [UInt8]?) -> [UInt8] { containerField(bytes) }

func containerError(_ bytes: [UInt8], maxBytes: Int = 1 << 20) -> ActivityContainerError? {
    do {
        _ = try ActivityContainerReader(maxBytes: maxBytes).read(Data(bytes))
        return nil
    } catch {
        return error
    }
}

@Suite("Activity container: Specs/activity-container.md")
struct ActivityContainerTests {
    static let json = Array(#"{"teamID":"","type":"com.example.browse"}"#.utf8)
    static let header: [UInt8] = [1, 0, 0, 0]

    @Test("a hand-built container reads field by field, and the writer gives the same bytes")
    func handBuilt() throws {
        let userInfo: [UInt8] = [0x4D, 0x50, 0x03, 0x05, 0x80]
        let json = Array(#"{"teamID":"ABCDE12345","type":"com.example.browse","persistentID":"p1","targetContentID":"t/1"}"#.utf8)
        let bytes = Self.header + field(Array("Trip".utf8)) + field(userInfo) + field(json)
            + field(Array("https://example.com/a".utf8)) + field([9, 8, 7])
        let record = ActivityRecord(activityType: "com.example.browse", teamID: "ABCDE12345", title: "Trip", userInfo: Data(userInfo),
                                    persistentID: "p1", targetContentID: "t/1", webpageURL: "https://example.com/a", streamsEndpoint: Data([9, 8, 7]))
        #expect(try ActivityContainerReader().read(Data(bytes)) == .activity(record))
        #expect(try ActivityContainerWriter().write(.activity(record)) == Data(bytes))
        // Absent fields are zero words.
        let minimal = Self.header + field(nil) + field(nil) + field(Self.json) + field(nil) + field(nil)
        let bare = ActivityRecord(activityType: "com.example.browse")
        #expect(try ActivityContainerReader().read(Data(minimal)) == .activity(bare))
        #expect(try ActivityContainerWriter().write(.activity(bare)) == Data(minimal))
        // The error packet: one field.
        let packet: [UInt8] = [0x0F, 0, 0, 0] + field([1, 2, 3])
        #expect(try ActivityContainerReader().read(Data(packet)) == .errorPacket(Data([1, 2, 3])))
        #expect(try ActivityContainerWriter().write(.errorPacket(Data([1, 2, 3]))) == Data(packet))
        // The JSON field's strings, escaped where JSON needs it (a quote, a backslash, a C0 control), raw elsewhere.
        let escaped = ActivityRecord(activityType: "com.example.browse", teamID: "T\"1\\", persistentID: "p\u{1}é\u{7F}")
        let escapedJSON = Array(#"{"teamID":"T\"1\\","type":"com.example.browse","persistentID":"p\u0001é"#.utf8) + [0x7F] + Array(#""}"#.utf8)
        let escapedBytes = Self.header + field(nil) + field(nil) + field(escapedJSON) + field(nil) + field(nil)
        #expect(try ActivityContainerWriter().write(.activity(escaped)) == Data(escapedBytes))
        #expect(try ActivityContainerReader().read(Data(escapedBytes)) == .activity(escaped))
    }

    @Test("packets of 2,049 bytes or more are compressed when smaller (BZh1), and read back")
    func compression() throws {
        let small = ActivityRecord(activityType: "com.example.browse", userInfo: Data(repeating: 0x41, count: 1900))
        let smallBytes = try ActivityContainerWriter().write(.activity(small))
        #expect(smallBytes.count < 2049)
        #expect(Array(smallBytes.prefix(4)) == [1, 0, 0, 0])
        let large = ActivityRecord(activityType: "com.example.browse", userInfo: Data(repeating: 0x41, count: 3000))
        let largeBytes = try ActivityContainerWriter().write(.activity(large))
        #expect(Array(largeBytes.prefix(4)) == [1, 1, 0, 0])
        #expect(Array(largeBytes[4..<8]) == Array("BZh1".utf8))
        #expect(largeBytes.count < 3000)
        let (container, details) = try ActivityContainerReader().inspect(largeBytes)
        #expect(container == .activity(large))
        #expect(details.compressedBytes == largeBytes.count - 4)
        #expect(try ActivityContainerWriter(compression: .never).write(.activity(large)).count > 3000)
        // Random bytes do not compress: kept as they are.
        var rng = TestRandom(seed: 4303)
        let noise = ActivityRecord(activityType: "com.example.browse", userInfo: Data((0..<4000).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        #expect(Array(try ActivityContainerWriter().write(.activity(noise)).prefix(4)) == [1, 0, 0, 0], "\(rng)")
    }

    @Test("the bzip2 tool's stream of the fields reads (a peer's compression)")
    func peerCompression() throws {
        let fields = field(Array("Title".utf8)) + field([UInt8](repeating: 0x42, count: 5000)) + field(Self.json) + field(nil) + field(nil)
        let result = try launch("/usr/bin/env", ["bzip2", "-9", "-c"], stdin: Data(fields))
        try #require(result.status == 0)
        let packet = [1, 1, 0, 0] + [UInt8](result.stdout)
        let record = ActivityRecord(activityType: "com.example.browse", title: "Title", userInfo: Data(repeating: 0x42, count: 5000))
        #expect(try ActivityContainerReader().read(Data(packet)) == .activity(record))
    }

    @Test("a bzip2 bomb (1 GB of zeros in under 1 KB) is refused after inflating 1 MiB, in bounded work")
    func bomb() throws {
        // The bzip2 tool writes it: 2³⁰ zeros at block size 9, streamed from /dev/zero.
        let result = try launch("/bin/sh", ["-c", "head -c 1073741824 /dev/zero | bzip2 -9 -c"])
        try #require(result.status == 0)
        #expect(result.stdout.count < 1024)
        let packet = Data([1, 1, 0, 0]) + result.stdout
        #expect(containerError([UInt8](packet))?.code == .inflatedTooLarge)
        // Counted, not timed (was: under 100 ms): plistkit payload decode stops
        // after the payload cap's 1 MiB, within a bounded count of instructions
        // past its start (about 30 a byte inflated).
        let counted = try WorkCount.plistkit(["payload", "decode", "{}"], input: [UInt8](packet))
        #expect(counted.status == 1)
        let work = counted.count - WorkCount.startup(for: ["payload", "decode", "{}"])
        print("bzip2 bomb: \(work) instructions beyond start-up")
        #expect(work < 100_000_000, "\(work) instructions")
    }

    @Test("framing rules: truncated, badContainerHeader, badFieldTag, badFieldCount, trailingBytes, emptyField")
    func framing() {
        let good = Self.header + field(nil) + field(nil) + field(Self.json) + field(nil) + field(nil)
        #expect(containerError([1, 0])?.code == .truncated)
        for cut in 0..<good.count {
            let error = containerError(Array(good[..<cut]))
            #expect(error?.code == .truncated || error?.code == .badFieldCount, "cut at \(cut): \(String(describing: error))")
        }
        for header: [UInt8] in [[2, 0, 0, 0], [1, 2, 0, 0], [0x1F, 0, 0, 0], [1, 0, 0, 1]] {
            #expect(containerError(header + Array(good[4...]))?.code == .badContainerHeader)
        }
        let tag = containerError(Self.header + [5, 0, 0, 2, 1, 2, 3, 4, 5])
        #expect(tag?.code == .badFieldTag)
        #expect(tag?.location == .byteOffset(4))
        #expect(tag?.keyPath == PropertyListKeyPath([.key("title")]))
        #expect(containerError(Self.header + [0, 0, 0, 1] + Array(good[8...]))?.code == .badFieldTag)
        let count = containerError(Self.header + field(nil) + field(nil) + field(Self.json))
        #expect(count?.code == .badFieldCount)
        #expect(count?.keyPath == PropertyListKeyPath([.key("webpageURL")]))
        #expect(containerError([0x0F, 0, 0, 0] + field(nil))?.code == .badFieldCount)
        let trailing = containerError(good + [0])
        #expect(trailing?.code == .trailingBytes)
        #expect(trailing?.location == .byteOffset(good.count))
        #expect(containerError(good + field([1]))?.code == .trailingBytes)
        #expect(throws: ActivityContainerError(.emptyField, "")) {
            try ActivityContainerWriter().write(.activity(ActivityRecord(activityType: "a", title: "")))
        }
        #expect(throws: ActivityContainerError(.emptyField, "")) { try ActivityContainerWriter().write(.errorPacket(Data())) }
        #expect(throws: ActivityContainerError(.fieldTooLarge, "")) {
            try ActivityContainerWriter(compression: .never).write(.activity(ActivityRecord(activityType: "a", userInfo: Data(count: 1 << 24))))
        }
        #expect(containerError(good, maxBytes: 10)?.code == .inputTooLarge)
        #expect(containerError(good, maxBytes: -1)?.code == .invalidLimits)
    }

    @Test("field rules: invalidUTF8, invalidWebpageURL, invalidActivityJSON, badCompression")
    func fields() {
        func activity(title: [UInt8]? = nil, json: [UInt8]? = ActivityContainerTests.json, url: [UInt8]? = nil) -> [UInt8] {
            Self.header + field(title) + field(nil) + field(json) + field(url) + field(nil)
        }
        let utf8 = containerError(activity(title: [0xFF]))
        #expect(utf8?.code == .invalidUTF8)
        #expect(utf8?.keyPath == PropertyListKeyPath([.key("title")]))
        for url in ["ftp://example.com/", "javascript:alert(1)", "https://", "example.com"] {
            #expect(containerError(activity(url: Array(url.utf8)))?.code == .invalidWebpageURL, "\(url)")
        }
        #expect(containerError(activity(url: Array("HTTPS://example.com/".utf8))) == nil)
        let badJSON = [#"{"teamID":"","type":"a""#, #"["a"]"#, #"{"teamID":"","type":"a","other":"x"}"#, #"{"teamID":"","type":1}"#,
                       #"{"teamID":"","type":"a","type":"b"}"#, #"{"teamID":""}"#, #"{"type":"a"}"#,
                       #"{"teamID":"","type":"a","persistentID":""}"#, #"{"teamID":"","type":"a"} x"#]
        for json in badJSON {
            #expect(containerError(activity(json: Array(json.utf8)))?.code == .invalidActivityJSON, "\(json)")
        }
        #expect(containerError(activity(json: nil))?.code == .invalidActivityJSON)
        #expect(throws: ActivityContainerError(.invalidWebpageURL, "")) {
            try ActivityContainerWriter().write(.activity(ActivityRecord(activityType: "a", webpageURL: "file:///etc/passwd")))
        }
        #expect(throws: ActivityContainerError(.invalidActivityJSON, "")) {
            try ActivityContainerWriter().write(.activity(ActivityRecord(activityType: "a", persistentID: "")))
        }
        // Compression: not bzip2, cut short, followed by more bytes.
        #expect(containerError([1, 1, 0, 0, 1, 2, 3, 4])?.code == .badCompression)
        let fields = Array(activity()[4...])
        let stream = [UInt8]((try? launch("/usr/bin/env", ["bzip2", "-c"], stdin: Data(fields)).stdout) ?? Data())
        #expect(stream.count > 10)
        #expect(containerError([1, 1, 0, 0] + stream) == nil)
        #expect(containerError([1, 1, 0, 0] + stream.dropLast(3))?.code == .badCompression)
        #expect(containerError([1, 1, 0, 0] + stream + [0])?.code == .badCompression)
    }
}
