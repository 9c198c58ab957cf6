import Foundation
import KeyedArchive
import PropertyList
import Testing
import UserInfo

/// Specs/codable.md: the mapping, the strategies, strictness and coding paths.
@Suite("UserInfoEncoder and UserInfoDecoder")
struct CodableTests {
    struct Item: Codable, Equatable, Hashable {
        var sku: String
        var quantity: Int
        var price: Double
    }

    enum Mode: String, Codable { case browse, edit }

    struct State: Codable, Equatable {
        var page: Int
        var big: UInt64
        var small: Int8
        var ratio: Float
        var flag: Bool
        var title: String
        var note: String?
        var updated: Date
        var thumbnail: Data
        var id: UUID
        var document: URL
        var tags: Set<String>
        var items: [Item]
        var mode: Mode
        var nested: [String: [Int]]
    }

    static let state = State(
        page: 3, big: .max, small: -8, ratio: 0.5, flag: true, title: "Cart", note: nil,
        updated: Date(timeIntervalSinceReferenceDate: 785_500_000.25), thumbnail: Data([1, 2, 3]),
        id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        document: URL(string: "https://shop.example.com/cart?id=7")!,
        tags: ["sale", "gift"], items: [Item(sku: "A-100", quantity: 2, price: 19.99)], mode: .edit,
        nested: ["a": [1, 2], "b": []])

    @Test("the mapping: every userInfo type from its natural Swift type")
    func mapping() throws {
        let value = try UserInfoEncoder().encode(Self.state)
        #expect(value["page"] == 3)
        #expect(value["big"] == .number(.integer(PropertyListInteger(UInt64.max))))
        #expect(value["ratio"] == 0.5)
        #expect(value["flag"] == true)
        #expect(value["note"] == nil)
        #expect(value["updated"] == .date(Date(timeIntervalSinceReferenceDate: 785_500_000.25)))
        #expect(value["thumbnail"] == .data(Data([1, 2, 3])))
        #expect(value["id"] == .uuid(Self.state.id))
        #expect(value["document"] == .url(UserInfoURL(relative: "https://shop.example.com/cart?id=7")))
        #expect(value["tags"] == .set(["gift", "sale"]))
        #expect(value["items"] == [["sku": "A-100", "quantity": 2, "price": 19.99]])
        #expect(value["mode"] == "edit")
        #expect(value["nested"] == ["a": [1, 2], "b": []])
    }

    @Test("round trip through the decoder, and through a keyed archive")
    func roundTrip() throws {
        let value = try UserInfoEncoder().encode(Self.state)
        #expect(try UserInfoDecoder().decode(State.self, from: value) == Self.state)
        let archived = try KeyedArchiveReader().read(KeyedArchiveWriter().write(value))
        #expect(try UserInfoDecoder().decode(State.self, from: archived) == Self.state)
    }

    @Test("nil: omitted by default, NSNull when asked; NSNull decodes as nil")
    func nilStrategy() throws {
        var encoder = UserInfoEncoder()
        #expect(try encoder.encode(Self.state).dictionaryValue?.keys.contains("note") == false)
        encoder.nilEncodingStrategy = .null
        let value = try encoder.encode(Self.state)
        #expect(value["note"] == nil as UserInfoValue)
        #expect(try UserInfoDecoder().decode(State.self, from: value).note == nil)
    }

    @Test("URLs keep their base and relative string")
    func urlBase() throws {
        let url = URL(string: "doc.txt", relativeTo: URL(string: "https://x.org/dir/"))!
        let value = try UserInfoEncoder().encode([url])
        #expect(value == [.url(UserInfoURL(relative: "doc.txt", base: UserInfoURL(relative: "https://x.org/dir/")))])
        #expect(try UserInfoDecoder().decode([URL].self, from: value).first?.absoluteString == "https://x.org/dir/doc.txt")
    }

