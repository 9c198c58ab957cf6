import Foundation
import PropertyBased
import PropertyList

/// Random property-list values for property-based tests: every case, awkward
/// scalars (NUL and combining characters, surrogate-pair scalars, -0.0, NaN,
/// infinities, subnormals, integers at every width boundary, UInt64 above
/// Int64.max), and nested containers.
public struct ValueGenerator: Sendable {
    /// Which cases may appear (peers cannot all carry null, UIDs or extreme dates).
    public var allowNull = true
    public var allowUID = true
    /// Dates within years 1900...3000 only (what every peer's calendar handles).
    public var ordinaryDates = false
    public var maxDepth = 4
    public var maxWidth = 6

    public init(allowNull: Bool = true, allowUID: Bool = true, ordinaryDates: Bool = false, maxDepth: Int = 4, maxWidth: Int = 6) {
        (self.allowNull, self.allowUID, self.ordinaryDates) = (allowNull, allowUID, ordinaryDates)
        (self.maxDepth, self.maxWidth) = (maxDepth, maxWidth)
    }

    public var generator: Generator<PropertyListValue, Shrink.None<PropertyListValue>> {
        let settings = self
        return Generator { rng in settings.value(depth: 0, using: &rng) }
    }

    public func value(depth: Int, using rng: inout any SeededRandomNumberGenerator) -> PropertyListValue {
        let containerWeight = depth < maxDepth ? 3 : 0
        let pick = Int.random(in: 0..<(10 + 2 * containerWeight), using: &rng)
        switch pick {
        case 0: return .string(string(using: &rng))
        case 1: return .integer(integer(using: &rng))
        case 2: return .real(real(using: &rng))
        case 3: return .bool(Bool.random(using: &rng))
        case 4: return .date(date(using: &rng))
        case 5: return .data(Data((0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case 6: return allowUID ? .uid(UInt32.random(in: 0...UInt32.max, using: &rng) >> UInt32.random(in: 0...31, using: &rng)) : .string("uid")
        case 7: return allowNull ? .null : .bool(false)
        case 8: return .string(string(using: &rng))
        case 9: return .integer(integer(using: &rng))
        case 10..<(10 + containerWeight):
            return .array((0..<Int.random(in: 0...maxWidth, using: &rng)).map { _ in value(depth: depth + 1, using: &rng) })
        default:
            var dictionary = PropertyListDictionary()
            for _ in 0..<Int.random(in: 0...maxWidth, using: &rng) {
                dictionary.insertNew(value(depth: depth + 1, using: &rng), forKey: string(using: &rng))
            }
            return .dictionary(dictionary)
        }
    }

    public func string(using rng: inout any SeededRandomNumberGenerator) -> String {
        let alphabets: [[Unicode.Scalar]] = [
            Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars),
            Array("ABC xyz 0123456789.,;:-_/\\\"'<>&[]{}".unicodeScalars),
            ["\u{0}", "\u{1}", "\t", "\n", "\r", "\u{7F}", "\u{85}", "\u{A0}"],
            ["é", "ü", "ß", "\u{301}", "\u{308}", "日", "本", "語", "ｚ", "\u{FFFD}", "\u{FEFF}", "\u{FFFF}"],
            ["😀", "👍", "𝄞", "\u{10FFFF}", "\u{1F1EF}", "\u{1F1F5}"],
        ]
        var scalars = String.UnicodeScalarView()
        let length = Int.random(in: 0...20, using: &rng)
        let asciiOnly = Bool.random(using: &rng)
        for _ in 0..<length {
            let alphabet = asciiOnly ? alphabets[Int.random(in: 0...1, using: &rng)] : alphabets.randomElement(using: &rng)!
            scalars.append(alphabet.randomElement(using: &rng)!)
        }
        return String(scalars)
    }

    public func integer(using rng: inout any SeededRandomNumberGenerator) -> PropertyListInteger {
        let boundaries: [PropertyListInteger] = [0, 1, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296,
                                                 PropertyListInteger(Int64.max), PropertyListInteger(UInt64(Int64.max) + 1),
                                                 PropertyListInteger(UInt64.max), -1, PropertyListInteger(Int64.min)]
        switch Int.random(in: 0...3, using: &rng) {
        case 0: return boundaries.randomElement(using: &rng)!
        case 1: return PropertyListInteger(UInt64.random(in: 0...UInt64.max, using: &rng))
        case 2: return PropertyListInteger(Int64.random(in: Int64.min...Int64.max, using: &rng))
        default: return PropertyListInteger(Int64.random(in: -300...70_000, using: &rng))
        }
    }

    public func real(using rng: inout any SeededRandomNumberGenerator) -> Double {
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, 1e-7, 1e21, 3]
        switch Int.random(in: 0...3, using: &rng) {
        case 0: return specials.randomElement(using: &rng)!
        case 1: return Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng))
        default: return Double.random(in: -1e6...1e6, using: &rng)
        }
    }

    public func date(using rng: inout any SeededRandomNumberGenerator) -> Date {
        if ordinaryDates || Bool.random(using: &rng) {
            // 1900-01-01 ... 2999-12-31, whole or fractional seconds.
            let seconds = Double(Int64.random(in: -3_155_673_600...31_556_889_599, using: &rng))
            return Date(timeIntervalSinceReferenceDate: Bool.random(using: &rng) ? seconds : seconds + Double.random(in: 0..<1, using: &rng))
        }
        return Date(timeIntervalSinceReferenceDate: Double.random(in: -1e12...1e12, using: &rng))
    }
}
