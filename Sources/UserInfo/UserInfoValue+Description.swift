import PropertyList
import FoundationEssentials

/// A readable tree in the shape of `plutil -p` (see `Specs/plistkit.md`,
/// "print"), with the four non-plist types shown as `<null>`,
/// `<uuid …>`, `<url "…" relative to "…">` and `set { … }`.
extension UserInfoValue: CustomStringConvertible {
    public var description: String {
        var out = ""
        append(to: &out, indent: "")
        return out
    }

    private func append(to out: inout String, indent: String) {
        if let scalar = propertyListScalar { return out += scalar.description }
        let inner = indent + "  "
        switch self {
        case .string, .number, .date, .data: preconditionFailure("a property-list scalar")
        case .null: out += "<null>"
        case .uuid(let v): out += "<uuid \(v.uuidString.uppercased())>"
        case .url(let v): out += "<url " + Self.urlText(v) + ">"
        case .array(let elements):
            out += "[\n"
            for (position, element) in elements.enumerated() {
                out += inner + "\(position) => "
                element.append(to: &out, indent: inner)
                out += "\n"
            }
            out += indent + "]"
        case .set(let set):
            out += "set {\n"
            for member in set.canonicalMembers {
                out += inner
                member.append(to: &out, indent: inner)
                out += "\n"
            }
            out += indent + "}"
        case .dictionary(let dictionary):
            out += "{\n"
            for key in dictionary.sortedKeys {
                out += inner + PropertyListValue.string(key).description + " => "
                dictionary[key]!.append(to: &out, indent: inner)
                out += "\n"
            }
            out += indent + "}"
        }
    }

    private static func urlText(_ url: UserInfoURL) -> String {
        let relative = PropertyListValue.string(url.relative).description
        guard let base = url.base else { return relative }
        return relative + " relative to " + urlText(base)
    }
}
