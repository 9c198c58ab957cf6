import Foundation
import MPUserInfo
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// What an encoding gave: its bytes, or its error as text (the same error gives the same text).
func outcome(_ body: () throws -> [UInt8]) -> String {
    do { return "bytes \(try body())" } catch { return "error \(error)" }
}

/// Specs/codable.md, "Direct MP encoding": the direct path equals the tree path
/// (`UserInfoEncoder` then `MPUserInfoWriter`), bytes and errors alike.
@Suite("MPUserInfoEncoder: the direct path against the tree path")
struct MPUserInfoEncoderTests {
    static let encoders: [UserInfoEncoder] = {
        var snake = UserInfoEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        snake.nilEncodingStrategy = .null
        var text = UserInfoEncoder()
        text.dateEncodingStrategy = .iso8601
        text.dataEncodingStrategy = .base64
        return [UserInfoEncoder(), snake, text]
    }()

    @Test("generated userInfo values: the same bytes, written directly (no hand-over), or the same error with no direct bytes")
    func generated() async {
        await propertyCheck(count: 400, input: UserInfoGenerator().generator) { value in
            for encoder in Self.encoders {
                let state = EncodableUserInfo(value: .dictionary(["v": value, "w": [value, "x"]]))
                let coder = MPUserInfoEncoder(encoder: encoder)
                let tree = outcome { try coder.treeBytes(state) }
                #expect(outcome { try coder.encodeBytes(state) } == tree)
                if tree.hasPrefix("bytes") {
                    #expect(coder.directBytes(state).map { "bytes \($0)" } == tree)
                } else {
                    #expect(coder.directBytes(state) == nil)
                }
            }
        }
    }

    struct Stop: Codable { var name: String; var at: Date; var nights: Int; var visited: Bool }
    struct Trip: Codable {
        var id: UUID; var title: String; var document: URL; var stops: [Stop]; var thumbnail: Data
        var flags: [String: Bool]; var zoom: Double; var tags: Set<String>; var owner: String?; var counts: [Int8?]
    }

