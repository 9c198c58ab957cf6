import Foundation
import FuzzChecks
import MPUserInfo
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// What a decoding gave: its value, or its error as text (the same error gives the same text).
enum DecodeOutcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T), error(String)
    init(_ body: () throws -> T) {
        do { self = .value(try body()) } catch { self = .error("\(error)") }
    }
    var description: String {
        switch self {
        case .value: "a value"
        case .error(let text): "error \(text)"
        }
    }
}

/// Specs/codable.md, "Direct MP decoding": the direct path equals the tree path
/// (`MPUserInfoReader` then `UserInfoDecoder`), values and errors alike.
@Suite("MPUserInfoDecoder: the direct path against the tree path")
struct MPUserInfoDecoderTests {
    static let decoders: [MPUserInfoDecoder] = {
        var snake = UserInfoDecoder()
        snake.keyDecodingStrategy = .convertToSnakeCase
        var text = UserInfoDecoder()
        text.dateDecodingStrategy = .iso8601
        text.dataDecodingStrategy = .base64
        var tight = PropertyListLimits.default
        (tight.maxInputBytes, tight.maxDepth) = (4_096, 8)
        return [MPUserInfoDecoder(), MPUserInfoDecoder(options: snake), MPUserInfoDecoder(limits: tight, options: text)]
    }()

    /// Both paths on `bytes` as `T`: equal outcomes.
    static func agree<T: Decodable & Equatable>(_ type: T.Type, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        for decoder in decoders {
            let tree = DecodeOutcome { try decoder.treeDecode(type, from: bytes) }
            let direct = DecodeOutcome { try decoder.decode(type, from: bytes) }
            #expect(direct == tree, "\(direct) ≠ \(tree) on \(bytes.count) bytes \(bytes.prefix(64))", sourceLocation: sourceLocation)
        }
    }

    /// True when the value holds what the tape leaves to the tree path.
    static func handsOver(_ value: UserInfoValue) -> Bool {
        switch value {
        case .set: return true
        case .url(let url): return url.base != nil
        case .array(let elements): return elements.contains(where: handsOver)
        case .dictionary(let dictionary):
            return dictionary.keys.contains { $0.utf8.contains { $0 >= 0x80 } } || dictionary.values.contains(where: handsOver)
        default: return false
        }
    }

    @Test("generated userInfo values: the probe reads the same value on both paths, directly unless the value holds a set, a based URL or a key beyond ASCII")
    func generated() async throws {
        await propertyCheck(count: 400, input: UserInfoGenerator().generator) { value in
            let userInfo: UserInfoDictionary = ["v": value, "w": [value, "x"]]
            guard let bytes = try? MPUserInfoWriter().writeBytes(userInfo) else { return }
            Self.agree(DecodingProbe.self, bytes)
            Self.agree([String: DecodingProbe].self, bytes)
            #expect(MPUserInfoDecoder().takesDirectly(bytes) == !Self.handsOver(.dictionary(userInfo)))
        }
    }

    struct Stop: Codable, Equatable { var name: String; var at: Date; var nights: Int; var visited: Bool }
    struct Trip: Codable, Equatable {
        var id: UUID; var title: String; var document: URL; var stops: [Stop]; var thumbnail: Data
        var flags: [String: Bool]; var zoom: Double; var owner: String?; var counts: [Int8?]; var small: UInt16; var ratio: Float
    }

