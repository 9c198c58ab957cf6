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
    /// The phase that lists each build file, and the comment of each
    /// configuration list, found in one pass over the objects (looking them up
    /// per reference made a project of n files cost n² to write).
    private let phaseOfBuildFile: [String: String]
    private let configurationListComments: [String: String]

    /// Nil unless `value` is a project: a dictionary with `objects` (a
    /// dictionary of dictionaries, each with a string `isa`) and `rootObject`.
    init?(_ value: PropertyListValue) {
        guard case .dictionary(let root) = value, case .dictionary(let objects)? = root["objects"],
              case .string? = root["rootObject"],
              objects.values.allSatisfy({ if case .string? = $0["isa"] { return true }; return false }) else { return nil }
        self.root = root
        self.objects = objects
        var phases: [String: String] = [:]
        var lists: [String: String] = [:]
        var projectLists: [String: String] = [:]
        for id in objects.sortedKeys {
            let object = objects[id]!
            let isa = object["isa"]!.stringValue!
            if let phase = Self.phaseNames[isa], case .array(let files)? = object["files"] {
                for case .string(let file) in files where phases[file] == nil { phases[file] = object["name"]?.stringValue ?? phase }
            }
            if case .string(let list)? = object["buildConfigurationList"] {
                // A target's use of a list names it first; the project's only when no target uses it.
                let comment = "Build configuration list for \(isa) \"\(object["name"]?.stringValue ?? "")\""
                if isa == "PBXProject" { projectLists[list] = projectLists[list] ?? comment } else if lists[list] == nil { lists[list] = comment }
            }
        }
        phaseOfBuildFile = phases
        configurationListComments = lists.merging(projectLists) { target, _ in target }
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
            // The file's own comment, never another build file's (a build file
            // referring to itself or to another recursed forever; found by fuzzing).
            func fileComment(_ reference: String?) -> String? {
                guard let reference, objects[reference]?["isa"]?.stringValue != "PBXBuildFile" else { return nil }
                return comment(for: reference)
            }
            let file = fileComment(object["fileRef"]?.stringValue) ?? fileComment(object["productRef"]?.stringValue)
            guard let file else { return nil }
            guard let phase = phaseOfBuildFile[id] else { return file }
            return "\(file) in \(phase)"
        case "XCConfigurationList":
            return configurationListComments[id]
        default:
            if let phase = Self.phaseNames[isa] { return object["name"]?.stringValue ?? phase }
            if let name = object["name"]?.stringValue { return name }
            if let path = object["path"]?.stringValue { return path.split(separator: "/").last.map(String.init) ?? path }
            return nil
        }
    }

    private static let phaseNames = [
        "PBXSourcesBuildPhase": "Sources", "PBXFrameworksBuildPhase": "Frameworks", "PBXResourcesBuildPhase": "Resources",
        "PBXHeadersBuildPhase": "Headers", "PBXCopyFilesBuildPhase": "CopyFiles", "PBXShellScriptBuildPhase": "ShellScript",
    ]
}
