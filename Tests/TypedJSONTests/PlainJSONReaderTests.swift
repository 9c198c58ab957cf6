import Foundation
import PropertyList
import TestSupport
import Testing
import TypedJSON

/// Specs/plain-json.md, "Reading": the reader's conversion of parsed JSON to
/// values, which keeps its containers on an explicit stack (Specs/
/// architecture.md, "One stack policy"), against the writer and against the
/// key paths its refusals must name.
@Suite("Plain JSON reader: values and refusals at every depth")
struct PlainJSONReaderTests {
    /// A value plain JSON holds (no date, data, UID), up to `depth` levels of
    /// containers, empty ones included.
    static func value(_ random: inout TestRandom, depth: Int) -> PropertyListValue {
        switch Int.random(in: 0...(depth > 0 ? 6 : 3), using: &random) {
        case 0: return .string(["", "a", "ключ", "🚀 x", "\"\\\n"][Int.random(in: 0...4, using: &random)])
        case 1: return .integer(PropertyListInteger(Int64.random(in: -1_000_000...1_000_000, using: &random)))
        case 2: return .real(Double(Int.random(in: -1000...1000, using: &random)) / 8)
        case 3: return .bool(Bool.random(using: &random))
        case 4, 5:
            let count = Int.random(in: 0...4, using: &random)
            return .array((0..<count).map { _ in value(&random, depth: depth - 1) })
        default:
            let count = Int.random(in: 0...4, using: &random)
            var dictionary = PropertyListDictionary()
            for index in 0..<count { dictionary["k\(index)"] = value(&random, depth: depth - 1) }
            return .dictionary(dictionary)
        }
    }

    @Test("2,000 random values written by PlainJSONWriter read back equal")
    func roundTrip() throws {
        var random = TestRandom(seed: 5150)
        for _ in 0..<2_000 {
            let value = Self.value(&random, depth: Int.random(in: 0...7, using: &random))
            let json = try PlainJSONWriter().write(value)
            #expect(try PlainJSONReader().read(json) == value, "\(random)")
        }
    }

    @Test("a null anywhere is refused with the key path to it, outermost first")
    func refusalKeyPaths() throws {
        var random = TestRandom(seed: 5151)
        for _ in 0..<2_000 {
            // A path of up to 12 levels, each an object key or an array index, with siblings before and after.
            var path: [PropertyListKeyPath.Component] = []
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                path.append(Bool.random(using: &random) ? .key("k\(Int.random(in: 0...3, using: &random))") : .index(Int.random(in: 0...3, using: &random)))
            }
            var json = "null"
            for component in path.reversed() {
                switch component {
                case .key(let key):
                    json = "{\"before\": 1, \"\(key)\": \(json), \"after\": [2]}"
                case .index(let index):
                    json = "[" + String(repeating: "0, ", count: index) + json + ", {}]"
                }
            }
            let error = #expect(throws: PropertyListError.self) { try PlainJSONReader().read(Array(json.utf8)) }
            #expect(error?.code == .unrepresentableValue, "\(json)")
            #expect(error?.keyPath.components == path, "\(json)")
        }
    }
}
