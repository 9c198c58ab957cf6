import Foundation
import KeyedArchive
import MPUserInfo
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// MP bytes: the header, then `body`.
func mp(_ body: [UInt8]) -> [UInt8] { [0x4D, 0x50, 0x03, 0x05] + body }

/// The error reading `bytes`, or nil when they read.
func mpError(_ bytes: [UInt8], limits: PropertyListLimits = .default) -> UserInfoError? {
    do {
        _ = try MPUserInfoReader(limits: limits).read(bytes)
        return nil
    } catch {
        return error
    }
}

@Suite("MP userInfo: Specs/mp-userinfo.md")
struct MPUserInfoTests {
    // MARK: The vectors of BRIEF §7.1, built by hand

    static let briefVectors: [(UserInfoDictionary, [UInt8])] = [
        (["d": .date(Date(timeIntervalSinceReferenceDate: 1))],
         mp([0x81, 0xA1, 0x64, 0xD7, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F])),
        (["s": .set([1])], mp([0x81, 0xA1, 0x73, 0xC7, 0x02, 0x00, 0x91, 0x01])),
        (["u": .url(UserInfoURL(relative: "https://a.b/"))],
         mp([0x81, 0xA1, 0x75, 0xC7, 0x05, 0x00, 0xAC] + Array("https://a.b/".utf8))),
    ]

    @Test("the three examples of BRIEF §7.1 read and write byte for byte")
    func briefExamples() throws {
        for (value, bytes) in Self.briefVectors {
            #expect(try MPUserInfoReader().read(bytes) == value)
            #expect(try MPUserInfoWriter().writeBytes(value) == bytes)
        }
    }

    // MARK: Writer: the smallest form, as Apple's writer picks it

