import Foundation
import PropertyBased
import PropertyList
import TestSupport
import Testing

@Suite("Binary round trips (property-based)")
struct RoundTripPropertyTests {
    @Test("decode(encode(v)) == v, exactly")
    func roundTrip() async {
        await propertyCheck(count: 400, input: ValueGenerator().generator) { value in
            let bytes = try BinaryPropertyListWriter().writeBytes(value)
            let decoded = try BinaryPropertyListReader().read(bytes)
            #expect(decoded == value)
        }
    }

    @Test("encoding is deterministic: re-encoding the decoded value gives the same bytes")
    func deterministic() async {
        await propertyCheck(count: 200, input: ValueGenerator().generator) { value in
            let bytes = try BinaryPropertyListWriter().writeBytes(value)
            let again = try BinaryPropertyListWriter().writeBytes(try BinaryPropertyListReader().read(bytes))
            #expect(again == bytes)
        }
    }

    @Test("every single-byte corruption of a valid file is refused or decodes; never a crash")
    func corruption() async {
        await propertyCheck(count: 60, input: ValueGenerator(maxDepth: 3, maxWidth: 4).generator) { value in
            var bytes = try BinaryPropertyListWriter().writeBytes(value)
            for position in bytes.indices {
                let original = bytes[position]
                for replacement: UInt8 in [original ^ 0x01, original ^ 0x80, 0x00, 0xFF] where replacement != original {
                    bytes[position] = replacement
                    if let decoded = try? BinaryPropertyListReader().read(bytes) {
                        // Whatever decodes must re-encode and decode to an equal value.
                        let again = try BinaryPropertyListReader().read(try BinaryPropertyListWriter().writeBytes(decoded))
                        #expect(again == decoded)
                    }
                }
                bytes[position] = original
            }
        }
    }
}
