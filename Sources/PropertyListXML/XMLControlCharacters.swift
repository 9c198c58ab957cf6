import FoundationEssentials
@_spi(ByteKit) import PropertyList

extension XMLInput {
    // MARK: Control characters in strings

    /// The first of the 32 noncharacters U+FDD0–U+FDEF, which stand for the
    /// C0 controls U+0000–U+001F while libxml2 parses (UTF-8 `EF B7 90+n`).
    private static let markBase: UInt32 = 0xFDD0

    /// Whether a byte is a C0 control XML forbids raw (not tab, LF or CR; U+0000
    /// is refused before this point).
    @inline(__always)
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// The document with each raw C0 control inside `<string>` or `<key>`
    /// content replaced by the noncharacter U+FDD0 + its value, and how many
    /// were replaced (Specs/xml-plist.md, "Control characters in strings"). Nil
    /// when there is none to replace, or when the document already holds one of
    /// those noncharacters (the marks would be ambiguous). Controls anywhere
    /// else are left for libxml2 to refuse.
    static func markingControls(_ utf8: [UInt8]) -> (bytes: [UInt8], count: Int)? {
        var marked: [UInt8] = []
        var count = 0
        var inside = false
        for i in utf8.indices {
            let byte = utf8[i]
            // The noncharacters themselves (EF B7 90–AF): the marks would be ambiguous.
            if byte == 0xEF, i + 2 < utf8.count, utf8[i + 1] == 0xB7, (0x90...0xAF).contains(utf8[i + 2]) { return nil }
            if byte == UInt8(ascii: "<") {
                let rest = utf8[i...]
                if rest.starts(with: "<string>".utf8) || rest.starts(with: "<key>".utf8) { inside = true } else { inside = false }
            } else if inside, isForbiddenControl(byte) {
                if count == 0 {
                    marked.reserveCapacity(utf8.count + 64)
                    marked.append(contentsOf: utf8[..<i])
                }
                marked += [0xEF, 0xB7, 0x90 + byte]
                count += 1
                continue
            }
            if count > 0 { marked.append(byte) }
        }
        return count == 0 ? nil : (marked, count)
    }

    /// `value` with each mark of ``markingControls(_:)`` in its strings and keys
    /// turned back into its control character; nil unless exactly `expected`
    /// marks were found (a character reference such as `&#xFDD0;` would make
    /// one that no raw control stood for).
    static func restoringControls(_ value: PropertyListValue, expected: Int) -> PropertyListValue? {
        var found = 0
        func restore(_ string: String) -> String {
            guard string.unicodeScalars.contains(where: { (markBase...markBase + 0x1F).contains($0.value) }) else { return string }
            var out = String.UnicodeScalarView()
            for scalar in string.unicodeScalars {
                if (markBase...markBase + 0x1F).contains(scalar.value) {
                    found += 1
                    out.append(Unicode.Scalar(UInt8(scalar.value - markBase)))
                } else {
                    out.append(scalar)
                }
            }
            return String(out)
        }
        // Recursion is bounded by the reader's depth limit.
        func walk(_ value: PropertyListValue) -> PropertyListValue? {
            switch value {
            case .string(let string): return .string(restore(string))
            case .array(let elements):
                var restored: [PropertyListValue] = []
                restored.reserveCapacity(elements.count)
                for element in elements {
                    guard let element = walk(element) else { return nil }
                    restored.append(element)
                }
                return .array(restored)
            case .dictionary(let dictionary):
                var restored = PropertyListDictionary(minimumCapacity: dictionary.count)
                for (key, member) in dictionary {
                    // Two keys that differ only by a mark and a control would collide: refuse.
                    guard let member = walk(member), restored.insertNew(member, forKey: restore(key)) else { return nil }
                }
                return .dictionary(restored)
            default: return value
            }
        }
        guard let restored = walk(value), found == expected else { return nil }
        return restored
    }
}
