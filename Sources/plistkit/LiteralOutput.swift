import FoundationEssentials
import PropertyList

/// `convert --format swift|objc` (Specs/plistkit.md, "Literals"): a property
/// list as a Swift or Objective-C literal in plutil's layout — a
/// `/// Generated from FILE` line, one constant named after the file, four-space
/// indents, a trailing comma after every member, keys sorted — but always
/// valid source: every string escaped, reals exact, numbers boxed in
/// Objective-C. A dictionary or array at the top; no null or UID anywhere;
/// Objective-C literals hold no dates or data.
enum LiteralOutput {
    enum Language { case swift, objc }

    /// The Objective-C header declaring the constant ``write(_:as:sourceFile:outputFile:)`` defines (plutil -header).
    static func objcHeader(_ value: PropertyListValue, sourceFile: String) throws -> [UInt8] {
        let type: String
        switch value {
        case .dictionary: type = "NSDictionary"
        case .array: type = "NSArray"
        default: throw topLevel("Objective-C")
        }
        let source = sourceFile == "-" ? "standard input" : lastComponent(sourceFile)
        return Array("""
        #import <Foundation/Foundation.h>

        /// Generated from \(source)
        __attribute__((visibility("hidden")))
        extern \(type) * const \(variableName(sourceFile));

        """.utf8)
    }

    static func write(_ value: PropertyListValue, as language: Language, sourceFile: String, outputFile: String) throws -> [UInt8] {
        let name = variableName(sourceFile)
        let source = sourceFile == "-" ? "standard input" : lastComponent(sourceFile)
        var out = ""
        switch language {
        case .swift:
            out += "/// Generated from \(source)\n"
            out += "let \(name)"
            // A type annotation when the members are of more than one type (Swift infers one type otherwise).
            switch value {
            // (An empty one too: Swift cannot infer the type of an empty literal.)
            case .dictionary(let dictionary) where Set(dictionary.values.map(\.typeName)).count != 1: out += " : [String : Any]"
            case .array(let elements) where Set(elements.map(\.typeName)).count != 1: out += " : [Any]"
            case .dictionary, .array: break
            default: throw topLevel("Swift")
            }
            out += " = "
            try swift(value, depth: 0, path: .root, to: &out)
            out += "\n"
        case .objc:
            let type: String
            switch value {
            case .dictionary: type = "NSDictionary"
            case .array: type = "NSArray"
            default: throw topLevel("Objective-C")
            }
            if outputFile != "-" { out += "#import \"\(stem(lastComponent(outputFile))).h\"\n\n" }
            out += "/// Generated from \(source)\n"
            out += "__attribute__((visibility(\"hidden\")))\n"
            out += "\(type) * const \(name) = "
            try objc(value, depth: 0, path: .root, to: &out)
            out += ";\n"
        }
        return Array(out.utf8)
    }

    // MARK: Swift

    private static func swift(_ value: PropertyListValue, depth: Int, path: PropertyListKeyPath, to out: inout String) throws {
        switch value {
        case .string(let string): out += quoted(string, objc: false)
        case .integer(let integer): out += integer.description
        case .real(let real): out += try realText(real, path)
        case .bool(let flag): out += flag ? "true" : "false"
        case .date(let date): out += "Date(timeIntervalSinceReferenceDate: \(try realText(date.timeIntervalSinceReferenceDate, path)))"
        case .data(let data): out += "Data([" + data.map { "0x" + Hex.upper($0) }.joined(separator: ", ") + "])"
        case .array(let elements):
            out += "[\n"
            for (position, element) in elements.enumerated() {
                out += indent(depth + 1)
                try swift(element, depth: depth + 1, path: path.appending(.index(position)), to: &out)
                out += ",\n"
            }
            out += indent(depth) + "]"
        case .dictionary(let dictionary):
            out += dictionary.isEmpty ? "[:" : "[\n"
            for key in dictionary.sortedKeys {
                out += indent(depth + 1) + quoted(key, objc: false) + " : "
                try swift(dictionary[key]!, depth: depth + 1, path: path.appending(.key(key)), to: &out)
                out += ",\n"
            }
            out += (dictionary.isEmpty ? "" : indent(depth)) + "]"
        case .uid, .null:
            throw unrepresentable(value, "Swift", path)
        }
    }

    // MARK: Objective-C

    private static func objc(_ value: PropertyListValue, depth: Int, path: PropertyListKeyPath, to out: inout String) throws {
        switch value {
        case .string(let string): out += quoted(string, objc: true)
        case .integer(let integer): out += "@" + integer.description
        case .real(let real): out += "@" + (try realText(real, path))
        case .bool(let flag): out += flag ? "@YES" : "@NO"
        case .array(let elements):
            out += "@[\n"
            for (position, element) in elements.enumerated() {
                out += indent(depth + 1)
                try objc(element, depth: depth + 1, path: path.appending(.index(position)), to: &out)
                out += ",\n"
            }
            out += indent(depth) + "]"
        case .dictionary(let dictionary):
            out += "@{\n"
            for key in dictionary.sortedKeys {
                out += indent(depth + 1) + quoted(key, objc: true) + " : "
                try objc(dictionary[key]!, depth: depth + 1, path: path.appending(.key(key)), to: &out)
                out += ",\n"
            }
            out += indent(depth) + "}"
        case .date, .data, .uid, .null:
            throw unrepresentable(value, "Objective-C", path)
        }
    }

    // MARK: Pieces

    private static func indent(_ depth: Int) -> String { String(repeating: "    ", count: depth) }

    /// A string literal: `"…"` (Swift) or `@"…"`, with `\`, `"` and control characters escaped.
    private static func quoted(_ string: String, objc: Bool) -> String {
        var out = objc ? "@\"" : "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += objc ? "\\x" + (hex.count < 2 ? "0" + hex : hex) + "\"\"" : "\\u{\(hex)}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A real as the shortest decimal that reads back to it; NaN and infinities have no literal.
    private static func realText(_ real: Double, _ path: PropertyListKeyPath) throws -> String {
        guard real.isFinite else {
            throw PropertyListError(.unrepresentableValue, "the real \(real) has no literal", keyPath: path)
        }
        return real.description
    }

    private static func unrepresentable(_ value: PropertyListValue, _ language: String, _ path: PropertyListKeyPath) -> PropertyListError {
        // unrepresentableValue: the literal syntax has no form for it.
        PropertyListError(.unrepresentableValue, "\(language) literals cannot hold a \(value.typeName)", keyPath: path)
    }

    private static func topLevel(_ language: String) -> PropertyListError {
        PropertyListError(.unrepresentableValue, "\(language) literal output needs a dictionary or an array at the top")
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The constant's name: the file's stem, `-` and spaces as `_`, other
    /// characters that no identifier holds dropped, `_` first if it would start with a digit.
    static func variableName(_ file: String) -> String {
        guard file != "-" else { return "plist" }
        var name = ""
        for scalar in stem(lastComponent(file)).unicodeScalars {
            if scalar == "-" || scalar == " " {
                name += "_"
            } else if scalar == "_" || (scalar.properties.isAlphabetic || scalar.properties.numericType != nil) && scalar.value > 0x20 {
                name.unicodeScalars.append(scalar)
            }
        }
        if name.isEmpty { return "plist" }
        if name.first!.isNumber { name = "_" + name }
        return name
    }
}
