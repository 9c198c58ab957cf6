/// Reverse-DNS names: dot-separated labels of ASCII letters, digits, `-` and
/// `_` (activity types, container identifiers), checked in one pass over the bytes.
enum ReverseDNS {
    /// The number of labels of `name` when it is such a name of at most 255
    /// bytes with no label empty; nil otherwise.
    static func labelCount(_ name: String) -> Int? {
        var labels = 1
        var labelLength = 0
        var bytes = 0
        for byte in name.utf8 {
            bytes += 1
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labels += 1
                labelLength = 0
            } else {
                guard (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
                else { return nil }
                labelLength += 1
            }
        }
        return labelLength > 0 && bytes <= 255 ? labels : nil
    }
}
