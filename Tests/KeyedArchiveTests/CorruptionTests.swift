import Foundation
import KeyedArchive
import PropertyBased
import PropertyList
import TestSupport
import Testing
import TypedJSON
import UserInfo

/// Mutated inputs never crash or hang the readers: each is refused with an
/// error, or decodes to a value that re-encodes and decodes to itself.
@Suite("Keyed archive and typed JSON under corruption")
struct CorruptionTests {
    @Test("every single-byte change to an archive is refused or decodes consistently")
    func archiveBytes() async {
        await propertyCheck(count: 40, input: UserInfoGenerator(maxDepth: 3, maxWidth: 3).generator) { value in
            var bytes = [UInt8](try KeyedArchiveWriter().write(value))
            for position in bytes.indices {
                let original = bytes[position]
                for replacement: UInt8 in [original ^ 0x01, original &+ 1, 0x00, 0x80] where replacement != original {
                    bytes[position] = replacement
                    if let decoded = try? KeyedArchiveReader().read(Data(bytes)) {
                        #expect(try KeyedArchiveReader().read(KeyedArchiveWriter().write(decoded)) == decoded)
                    }
                }
                bytes[position] = original
            }
        }
    }

    @Test("structural mutations of the object graph are refused or decode consistently")
    func archiveGraph() async {
        await propertyCheck(count: 150, input: UserInfoGenerator(maxDepth: 3, maxWidth: 4).generator) { value in
            let plist = try KeyedArchiveWriter().archive(value)
            guard case .array(let objects) = plist["$objects"]! else { return }
            var rng = TestRandom(seed: 4302)
            for _ in 0..<30 {
                var mutated = objects
                let target = Int.random(in: 0..<mutated.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: mutated[target] = mutated[Int.random(in: 0..<mutated.count, using: &rng)]          // copy an object
                case 1: mutated.swapAt(target, Int.random(in: 0..<mutated.count, using: &rng))             // swap two
                case 2: mutated[target] = .uid(UInt32.random(in: 0...UInt32(mutated.count), using: &rng)) // a stray UID
                case 3: mutated.append(mutated[target])                                                     // an orphan
                default: mutated[target] = Self.rewire(mutated[target], count: mutated.count, using: &rng) // point a reference elsewhere
                }
                var archive = plist.dictionaryValue!
                archive["$objects"] = .array(mutated)
                if let decoded = try? KeyedArchiveReader().unarchive(.dictionary(archive)) {
                    #expect(try KeyedArchiveReader().unarchive(KeyedArchiveWriter().archive(decoded)) == decoded, "\(rng)")
                }
            }
        }
    }

    /// The object with one of its UID references pointed at a random object.
    static func rewire(_ object: PropertyListValue, count: Int, using rng: inout TestRandom) -> PropertyListValue {
        guard case .dictionary(var fields) = object else { return object }
        for key in fields.keys.shuffled(using: &rng) {
            switch fields[key]! {
            case .uid: fields[key] = .uid(UInt32.random(in: 0..<UInt32(count), using: &rng)); return .dictionary(fields)
            case .array(var references) where !references.isEmpty:
                references[Int.random(in: 0..<references.count, using: &rng)] = .uid(UInt32.random(in: 0..<UInt32(count), using: &rng))
                fields[key] = .array(references)
                return .dictionary(fields)
            default: continue
            }
        }
        return object
    }

    @Test("every single-byte change to typed JSON is refused or reads consistently")
    func typedJSONBytes() async {
        await propertyCheck(count: 40, input: UserInfoGenerator(maxDepth: 3, maxWidth: 3).generator) { value in
            var bytes = [UInt8](try TypedJSONWriter().write(value))
            for position in bytes.indices where position % 3 == 0 {
                let original = bytes[position]
                for replacement: UInt8 in [0x22, 0x5C, 0x7B, 0x30, 0x00, 0xC3] where replacement != original {
                    bytes[position] = replacement
                    if let read = try? TypedJSONReader().readUserInfo(Data(bytes)) {
                        let again = try TypedJSONReader().readUserInfo(try TypedJSONWriter().write(read))
                        #expect(again == read || read.hasNaN)
                    }
                }
                bytes[position] = original
            }
        }
    }
}

extension UserInfoValue {
    var hasNaN: Bool { TypedJSONWriter.text(self).contains("\"nan\"") }
}