    @Test("strategies: dates as seconds or ISO 8601, data as base64, snake_case keys")
    func strategies() throws {
        struct Record: Codable, Equatable { var createdAt: Date; var rawBytes: Data }
        let record = Record(createdAt: Date(timeIntervalSince1970: 1_000_000_000.5), rawBytes: Data([255]))
        var encoder = UserInfoEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.dataEncodingStrategy = .base64
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let value = try encoder.encode(record)
        #expect(value == ["created_at": 1_000_000_000.5, "raw_bytes": "/w=="])
        var decoder = UserInfoDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.dataDecodingStrategy = .base64
        decoder.keyDecodingStrategy = .convertToSnakeCase
        #expect(try decoder.decode(Record.self, from: value) == record)
        encoder.dateEncodingStrategy = .iso8601
        #expect(try encoder.encode(record)["created_at"] == "2001-09-09T01:46:40.5Z")
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(Record.self, from: encoder.encode(record)) == record)
    }

    @Test("strict by type: no integer from a real, no Bool from an integer, no overflow; Double takes exact integers")
    func strictness() throws {
        struct Counts: Codable { var n: Int8 }
        struct Flag: Codable { var on: Bool }
        struct Real: Codable { var x: Double }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Counts.self, from: ["n": 1.0]) }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Counts.self, from: ["n": 200]) }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Flag.self, from: ["on": 1]) }
        #expect(try UserInfoDecoder().decode(Real.self, from: ["x": 3]).x == 3)
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Real.self, from: ["x": .number(.integer(PropertyListInteger(UInt64.max)))]) }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Set<String>.self, from: ["a", "b"]) }
    }

    @Test("decoding errors carry the coding path")
    func codingPaths() throws {
        var value = try UserInfoEncoder().encode(Self.state)
        var dictionary = value.dictionaryValue!
        dictionary["items"] = [["sku": "A-100", "quantity": "two", "price": 1.0]]
        value = .dictionary(dictionary)
        do {
            _ = try UserInfoDecoder().decode(State.self, from: value)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index 0", "quantity"])
        }
        dictionary["items"] = nil
        do {
            _ = try UserInfoDecoder().decode(State.self, from: .dictionary(dictionary))
            Issue.record("decoded")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "items")
        }
    }

    @Test("encoding refuses values with no userInfo form, naming the coding path")
    func encodingErrors() throws {
        struct Wide: Encodable { var values: [Int128] }
        do {
            _ = try UserInfoEncoder().encode(Wide(values: [1, Int128(1) << 80]))
            Issue.record("encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "Index 1"])
        }
        struct When: Encodable { var at: Date }
        #expect(throws: EncodingError.self) { try UserInfoEncoder().encode(When(at: Date(timeIntervalSinceReferenceDate: .nan))) }
        struct NotADictionary: Encodable { func encode(to encoder: any Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(1) } }
        #expect(throws: EncodingError.self) { try UserInfoEncoder().encodeDictionary(NotADictionary()) }
    }

    /// Specs/codable.md, "Encoding": `conflictingContainers`, and a key written twice.
    @Test("conflictingContainers: a value asking for a second form is refused at its path, not trapped on; a key written twice keeps its last value")
    func conflictingContainers() throws {
        struct ValueThenKeyed: Encodable {
            private enum Keys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
            }
        }
        struct KeyedThenUnkeyed: Encodable {
            private enum Keys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(3)
            }
        }
        struct Holder<Inner: Encodable>: Encodable { var inner: [Inner] }
        for value in [Holder(inner: [ValueThenKeyed()]) as any Encodable, Holder(inner: [KeyedThenUnkeyed()])] {
            do {
                _ = try UserInfoEncoder().encode(value)
                Issue.record("encoded \(value)")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.codingPath.map(\.stringValue) == ["inner", "Index 0"])
            }
        }
        struct Twice: Encodable {
            private enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                var nested = keyed.nestedUnkeyedContainer(forKey: .a)
                try nested.encode(1)
                try keyed.encode("b", forKey: .b)
                try keyed.encode("last", forKey: .a)
                var again = encoder.container(keyedBy: Keys.self)
                try again.encode(true, forKey: .b)
            }
        }
        #expect(try UserInfoEncoder().encode(Twice()) == .dictionary(["a": "last", "b": true]))
    }

    /// Specs/codable.md, "Encoding": nested containers and super encoders fill their places when the encoding resolves.
    @Test("nested containers and super encoders, keyed and unkeyed, land where they were asked for")
    func nestedContainers() throws {
        struct Shapes: Encodable {
            private enum Keys: String, CodingKey { case list, map, parent, empty }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                var list = keyed.nestedUnkeyedContainer(forKey: .list)
                try list.encode(1)
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode("x", forKey: .map)
                try list.encode(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
                _ = list.superEncoder()  // encodes nothing: NSNull keeps the position
                var map = keyed.nestedContainer(keyedBy: Keys.self, forKey: .map)
                try map.encode(2.5, forKey: .list)
                try 7.encode(to: keyed.superEncoder())
                _ = keyed.superEncoder(forKey: .empty)  // encodes nothing: no entry
            }
        }
        let expected: UserInfoValue = .dictionary([
            "list": [1, ["map": "x"], .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .null],
            "map": ["list": 2.5],
            "super": 7,
        ])
        #expect(try UserInfoEncoder().encode(Shapes()) == expected)

        // The keyless super encoder and decoder use "super" though `Keys` has no such case.
        struct Base: Codable, Equatable { var x: Int }
        struct Derived: Codable, Equatable {
            var base: Base
            private enum Keys: String, CodingKey { case y }
            init(base: Base) { self.base = base }
            init(from decoder: any Decoder) throws {
                base = try Base(from: try decoder.container(keyedBy: Keys.self).superDecoder())
            }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                try base.encode(to: keyed.superEncoder())
            }
        }
        let encoded = try UserInfoEncoder().encode(Derived(base: Base(x: 4)))
        #expect(encoded == .dictionary(["super": ["x": 4]]))
        #expect(try UserInfoDecoder().decode(Derived.self, from: encoded) == Derived(base: Base(x: 4)))
    }

    /// Specs/codable.md, "Encoding": `[String: V]` entry by entry.
    @Test("[String: V] maps entry by entry, in its own order, with the entry's key in error paths; converted keys still convert")
    func stringDictionaries() throws {
        struct Flags: Codable, Equatable { var flags: [String: Int]; var dates: [String: [Date]] }
        let value = Flags(flags: ["b": 2, "a": 1, "fooBar": 3], dates: ["x": [Date(timeIntervalSinceReferenceDate: 5)], "y": []])
        let encoded = try UserInfoEncoder().encode(value)
        guard case .dictionary(let top) = encoded, case .dictionary(let flags)? = top["flags"] else {
            Issue.record("not a dictionary: \(encoded)")
            return
        }
        #expect(flags.keys == Array(value.flags.keys))
        #expect(flags["fooBar"] == 3)
        #expect(try UserInfoDecoder().decode(Flags.self, from: encoded) == value)
        // A wrong member names its key.
        let wrong: UserInfoValue = ["flags": ["a": 1, "b": "two"], "dates": [:]]
        do {
            _ = try UserInfoDecoder().decode(Flags.self, from: wrong)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["flags", "b"])
        }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode(Flags.self, from: ["flags": [1, 2], "dates": [:]]) }
        // snake_case converts dictionary keys too, as the keyed container always did.
        var snake = UserInfoEncoder()
        snake.keyEncodingStrategy = .convertToSnakeCase
        guard case .dictionary(let converted) = try snake.encode(["fooBar": 1]) else { return }
        #expect(converted.keys == ["foo_bar"])
    }

    /// Specs/codable.md, "Decoding is strict by type": `[V]` element by element.
    @Test("[V] decodes element by element from an array or a set's members, naming the index of a wrong element")
    func arrays() throws {
        struct Holder: Codable, Equatable { var list: [Int]; var nested: [[String]] }
        let value = Holder(list: [3, 1, 2], nested: [["a"], [], ["b", "c"]])
        #expect(try UserInfoDecoder().decode(Holder.self, from: try UserInfoEncoder().encode(value)) == value)
        let fromSet = try UserInfoDecoder().decode([Int].self, from: .set(UserInfoSet([1, 2])))
        #expect(fromSet.sorted() == [1, 2])
        do {
            _ = try UserInfoDecoder().decode(Holder.self, from: ["list": [1, "x"], "nested": []])
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1"])
        }
        #expect(throws: DecodingError.self) { try UserInfoDecoder().decode([Int].self, from: ["a": 1]) }
    }
}
