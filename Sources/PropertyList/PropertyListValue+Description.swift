import FoundationEssentials
/// A readable tree, shaped like `plutil -p`: dictionary keys sorted, one
/// entry per line, `=>` between key and value, strings quoted with every
/// control and bidirectional character escaped. See `Specs/plistkit.md`, "Output".
extension PropertyListValue: CustomStringConvertible {
    public var description: String {
        var out = ""
        append(to: &out, indent: "")
        return out
    }

    private func append(to out: inout String, indent: String) {
        switch self {
        case .string(let string):
            JSONText.appendReadableQuoted(string, to: &out)
        case .integer(let integer): out += integer.description
        case .real(let real): out += real.description
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "<null>"
        case .uid(let uid): out += "<uid \(uid)>"
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            out += CivilTime.descriptionText(secondsSinceReference: seconds) ?? "<date \(seconds)>"
        case .data(let data):
            out += "{length = \(data.count), bytes = 0x"
            let shown = data.count <= 24 ? data[...] : data.prefix(8)
            for byte in shown { out += Hex.lower(byte) }
            if data.count > 24 {
                out += " ... "
                for byte in data.suffix(8) { out += Hex.lower(byte) }
            }
            out += "}"
        case .array(let elements):
            out += "[\n"
            let inner = indent + "  "
            for (position, element) in elements.enumerated() {
                out += inner + "\(position) => "
                element.append(to: &out, indent: inner)
                out += "\n"
            }
            out += indent + "]"
        case .dictionary(let dictionary):
            out += "{\n"
            let inner = indent + "  "
            for key in dictionary.sortedKeys {
                out += inner
                JSONText.appendReadableQuoted(key, to: &out)
                out += " => "
                dictionary[key]!.append(to: &out, indent: inner)
                out += "\n"
            }
            out += indent + "}"
        }
    }
}
