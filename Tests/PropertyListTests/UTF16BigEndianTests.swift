import Foundation
import PropertyBased
@_spi(ByteKit) import PropertyList
import TestSupport
import Testing

/// The binary format's UTF-16BE strings, read and written without a branch per
/// character length (Specs/binary-plist.md, "Strings"), checked against the
/// standard library's own transcoding (`String.utf16`, `String(decoding:as:)`)
/// on text that mixes every UTF-8 length at every position.
@Suite("UTF-16BE strings")
struct UTF16BigEndianTests {
    /// Scalars of every UTF-8 length, both ends of each range included.
    static let alphabet: [Unicode.Scalar] = [
        "\u{0}", "a", "~", "\u{7F}",                  // 1 byte
        "\u{80}", "é", "ж", "\u{7FF}",                // 2 bytes
        "\u{800}", "日", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}",  // 3 bytes
        "\u{10000}", "😀", "\u{10FFFF}",             // 4 bytes (surrogate pairs)
    ]

    /// Deterministic strings: every length up to 40 (the 4- and 8-unit fast
    /// paths start and stop at every offset), runs of ASCII among the rest.
    static func samples() -> [String] {
        var generator = Xoshiro(seed: (20261126, 1, 2, 3))
        var strings: [String] = []
        for length in 0...40 {
            for _ in 0..<25 {
                var scalars = String.UnicodeScalarView()
                for _ in 0..<length {
                    let asciiRun = generator.next() % 3 == 0
                    scalars.append(asciiRun ? "q" : alphabet[Int(generator.next() % UInt64(alphabet.count))])
                }
                strings.append(String(scalars))
            }
        }
        return strings
    }

    private func utf16BigEndian(_ string: String) -> [UInt8] {
        string.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    @Test("the writer's units are the standard library's, in big-endian order")
    func writerMatchesStandardLibrary() throws {
        for string in Self.samples() where !string.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = try BinaryPropertyListWriter().writeBytes(.array([.string(string)]))
            // Object 1 is the string: marker 0x6n (or 0x6F and a length integer), then the units.
            let units = string.utf16.count
            let header = units < 15 ? [0x60 | UInt8(units)] : [0x6F, 0x10, UInt8(units)]
            let expected = header + utf16BigEndian(string)
            let start = 8 + 2  // header, then the one-reference array [0xA1, 0x01]
            #expect(Array(bytes[start..<(start + expected.count)]) == expected, "\(string.unicodeScalars.map { $0.value })")
        }
    }

    @Test("the reader's strings are the standard library's decoding of the units")
    func readerMatchesStandardLibrary() throws {
        for string in Self.samples() {
            let units = Array(string.utf16)
            // Always as 0x6n, ASCII too (the reader must accept either).
            let header: [UInt8] = units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x10, UInt8(units.count)]
            let file = bplist([header + utf16BigEndian(string)])
            let value = try BinaryPropertyListReader().read(file)
            #expect(value == .string(String(decoding: units, as: UTF16.self)))
            #expect(value == .string(string))
        }
    }

    @Test("every BMP character and surrogate pairs of every plane, shuffled: the standard library's UTF-8, byte for byte")
    func everyCharacter() {
        var random = TestRandom(seed: 46_4)
        // Each character as its units: every BMP scalar, and 4,096 supplementary ones.
        var characters: [[UInt16]] = (0...0xFFFF).filter { !(0xD800...0xDFFF).contains($0) }.map { [UInt16($0)] }
        for _ in 0..<4_096 {
            let scalar = UInt32.random(in: 0x10000...0x10FFFF, using: &random)
            characters.append(Array(String(Character(Unicode.Scalar(scalar)!)).utf16))
        }
        characters.shuffle(using: &random)
        let units = characters.flatMap { $0 }
        let bytes = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var utf8 = [UInt8](repeating: 0, count: UTF16BigEndian.decodeCapacity(units: units.count))
        let decoded = bytes.withUnsafeBytes { source in
            utf8.withUnsafeMutableBytes { UTF16BigEndian.decode(source.baseAddress!, units: units.count, into: $0.baseAddress!) }
        }
        let expected = Array(String(decoding: units, as: UTF16.self).utf8)
        guard case .utf8(let count, let isASCII) = decoded else {
            Issue.record("refused: \(decoded) (\(random))")
            return
        }
        #expect(!isASCII && count == expected.count, "\(random)")
        #expect(Array(utf8.prefix(count)) == expected, "\(random)")
    }

    @Test("invalidUTF16: a lone surrogate anywhere in a long string is refused at its unit")
    func unpairedSurrogateOffsets() {
        for position in 0..<20 {
            for lone: UInt16 in [0xD800, 0xDBFF, 0xDC00, 0xDFFF] {
                var units = Array(repeating: UInt16(0x0061), count: 20)
                units[position] = lone
                // A high surrogate followed by 'a' is as unpaired as a low one alone.
                let bytes = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                let error = binaryError(bplist([[0x6F, 0x10, 20] + bytes]))
                #expect(error?.code == .invalidUTF16)
                #expect(error?.location == .byteOffset(8 + 3 + 2 * position))
            }
        }
    }
}
