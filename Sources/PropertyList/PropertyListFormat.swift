/// The serialised forms a property list can take.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple's binary property list, `bplist00`.
    case binary
    /// Apple's XML property list.
    case xml

    /// Recognises the format from the first bytes, without parsing: `bplist`
    /// means binary; `<` (after an optional byte-order mark and whitespace)
    /// means XML. Returns nil for anything else.
    public static func detect(_ bytes: some Collection<UInt8>) -> PropertyListFormat? {
        if BinaryPropertyListReader.hasMagic(bytes) { return .binary }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        else if rest.starts(with: [0xFE, 0xFF]) || rest.starts(with: [0xFF, 0xFE]) { return .xml }
        else if rest.starts(with: [0x00, 0x3C]) || rest.starts(with: [0x3C, 0x00]) { return .xml }
        while let byte = rest.first, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            rest = rest.dropFirst()
        }
        return rest.first == UInt8(ascii: "<") ? .xml : nil
    }
}
