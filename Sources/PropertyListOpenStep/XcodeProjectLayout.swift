import FoundationEssentials
import PropertyList

/// Xcode's layout for a project file (`.pbxproj`; Specs/openstep.md, "Xcode
/// projects"): the `// !$*UTF8*$!` line; `objects` in sections by `isa`
/// (`/* Begin PBXBuildFile section */` …), each section's objects by ID;
/// `isa` first in every object, the other keys sorted; build files and file
/// references on one line; every reference to an object followed by its
/// comment (`/* main.swift */`, `/* main.swift in Sources */`, `/* Project
/// object */`, …). Strings are quoted as the generic writer quotes them.
struct XcodeProjectLayout {
    let objects: PropertyListDictionary
    let root: PropertyListDictionary

    /// Nil unless `value` is a project: a dictionary with `objects` (a
    /// dictionary of dictionaries, each with a string `isa`) and `rootObject`.
    init?(_ value: PropertyListValue) {
        guard case .dictionary(let root) = value, case .dictionary(let objects)? = root["objects"],
              case .string? = root["rootObject"],
              objects.values.allSatisfy({ if case .string? = $0["isa"] { return true }; return false }) else { return nil }
        self.root = root
        self.objects = objects
    }

    func write() -> String {
        var out = "// !$*UTF8*$!\n{\n"
        for key in root.sortedKeys {
            let member = root[key]!
            out += "\t" + Self.text(key) + " = "
            if key == "objects" {
                out += "{\n"
                appendSections(&out)
                out += "\t}"
            } else {
                append(member, indent: 1, &out)
            }
            out += ";\n"
        }
        return out + "}\n"
    }

    // MARK: Sections

    private func appendSections(_ out: inout String) {
        var byISA: [String: [String]] = [:]
        for (id, object) in objects { byISA[object["isa"]!.stringValue!, default: []].append(id) }
        for isa in byISA.keys.sorted() {
            out += "\n/* Begin \(isa) section */\n"
            for id in byISA[isa]!.sorted() {
                let object = objects[id]!.dictionaryValue!
                out += "\t\t" + reference(id) + " = "
                if isa == "PBXBuildFile" || isa == "PBXFileReference" {
                    out += "{"
                    for key in Self.keyOrder(object) {
                        out += Self.text(key) + " = "
                        appendInline(object[key]!, &out)
                        out += "; "
                    }
                    out += "};\n"
                } else {
                    append(.dictionary(object), indent: 2, &out)
                    out += ";\n"
                }
            }
            out += "/* End \(isa) section */\n"
        }
    }

    /// `isa` first, then the other keys sorted.
    private static func keyOrder(_ object: PropertyListDictionary) -> [String] {
        (object["isa"] == nil ? [] : ["isa"]) + object.sortedKeys.filter { $0 != "isa" }
    }

    // MARK: Values

    private func append(_ value: PropertyListValue, indent: Int, _ out: inout String) {
        let tabs = String(repeating: "\t", count: indent)
        switch value {
        case .dictionary(let dictionary):
            out += "{\n"
            for key in Self.keyOrder(dictionary) {
                out += tabs + "\t" + Self.text(key) + " = "
                append(dictionary[key]!, indent: indent + 1, &out)
                out += ";\n"
            }
            out += tabs + "}"
        case .array(let elements):
            out += "(\n"
            for element in elements {
                out += tabs + "\t"
                append(element, indent: indent + 1, &out)
                out += ",\n"
            }
            out += tabs + ")"
        default:
            appendInline(value, &out)
        }
    }

    /// A scalar, or a reference with its comment.
    private func appendInline(_ value: PropertyListValue, _ out: inout String) {
        if case .string(let string) = value, objects[string] != nil {
            out += reference(string)
            return
        }
        if case .dictionary(let dictionary) = value {
            out += "{"
            for key in Self.keyOrder(dictionary) {
                out += Self.text(key) + " = "
                appendInline(dictionary[key]!, &out)
                out += "; "
            }
            out += "}"
            return
        }
        if case .array(let elements) = value {
            out += "("
            for element in elements {
                appendInline(element, &out)
                out += ", "
            }
            out += ")"
            return
        }
        if case .string(let string) = value {
            out += Self.text(string)
        } else {
            out += (try? String(decoding: OpenStepWriter().write(value).dropLast(), as: UTF8.self)) ?? ""
        }
    }

    /// Xcode's quoting: bare when non-empty and only letters, digits, `_ $ / : .`
    /// (no `-`, unlike CF's unquoted set) and no `//`; quoted otherwise.
    static func text(_ string: String) -> String {
        let bare = !string.isEmpty && !string.contains("//") && string.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".": return true
            default: return false
            }
        }
        return bare ? string : OpenStepWriter.quoted(string)
    }

    // MARK: Comments

    /// An object's ID with its comment, when it has one.
    private func reference(_ id: String) -> String {
        // A comment holding "*/" would end early: such an object is written without one.
        guard let comment = comment(for: id), !comment.contains("*/") else { return Self.text(id) }
        return Self.text(id) + " /* " + comment + " */"
    }

    private func comment(for id: String) -> String? {
        guard let object = objects[id]?.dictionaryValue, let isa = object["isa"]?.stringValue else { return nil }
        switch isa {
        case "PBXProject":
            return "Project object"
        case "PBXBuildFile":
            let file = object["fileRef"]?.stringValue.flatMap { comment(for: $0) } ?? object["productRef"]?.stringValue.flatMap { comment(for: $0) }
            guard let file else { return nil }
            guard let phase = phaseName(containing: id) else { return file }
            return "\(file) in \(phase)"
        case "XCConfigurationList":
            for (ownerID, owner) in objects.sortedKeys.map({ ($0, objects[$0]!) }) where owner["buildConfigurationList"]?.stringValue == id {
                guard let ownerISA = owner["isa"]?.stringValue, ownerISA != "PBXProject" else { continue }
                _ = ownerID
                return "Build configuration list for \(ownerISA) \"\(owner["name"]?.stringValue ?? "")\""
            }
            for owner in objects.values where owner["buildConfigurationList"]?.stringValue == id && owner["isa"]?.stringValue == "PBXProject" {
                return "Build configuration list for PBXProject \"\(owner["name"]?.stringValue ?? "")\""
            }
            return nil
        default:
            if let phase = Self.phaseNames[isa] { return object["name"]?.stringValue ?? phase }
            if let name = object["name"]?.stringValue { return name }
            if let path = object["path"]?.stringValue { return path.split(separator: "/").last.map(String.init) ?? path }
            return nil
        }
    }

    /// The build phase a build file belongs to, by its default name.
    private func phaseName(containing buildFile: String) -> String? {
        for key in objects.sortedKeys {
            let object = objects[key]!
            guard let isa = object["isa"]?.stringValue, let phase = Self.phaseNames[isa],
                  case .array(let files)? = object["files"], files.contains(.string(buildFile)) else { continue }
            return object["name"]?.stringValue ?? phase
        }
        return nil
    }

    private static let phaseNames = [
        "PBXSourcesBuildPhase": "Sources", "PBXFrameworksBuildPhase": "Frameworks", "PBXResourcesBuildPhase": "Resources",
        "PBXHeadersBuildPhase": "Headers", "PBXCopyFilesBuildPhase": "CopyFiles", "PBXShellScriptBuildPhase": "ShellScript",
    ]
}