    @Test("a Codable state is written directly, as the tree path writes it")
    func codableState() throws {
        let trip = Trip(
            id: UUID(), title: "Spring", document: URL(string: "https://example.com/trip?id=4")!,
            stops: (0..<20).map { Stop(name: "stop \($0)", at: Date(timeIntervalSinceReferenceDate: Double($0) * 86_400.5), nights: $0 - 3, visited: $0 % 2 == 0) },
            thumbnail: Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }), flags: Dictionary(uniqueKeysWithValues: (0..<40).map { ("flag\($0)", $0 % 3 == 0) }),
            zoom: 1.25, tags: ["a", "b", "c"], owner: nil, counts: [1, nil, -128, 127])
        for encoder in Self.encoders {
            let coder = MPUserInfoEncoder(encoder: encoder)
            let direct = try #require(coder.directBytes(trip))
            #expect(direct == (try coder.treeBytes(trip)))
        }
    }

    @Test("wide containers: 16, 65,536 and 70,000 members get the wider headers")
    func wideContainers() throws {
        for count in [15, 16, 65_535, 65_536, 70_000] {
            let array = EncodableUserInfo(value: ["list": .array((0..<count).map { .number(.integer(PropertyListInteger($0))) })])
            let dictionary = EncodableUserInfo(value: ["map": .dictionary(UserInfoDictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", .null) }))])
            for state in [array, dictionary] {
                let coder = MPUserInfoEncoder()
                #expect(try #require(coder.directBytes(state)) == (try coder.treeBytes(state)))
            }
        }
    }

    /// Shapes the direct path hands to the tree path, each with the tree path's answer.
    struct Twice: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            try keyed.encode(2, forKey: .b)
            try keyed.encode("again", forKey: .a)
        }
    }

    /// Writes `keys` in order into one keyed container, each with its position.
    struct Keys: Encodable {
        var keys: [String]
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: EncodableUserInfo.Key.self)
            for (position, key) in keys.enumerated() { try keyed.encode(position, forKey: EncodableUserInfo.Key(key)) }
        }
    }

    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            var nested = keyed.nestedUnkeyedContainer(forKey: .a)
            try nested.encode(1)
            try keyed.encode(2, forKey: .b)
            try nested.encode(3)  // after its parent wrote on: not where the stream is
        }
    }

    struct Super: Encodable {
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try 5.encode(to: keyed.superEncoder(forKey: .a))
            _ = keyed.superEncoder()
        }
    }

    struct Conflicting: Encodable {
        enum Keys: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            var single = encoder.singleValueContainer()
            try single.encode(2)
        }
    }

    struct Wrapped<Inner: Encodable>: Encodable {
        var inner: Inner
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(inner)
        }
    }

    struct Deep: Encodable {
        var levels: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if levels > 0 { try container.encode(Deep(levels: levels - 1)) }
        }
    }

    struct Shown: Encodable, Hashable {
        var shown: Int
        var hidden: Int
        enum CodingKeys: CodingKey { case shown }
    }

    struct Snake: Encodable {
        // Two coding keys that convert to one key: the last value wins in the tree path.
        var aB: Int
        var a_b: Int
    }

    @Test("hand-overs: a key written twice, interleaved containers, super encoders, conflicts, non-dictionaries, limits — the tree path's answer")
    func handOvers() throws {
        var snake = UserInfoEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        let cases: [(String, any Encodable, MPUserInfoEncoder, Bool)] = [
            ("twice", Twice(), MPUserInfoEncoder(), false),
            ("é twice, NFC then NFD", Keys(keys: ["a", "\u{E9}", "b", "e\u{301}"]), MPUserInfoEncoder(), false),
            ("é and ê", Keys(keys: ["\u{E9}", "\u{EA}", "e"]), MPUserInfoEncoder(), true),
            ("the Kelvin sign after K (canonically K)", Keys(keys: ["K", "a", "\u{212A}"]), MPUserInfoEncoder(), false),
            ("K after the Kelvin sign", Keys(keys: ["\u{212A}", "a", "K"]), MPUserInfoEncoder(), false),
            ("ASCII keys of one length, one byte apart", Keys(keys: ["key1", "key2", "kex1", "key1"]), MPUserInfoEncoder(), false),
            ("long ASCII keys differing in the last byte", Keys(keys: ["a-long-key-of-many-bytes-1", "a-long-key-of-many-bytes-2"]), MPUserInfoEncoder(), true),
            ("twice among twenty", Keys(keys: (0..<20).map { "k\($0)" } + ["k3"]), MPUserInfoEncoder(), false),
            ("é twice among twenty", Keys(keys: ["e\u{301}"] + (0..<20).map { "k\($0)" } + ["\u{E9}"]), MPUserInfoEncoder(), false),
            ("twenty-one keys", Keys(keys: (0..<21).map { "k\($0)" }), MPUserInfoEncoder(), true),
            ("interleaved", Interleaved(), MPUserInfoEncoder(), false),
            ("super", Super(), MPUserInfoEncoder(), false),
            ("conflicting", Conflicting(), MPUserInfoEncoder(), false),
            ("snake", Snake(aB: 1, a_b: 2), MPUserInfoEncoder(encoder: snake), false),
            ("wrapped dictionary", Wrapped(inner: ["k": 1]), MPUserInfoEncoder(), true),
            ("top-level URL", URL(string: "https://example.com")!, MPUserInfoEncoder(), false),
            ("top-level set", Set([1, 2]), MPUserInfoEncoder(), false),
            ("top-level integer", 3, MPUserInfoEncoder(), false),
            ("integer out of range", ["v": Int128(1) << 90], MPUserInfoEncoder(), false),
            ("integer out of range in a [String: V]", ["v": ["a": 1, "b": Int128(1) << 90]], MPUserInfoEncoder(), false),
            ("[String: V] of [String: V]", ["v": ["a": ["b": 1], "c": [:]], "w": ["d": ["e": 2]]], MPUserInfoEncoder(), true),
            ("[String: V] too deep", ["v": ["a": ["b": ["c": 1]]]], MPUserInfoEncoder(limits: WriterLimits(maxDepth: 3)), false),
            ("[String: V] of states, keys as they are under snake case", ["v": ["aB": Snake(aB: 1, a_b: 1)]], MPUserInfoEncoder(encoder: snake), false),
            ("non-finite date", ["v": Date(timeIntervalSinceReferenceDate: .infinity)], MPUserInfoEncoder(), false),
            ("too deep", ["v": Deep(levels: 20)], MPUserInfoEncoder(limits: WriterLimits(maxDepth: 10)), false),
            ("set members encoding alike", ["v": Set([Shown(shown: 1, hidden: 1), Shown(shown: 1, hidden: 2)])], MPUserInfoEncoder(), false),
            ("a set", ["v": Set([Shown(shown: 1, hidden: 1), Shown(shown: 2, hidden: 1)])], MPUserInfoEncoder(), true),
            ("invalid limits", ["v": 1], MPUserInfoEncoder(limits: WriterLimits(maxDepth: -1)), false),
        ]
        for (name, state, coder, direct) in cases {
            let tree = outcome { try coder.treeBytes(state) }
            #expect(outcome { try coder.encodeBytes(state) } == tree, "\(name)")
            #expect((coder.directBytes(state) != nil) == direct, "\(name): \(tree)")
        }
    }
}