    @Test("integers take the smallest form: unsigned for ≥ 0, signed for < 0, big-endian")
    func integerForms() throws {
        let cases: [(PropertyListInteger, [UInt8])] = [
            (0, [0x00]), (127, [0x7F]), (128, [0xCC, 0x80]), (255, [0xCC, 0xFF]), (256, [0xCD, 0x01, 0x00]),
            (65535, [0xCD, 0xFF, 0xFF]), (65536, [0xCE, 0x00, 0x01, 0x00, 0x00]),
            (PropertyListInteger(Int64(UInt32.max)), [0xCE, 0xFF, 0xFF, 0xFF, 0xFF]),
            (PropertyListInteger(Int64(1) << 32), [0xCF, 0, 0, 0, 1, 0, 0, 0, 0]),
            (PropertyListInteger(UInt64.max), [0xCF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            (-1, [0xFF]), (-32, [0xE0]), (-33, [0xD0, 0xDF]), (-128, [0xD0, 0x80]), (-129, [0xD1, 0xFF, 0x7F]),
            (-32768, [0xD1, 0x80, 0x00]), (-32769, [0xD2, 0xFF, 0xFF, 0x7F, 0xFF]),
            (PropertyListInteger(Int64(Int32.min)), [0xD2, 0x80, 0, 0, 0]),
            (PropertyListInteger(Int64(Int32.min) - 1), [0xD3, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF]),
            (PropertyListInteger(Int64.min), [0xD3, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ]
        for (integer, form) in cases {
            let bytes = mp([0x81, 0xA1, 0x6E] + form)
            #expect(try MPUserInfoWriter().writeBytes(["n": .number(.integer(integer))]) == bytes, "\(integer)")
            #expect(try MPUserInfoReader().read(bytes) == ["n": .number(.integer(integer))], "\(integer)")
        }
    }

    @Test("strings, data, arrays and maps switch form at their boundaries")
    func lengthForms() throws {
        func string(_ count: Int) -> UserInfoValue { .string(String(repeating: "x", count: count)) }
        let stringCases: [(Int, [UInt8])] = [(0, [0xA0]), (31, [0xBF]), (32, [0xD9, 32]), (255, [0xD9, 0xFF]),
                                            (256, [0xDA, 0x01, 0x00]), (65535, [0xDA, 0xFF, 0xFF]), (65536, [0xDB, 0, 1, 0, 0])]
        for (count, prefix) in stringCases {
            let bytes = mp([0x81, 0xA1, 0x73] + prefix + [UInt8](repeating: 0x78, count: count))
            #expect(try MPUserInfoWriter().writeBytes(["s": string(count)]) == bytes, "string of \(count)")
            #expect(try MPUserInfoReader().read(bytes) == ["s": string(count)])
        }
        let dataCases: [(Int, [UInt8])] = [(0, [0xC4, 0]), (255, [0xC4, 0xFF]), (256, [0xC5, 0x01, 0x00]), (65536, [0xC6, 0, 1, 0, 0])]
        for (count, prefix) in dataCases {
            let bytes = mp([0x81, 0xA1, 0x64] + prefix + [UInt8](repeating: 7, count: count))
            #expect(try MPUserInfoWriter().writeBytes(["d": .data(Data(repeating: 7, count: count))]) == bytes, "data of \(count)")
        }
        #expect(try MPUserInfoWriter().writeBytes(["a": .array(Array(repeating: 1, count: 15))]) == mp([0x81, 0xA1, 0x61, 0x9F] + [UInt8](repeating: 1, count: 15)))
        #expect(try MPUserInfoWriter().writeBytes(["a": .array(Array(repeating: 1, count: 16))]) == mp([0x81, 0xA1, 0x61, 0xDC, 0, 16] + [UInt8](repeating: 1, count: 16)))
        var sixteen = UserInfoDictionary()
        for key in 0..<16 { sixteen[String(UnicodeScalar(UInt8(0x61 + key)))] = .null }
        let body: [UInt8] = (0..<16).flatMap { [0xA1, UInt8(0x61 + $0), 0xC0] }
        #expect(try MPUserInfoWriter().writeBytes(sixteen) == mp([0xDE, 0, 16] + body))
    }

    @Test("null, booleans, reals, UUIDs and URLs with a base have one form each")
    func scalarForms() throws {
        let uuid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
        let base = UserInfoURL(relative: "https://a.b/")
        let cases: [(UserInfoValue, [UInt8])] = [
            (.null, [0xC0]), (true, [0xC3]), (false, [0xC2]),
            (.number(.real(1.5)), [0xCB, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]),
            (.uuid(uuid), [0xD8, 0x01] + (1...16).map { UInt8($0) }),
            (.date(Date(timeIntervalSinceReferenceDate: -2)), [0xD7, 0x03, 0, 0, 0, 0, 0, 0, 0x00, 0xC0]),
            (.url(UserInfoURL(relative: "c", base: base)), [0xC7, 0x04, 0x00, 0xC7, 0x05, 0x00, 0xAC] + Array("https://a.b/".utf8) + [0xA1, 0x63]),
        ]
        for (value, form) in cases {
            let bytes = mp([0x81, 0xA1, 0x76] + form)
            #expect(try MPUserInfoWriter().writeBytes(["v": value]) == bytes, "\(value)")
            #expect(try MPUserInfoReader().read(bytes) == ["v": value], "\(value)")
        }
    }

    @Test("what the writer never writes is still read: a float32 widens exactly, an integer in a wider form keeps its value")
    func widerForms() throws {
        // CA 3F C0 00 00 = 1.5 as a float32.
        #expect(try MPUserInfoReader().read(mp([0x81, 0xA1, 0x76, 0xCA, 0x3F, 0xC0, 0, 0])) == ["v": .number(.real(1.5))])
        #expect(try MPUserInfoReader().read(mp([0x81, 0xA1, 0x76, 0xCA, 0x3D, 0xCC, 0xCC, 0xCD])) == ["v": .number(.real(Double(Float(0.1))))])
        #expect(try MPUserInfoReader().read(mp([0x81, 0xA1, 0x76, 0xD3, 0, 0, 0, 0, 0, 0, 0, 5])) == ["v": 5])
        #expect(try MPUserInfoReader().read(mp([0x81, 0xA1, 0x76, 0xCD, 0, 5])) == ["v": 5])
    }

    // MARK: Round trips

    @Test("userInfo → MP → userInfo is exact, and re-encoding gives the same bytes")
    func roundTrip() async {
        await propertyCheck(count: 300, input: UserInfoGenerator().generator) { value in
            let userInfo: UserInfoDictionary = ["v": value]
            let bytes = try MPUserInfoWriter().writeBytes(userInfo)
            let back = try MPUserInfoReader().read(bytes)
            #expect(back == userInfo)
            #expect(try MPUserInfoWriter().writeBytes(back) == bytes)
        }
    }

    @Test("a userInfo encoded as MP and as a keyed archive decodes to equal values")
    func agreesWithKeyedArchive() async {
        await propertyCheck(count: 200, input: UserInfoGenerator().generator) { value in
            let userInfo: UserInfoDictionary = ["v": value]
            let fromMP = try MPUserInfoReader().read(MPUserInfoWriter().writeBytes(userInfo))
            let fromArchive = try KeyedArchiveReader().read(KeyedArchiveWriter().write(.dictionary(userInfo)))
            #expect(UserInfoValue.dictionary(fromMP) == fromArchive)
        }
    }

    @Test("truncation at every byte is refused as truncated (drip-feed)")
    func dripFeed() async {
        await propertyCheck(count: 60, input: UserInfoGenerator(maxDepth: 3).generator) { value in
            let bytes = try MPUserInfoWriter().writeBytes(["v": value, "w": [value, "x"]])
            for cut in 0..<bytes.count {
                let error = mpError(Array(bytes[..<cut]))
                #expect(error?.code == .truncated, "cut at \(cut) of \(bytes.count): \(String(describing: error))")
            }
        }
    }

    // MARK: Rules, each with its code, offset and key path

    @Test("the header: badMagic, truncated, unsupportedMPVersion; the top: notDictionary, trailingBytes")
    func headerRules() {
        #expect(mpError([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74])?.code == .badMagic)
        #expect(mpError([0x4D, 0x51, 0x03, 0x05, 0x80])?.code == .badMagic)
        #expect(mpError([0x4D, 0x50, 0x03])?.code == .truncated)
        let version = mpError([0x4D, 0x50, 0x03, 0x04, 0x80])
        #expect(version?.code == .unsupportedMPVersion)
        #expect(version?.location == .byteOffset(2))
        let top = mpError(mp([0x91, 0x01]))
        #expect(top?.code == .notDictionary)
        #expect(top?.location == .byteOffset(4))
        let trailing = mpError(mp([0x80, 0x00]))
        #expect(trailing?.code == .trailingBytes)
        #expect(trailing?.location == .byteOffset(5))
    }

    @Test("markers and extensions: unknownMarker, unknownExtension, badExtension")
    func markerRules() {
        for marker: UInt8 in [0xC1, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6] {
            let error = mpError(mp([0x81, 0xA1, 0x6B, marker, 0x01, 0x00, 0x00, 0x00, 0x00]))
            #expect(error?.code == .unknownMarker, "\(marker)")
            #expect(error?.location == .byteOffset(7))
            #expect(error?.keyPath == PropertyListKeyPath([.key("k")]))
        }
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xD8, 0x09] + [UInt8](repeating: 0, count: 16)))?.code == .unknownExtension)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xC7, 0x06, 0x00]))?.code == .unknownExtension)
        // A date in fixext16, a UUID in fixext8, a set with a size, a set of a string, a URL based on a string.
        let bad: [[UInt8]] = [
            [0xD8, 0x03] + [UInt8](repeating: 0, count: 16),
            [0xD7, 0x01, 0, 0, 0, 0, 0, 0, 0, 0],
            [0xC7, 0x02, 0x01, 0x91, 0x01],
            [0xC7, 0x02, 0x00, 0xA1, 0x61],
            [0xC7, 0x04, 0x00, 0xA1, 0x61, 0xA1, 0x62],
            [0xC7, 0x05, 0x00, 0x01],
            [0xC7, 0x01, 0x10] + [UInt8](repeating: 0, count: 16),
        ]
        for form in bad {
            #expect(mpError(mp([0x81, 0xA1, 0x6B] + form))?.code == .badExtension, "\(form)")
        }
    }

    @Test("strings, keys and members: invalidUTF8, nonStringKey, duplicateKey, duplicateSetMember, ambiguousSetMembers, invalidURL, invalidDate")
    func valueRules() {
        let utf8 = mpError(mp([0x81, 0xA1, 0x6B, 0x92, 0x01, 0xA2, 0xFF, 0xFE]))
        #expect(utf8?.code == .invalidUTF8)
        #expect(utf8?.keyPath == PropertyListKeyPath([.key("k"), .index(1)]))
        #expect(utf8?.location == .byteOffset(9))
        #expect(mpError(mp([0x81, 0x01, 0xC0]))?.code == .nonStringKey)
        #expect(mpError(mp([0x82, 0xA1, 0x6B, 0xC0, 0xA1, 0x6B, 0xC0]))?.code == .duplicateKey)
        // "é" in NFC and in NFD: one key.
        #expect(mpError(mp([0x82, 0xA2, 0xC3, 0xA9, 0xC0, 0xA3, 0x65, 0xCC, 0x81, 0xC0]))?.code == .duplicateKey)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xC7, 0x02, 0x00, 0x92, 0x01, 0x01]))?.code == .duplicateSetMember)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xC7, 0x02, 0x00, 0x92, 0x01, 0xC3]))?.code == .ambiguousSetMembers)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xC7, 0x05, 0x00, 0xA3, 0x61, 0x20, 0x62]))?.code == .invalidURL)
        for bits: UInt64 in [Double.nan.bitPattern, Double.infinity.bitPattern, (2e15 as Double).bitPattern] {
            let little = (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
            #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xD7, 0x03] + little))?.code == .invalidDate)
        }
    }

    @Test("oneGrammar: the first error in the input, whichever check finds it (a repeated key before a later refusal), from the reader and the decoder alike")
    func oneGrammar() throws {
        let large: [UInt8] = [0xDE, 0x00, 0x11, 0xA1, 0x61, 0x01, 0xA1, 0x61, 0x02]
            + (0..<15).flatMap { [0xA2, 0x62, 0x61 + UInt8($0), 0x03] } .dropLast() + [0xC1]
        let cases: [(bytes: [UInt8], code: ErrorCode, offset: Int, path: PropertyListKeyPath)] = [
            // {"a": 1, "a": 2, "b": C1}: the repeated key comes first.
            (mp([0x83, 0xA1, 0x61, 0x01, 0xA1, 0x61, 0x02, 0xA1, 0x62, 0xC1]), .duplicateKey, 4, PropertyListKeyPath([.key("a")])),
            // {"b": C1, "a": 1, "a": 2}: the marker comes first.
            (mp([0x83, 0xA1, 0x62, 0xC1, 0xA1, 0x61, 0x01, 0xA1, 0x61, 0x02]), .unknownMarker, 7, PropertyListKeyPath([.key("b")])),
            // The same in a map of 17 entries (past the maps compared by scan).
            (mp(large), .duplicateKey, 4, PropertyListKeyPath([.key("a")])),
            // {"s": set [{"x": 1, "x": 2}], "t": C1}: a set member's repeated key first.
            (mp([0x82, 0xA1, 0x73, 0xC7, 0x02, 0x00, 0x91, 0x82, 0xA1, 0x78, 0x01, 0xA1, 0x78, 0x02, 0xA1, 0x74, 0xC1]),
             .duplicateKey, 11, PropertyListKeyPath([.key("s"), .index(0), .key("x")])),
        ]
        for (bytes, code, offset, path) in cases {
            let error = try #require(mpError(bytes), "\(bytes)")
            #expect(error.code == code && error.location == .byteOffset(offset) && error.keyPath == path, "\(error)")
            let decoded = try #require(throws: UserInfoError.self) { try MPUserInfoDecoder().decode([String: Int].self, from: bytes) }
            #expect("\(decoded)" == "\(error)")
        }
    }

    @Test("limits: invalidLimits, inputTooLarge, depth, collections, strings, data, objects, expansion")
    func limits() {
        #expect(mpError(mp([0x80]), limits: PropertyListLimits(maxDepth: 513))?.code == .invalidLimits)
        #expect(mpError(mp([0x80, 0]), limits: PropertyListLimits(maxInputBytes: 5))?.code == .inputTooLarge)
        let nested = mp([0x81, 0xA1, 0x6B] + [UInt8](repeating: 0x91, count: 3) + [0x01])
        #expect(mpError(nested, limits: PropertyListLimits(maxDepth: 4)) == nil)
        #expect(mpError(nested, limits: PropertyListLimits(maxDepth: 3))?.code == .depthLimitExceeded)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0x93, 1, 2, 3]), limits: PropertyListLimits(maxCollectionCount: 2))?.code == .collectionLimitExceeded)
        // A declared count beyond the bytes left is refused before anything is allocated.
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xDD, 0x00, 0x01, 0x00, 0x00]))?.code == .truncated)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xA3, 0x61, 0x62, 0x63]), limits: PropertyListLimits(maxStringBytes: 2))?.code == .stringLimitExceeded)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0xC4, 0x03, 1, 2, 3]), limits: PropertyListLimits(maxDataBytes: 2))?.code == .dataLimitExceeded)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0x93, 1, 2, 3]), limits: PropertyListLimits(maxObjects: 4))?.code == .objectLimitExceeded)
        #expect(mpError(mp([0x81, 0xA1, 0x6B, 0x93, 1, 2, 3]), limits: PropertyListLimits(maxExpandedBytes: 30, expansionFactor: 0))?.code == .expansionLimitExceeded)
    }

    @Test("512 nested arrays read; the writer refuses past its maxDepth")
    func depth() throws {
        var value: UserInfoValue = 1
        for _ in 0..<511 { value = [value] }
        let bytes = try MPUserInfoWriter().writeBytes(["k": value])
        #expect(try MPUserInfoReader().read(bytes) == ["k": value])
        #expect(throws: UserInfoError(.depthLimitExceeded, "")) { try MPUserInfoWriter(limits: WriterLimits(maxDepth: 100)).writeBytes(["k": value]) }
        #expect(throws: UserInfoError(.invalidDate, "")) { try MPUserInfoWriter().writeBytes(["k": .date(Date(timeIntervalSinceReferenceDate: .infinity))]) }
    }
}

