import Foundation
import PropertyBased
import PropertyList
import PropertyListXML
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The XML writer's reals are the C library's `%.17g`, byte for byte
/// (Specs/xml-plist.md, "Writer"), also where the writer computes the digits
/// itself (10⁻⁴ ≤ |v| < 10¹⁶, Specs/xml-plist.md, "Writer speed").
@Suite("XML reals: %.17g")
struct XMLRealTextTests {
    /// glibc's own `%.17g`: the reference.
    static func printf17g(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([value]) { vsnprintf(&buffer, 64, "%.17g", $0) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Values near every case of the fast path: each decade from 10⁻⁶ to 10¹⁸
    /// (both sides of its bounds), integers, dyadic fractions, halfway and
    /// round-up-to-a-power-of-ten cases, and random bit patterns; 116,000 or so,
    /// each with both signs.
    static func samples() -> [Double] {
        var generator = Xoshiro(seed: (172026, 4, 5, 6))
        var values: [Double] = [1e-4, 1e16, 9_999_999_999_999_998, 9_999_999_999_999_999.5, 0.1, 0.5, 1, 2, 3, 10, 100,
                                123_456_789_012_345_680, 0.000_099_999_999_999_999_99, 1.000_000_000_000_000_2,
                                9.999_999_999_999_999_9, 99.999_999_999_999_99, 4503599627370496.5, 2.5, 0.125]
        for exponent in -6...18 {
            let power = pow(10.0, Double(exponent))
            values += [power, power.nextUp, power.nextDown, power.nextUp.nextUp, power.nextDown.nextDown]
            for _ in 0..<2_000 {
                let unit = Double(generator.next() >> 11) / Double(1 << 53)  // [0, 1)
                values.append(power * (1 + 9 * unit))
            }
        }
        for _ in 0..<5_000 {
            values.append(Double(Int64(bitPattern: generator.next()) >> Int64(generator.next() % 60)))
            values.append(Double(Int64(bitPattern: generator.next()) % 100_000) / Double(1 << (generator.next() % 20)))
            let bits = Double(bitPattern: generator.next())
            if bits.isFinite && bits != 0 { values.append(bits) }
        }
        // Zero is spelled 0.0, not %.17g's 0 (a test of its own, in the layout goldens).
        return values.filter { $0 != 0 }.flatMap { [$0, -$0] }
    }

    @Test("every real is written as glibc's %.17g writes it")
    func matchesPrintf() throws {
        let values = Self.samples()
        let bytes = try XMLPropertyListWriter().writeBytes(.array(values.map(PropertyListValue.real)))
        let xml = String(decoding: bytes, as: UTF8.self)
        let written = xml.components(separatedBy: "<real>").dropFirst().map { $0.components(separatedBy: "</real>")[0] }
        #expect(written.count == values.count)
        var mismatches = 0
        for (value, text) in zip(values, written) where text != Self.printf17g(value) {
            mismatches += 1
            if mismatches <= 5 { Issue.record("\(value.bitPattern): wrote \(text), %.17g is \(Self.printf17g(value))") }
        }
        #expect(mismatches == 0)
    }
}