    static let trip = Trip(
        id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, title: "Spring", document: URL(string: "https://example.com/trip?id=4")!,
        stops: (0..<20).map { Stop(name: "stop \($0)", at: Date(timeIntervalSinceReferenceDate: Double($0) * 86_400.5), nights: $0 - 3, visited: $0 % 2 == 0) },
        thumbnail: Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }), flags: Dictionary(uniqueKeysWithValues: (0..<40).map { ("flag\($0)", $0 % 3 == 0) }),
        zoom: 1.25, owner: nil, counts: [1, nil, -128, 127], small: 65_535, ratio: 0.5)

    @Test("a Codable state is read directly, as the tree path reads it")
    func codableState() throws {
        let bytes = try MPUserInfoEncoder().encodeBytes(Self.trip)
        #expect(MPUserInfoDecoder().takesDirectly(bytes))
        #expect(try MPUserInfoDecoder().decode(Trip.self, from: bytes) == Self.trip)
        #expect(try MPUserInfoDecoder().decode(Trip.self, from: Data(bytes)) == Self.trip)
        Self.agree(Trip.self, bytes)
        Self.agree(DecodingProbe.self, bytes)
    }

    @Test("mutated bytes of a state: equal values or equal errors (reader errors, type mismatches, missing keys, integers that do not fit)")
    func mutated() async {
        let bytes = try! MPUserInfoEncoder().encodeBytes(Self.trip)
        let mutations = Gen.int(in: 0...Int.max).array(of: 1...6)
        await propertyCheck(count: 600, input: mutations) { seeds in
            let mutant = TestSupport.mutated(bytes, by: seeds)
            Self.agree(Trip.self, mutant)
            Self.agree(DecodingProbe.self, mutant)
        }
    }

    struct Reversed: Decodable, Equatable {
        var values: [String: Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DecodingProbe.AnyKey.self)
            values = [:]
            for key in container.allKeys.reversed() { values[key.stringValue] = try container.decode(Int.self, forKey: key) }
            // Keys absent, and absent under another spelling.
            values["absent"] = try container.decodeIfPresent(Int.self, forKey: .init(stringValue: "absent"))
            values["K"] = try container.decodeIfPresent(Int.self, forKey: .init(stringValue: "\u{212A}"))
        }
    }

    @Test("lookups in any order, in small and large maps; a coding key canonically equivalent to an ASCII key finds it", arguments: [3, 16, 17, 5_000])
    func lookupOrder(count: Int) throws {
        var userInfo = UserInfoDictionary()
        for index in 0..<count { _ = userInfo.insertNew(.number(.integer(PropertyListInteger(Int64(index)))), forKey: "key\(index)") }
        _ = userInfo.insertNew(.number(.integer(-1)), forKey: "K")
        let bytes = try MPUserInfoWriter().writeBytes(userInfo)
        #expect(MPUserInfoDecoder().takesDirectly(bytes))
        let read = try MPUserInfoDecoder().decode(Reversed.self, from: bytes)
        #expect(read.values.count == count + 1 && read.values["K"] == -1 && read.values["key\(count - 1)"] == count - 1)
        Self.agree(Reversed.self, bytes)
    }

    @Test("hand-overs: keys beyond ASCII (é in NFC and NFD is one key twice), sets, based URLs, limits, refusals — the tree path's answer")
    func handOvers() throws {
        let cases: [[UInt8]] = [
            mp([0x81, 0xA2, 0xC3, 0xA9, 0x01]),                                  // {"é": 1}
            mp([0x82, 0xA2, 0xC3, 0xA9, 0x01, 0xA3, 0x65, 0xCC, 0x81, 0x02]),    // {"é": 1, "é": 2}: duplicateKey
            mp([0x82, 0xA1, 0x61, 0x01, 0xA1, 0x61, 0x02]),                      // {"a": 1, "a": 2}: duplicateKey
            try MPUserInfoWriter().writeBytes(["s": .set(UserInfoSet([.string("a")]))]),
            try MPUserInfoWriter().writeBytes(["u": .url(UserInfoURL(relative: "b", base: UserInfoURL(relative: "https://example.com/")))]),
            mp([0x81, 0xA1, 0x61, 0xC1]),                                        // unknownMarker
            mp([0x81, 0xA1, 0x61, 0x01, 0x00]),                                  // trailingBytes
            mp([0x81, 0xA1, 0x61, 0xA2, 0xC3]),                                  // truncated
            mp([0x81, 0xA1, 0x61, 0xA1, 0xFF]),                                  // invalidUTF8
            mp([0x81, 0x01, 0x01]),                                              // nonStringKey
        ]
        for bytes in cases {
            #expect(!MPUserInfoDecoder().takesDirectly(bytes))
            Self.agree(DecodingProbe.self, bytes)
        }
        // depthLimitExceeded within the tape's own check, and limits the size does not prove unreachable.
        let nested = mp([0x81, 0xA1, 0x61, 0x91, 0x91, 0x91, 0x91, 0x01])
        #expect(MPUserInfoDecoder().takesDirectly(nested))
        var shallow = MPUserInfoDecoder()
        shallow.limits.maxDepth = 3
        #expect(!shallow.takesDirectly(nested))
        #expect(DecodeOutcome { try shallow.decode(DecodingProbe.self, from: nested) } == DecodeOutcome { try shallow.treeDecode(DecodingProbe.self, from: nested) })
        // Every limit, charged on inputs large enough to reach it (the trip's stops repeated).
        let large = try MPUserInfoEncoder().encodeBytes(["trips": Array(repeating: Self.trip, count: 40)])
        #expect(MPUserInfoDecoder().takesDirectly(large))
        var variants: [MPUserInfoDecoder] = []
        let limitCodes: [ErrorCode] = [.objectLimitExceeded, .collectionLimitExceeded, .stringLimitExceeded, .dataLimitExceeded,
                                       .expansionLimitExceeded, .inputTooLarge]
        for (change, code) in limitCodes.enumerated() {
            var decoder = MPUserInfoDecoder()
            switch change {
            case 0: decoder.limits.maxObjects = 5_000
            case 1: decoder.limits.maxCollectionCount = 30
            case 2: decoder.limits.maxStringBytes = 6
            case 3: decoder.limits.maxDataBytes = 299
            case 4: (decoder.limits.maxExpandedBytes, decoder.limits.expansionFactor) = (50_000, 1)
            default: decoder.limits.maxInputBytes = large.count - 1
            }
            variants.append(decoder)
            #expect(!decoder.takesDirectly(large))
            #expect(DecodeOutcome { try decoder.decode([String: [Trip]].self, from: large) } == DecodeOutcome { try decoder.treeDecode([String: [Trip]].self, from: large) })
            // Each limit refuses by its own rule.
            let error = try #require(throws: UserInfoError.self) { try decoder.decode([String: [Trip]].self, from: large) }
            #expect(error.innermostCode == code, "limit \(change): \(error)")
        }
    }
}