/// Python's msgpack package reads our MP bytes and writes identical ones, and
/// writes MP bytes we read and write back identically (the non-extension forms:
/// cmp's extension layout is not MessagePack's). Missing msgpack fails the test;
/// `.ci/setup` installs it.
@Suite("MP userInfo against Python's msgpack")
struct MPPeerTests {
    static let script = Paths.packageRoot.appendingPathComponent("Tests/PeerTools/msgpack_peer.py").path

    /// A generated value with the extension types (date, UUID, URL, set) replaced by strings.
    static func withoutExtensions(_ value: UserInfoValue) -> UserInfoValue {
        switch value {
        case .array(let elements): return .array(elements.map(withoutExtensions))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(withoutExtensions))
        case .date, .uuid, .url, .set: return .string("replaced")
        case .number(.real(let real)) where real.isNaN: return .number(.real(0.5))
        default: return value
        }
    }

    @Test("msgpack repacks our bytes of generated values to the same bytes")
    func msgpackReadsOurs() async throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [String] = []
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (16, 17, 18, 19))
        for index in 0..<150 {
            let value = Self.withoutExtensions(UserInfoGenerator(maxDepth: 3).value(depth: 0, using: &rng))
            let file = directory.appendingPathComponent("\(index).mp").path
            try Data(MPUserInfoWriter().writeBytes(["v": value, "k": [value]])).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let result = try launch("/usr/bin/env", ["python3", Self.script, "repack"] + files)
        try #require(result.status == 0, "msgpack peer failed: \(String(decoding: result.stderr, as: UTF8.self))")
        let verdicts = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(verdicts.count == files.count)
        #expect(verdicts.allSatisfy { $0 == "same" }, "\(zip(files, verdicts).filter { $0.1 != "same" }.map(\.0))")
    }

    @Test("what msgpack writes, we read and write back byte for byte")
    func weReadMsgpack() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try launch("/usr/bin/env", ["python3", Self.script, "generate", directory.path, "200", "16"])
        try #require(result.status == 0, "msgpack peer failed: \(String(decoding: result.stderr, as: UTF8.self))")
        for index in 0..<200 {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent("\(index).mp")))
            let value = try MPUserInfoReader().read(bytes)
            #expect(try MPUserInfoWriter().writeBytes(value) == bytes, "file \(index)")
        }
    }
}
