import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// Xcode's layout for a project file (`.pbxproj`; Specs/openstep.md, "Xcode
/// projects"): the `// !$*UTF8*$!` line; `objects` in sections by `isa`
/// (`/* Begin PBXBuildFile section */` …), each section's objects by ID;
/// `isa` first in every object, the other keys sorted; build files, file
/// references (and Xcode 16.0's synchronized groups) on one line; every
/// reference to an object followed by the comment Xcode gives it
/// (`/* main.swift */`, `/* main.swift in Sources */`, `/* Project object */`,
/// `/* PBXContainerItemProxy */`, …). Strings are quoted as Xcode quotes them.
struct XcodeProjectLayout {
    let objects: PropertyListDictionary
    let root: PropertyListDictionary
    /// The `.xcodeproj`'s name, for the project's configuration-list comment.
    let projectName: String
    /// The comments the input's own text recorded for its objects, kept where
    /// Xcode writes one object's comment in more than one way.
    let recordedComments: [String: String]
    /// The phase that lists each build file, the comment of each
    /// configuration list, and the folder and target of each synchronized
    /// exception set, found in one pass over the objects (looking them up per
    /// reference made a project of n files cost n² to write).
    private let phaseOfBuildFile: [String: String]
    private let configurationListComments: [String: String]
    private let configurationComments: [String: String]
    private let exceptionSetComments: [String: String]

    /// Nil unless `value` is a project: a dictionary with `objects` (a
    /// dictionary of dictionaries, each with a string `isa`) and `rootObject`.
    init?(_ value: PropertyListValue, projectName: String, recordedComments: [String: String] = [:]) {
        guard let (root, objects) = Self.parts(of: value) else { return nil }
        self.root = root
        self.objects = objects
        self.projectName = projectName
        self.recordedComments = recordedComments
        // Format 90 and later (Xcode 16.3 on) name each build configuration after
        // its list's owner: `Debug configuration for PBXNativeTarget "App"`.
        let ownerNamedConfigurations = root["objectVersion"]?.stringValue.flatMap { Int($0) }.map { $0 >= 90 } ?? false
        var owners: [String: (isa: String, name: String, isTarget: Bool)] = [:]
        var phases: [String: String] = [:]
        var lists: [String: String] = [:]
        var projectLists: [String: String] = [:]
        var exceptionSets: [String: String] = [:]
        for id in objects.sortedKeys {
            let object = objects[id]!
            let isa = object["isa"]!.stringValue!
            if let phase = Self.phaseNames[isa], case .array(let files)? = object["files"] {
                for case .string(let file) in files where phases[file] == nil { phases[file] = object["name"]?.stringValue ?? phase }
            }
            if case .string(let list)? = object["buildConfigurationList"] {
                // A target's use of a list names it first; the project's only when no target uses it.
                let name = isa == "PBXProject" ? projectName : object["name"]?.stringValue ?? ""
                let comment = "Build configuration list for \(isa) \"\(name)\""
                if isa == "PBXProject" { projectLists[list] = projectLists[list] ?? comment } else if lists[list] == nil { lists[list] = comment }
                if owners[list] == nil || (owners[list]?.isTarget == false && isa != "PBXProject") {
                    owners[list] = (isa, name, isa != "PBXProject")
                }
            }
            // Xcode 16.1 and later name a synchronized group's exception set by the
            // group's folder and the set's target; Xcode 16.0 (whose groups are
            // written on one line) by its isa.
            if isa == "PBXFileSystemSynchronizedRootGroup", !Self.isOneLine(object), case .array(let sets)? = object["exceptions"] {
                let folder = object["path"]?.stringValue ?? object["name"]?.stringValue ?? ""
                for case .string(let set) in sets where exceptionSets[set] == nil {
                    guard let exceptionSet = objects[set], exceptionSet["isa"]?.stringValue == "PBXFileSystemSynchronizedBuildFileExceptionSet",
                          let target = exceptionSet["target"]?.stringValue, let targetName = objects[target]?["name"]?.stringValue else { continue }
                    exceptionSets[set] = "Exceptions for \"\(folder)\" folder in \"\(targetName)\" target"
                }
            }
        }
        phaseOfBuildFile = phases
        configurationListComments = lists.merging(projectLists) { target, _ in target }
        var configurations: [String: String] = [:]
        if ownerNamedConfigurations {
            for list in owners.keys.sorted() {
                let owner = owners[list]!
                guard case .array(let members)? = objects[list]?["buildConfigurations"] else { continue }
                for case .string(let configuration) in members where configurations[configuration] == nil {
                    guard let name = objects[configuration]?["name"]?.stringValue else { continue }
                    configurations[configuration] = "\(name) configuration for \(owner.isa) \"\(owner.name)\""
                }
            }
        }
        configurationComments = configurations
        exceptionSetComments = exceptionSets
    }

    /// A project's top dictionary and its objects, when `value` is a project.
    static func parts(of value: PropertyListValue) -> (root: PropertyListDictionary, objects: PropertyListDictionary)? {
        guard case .dictionary(let root) = value, case .dictionary(let objects)? = root["objects"],
              case .string? = root["rootObject"],
              // A class name that cannot stand in a section's comment: the generic layout.
              objects.values.allSatisfy({ if case .string(let isa)? = $0["isa"] { return isCommentable(isa) }; return false }) else { return nil }
        return (root, objects)
    }

    /// The project's text, within `meter`'s expanded-size budget and `maxDepth`.
    func write(maxDepth: Int, meter: inout ExpansionMeter) throws(PropertyListError) -> String {
        var writer = Writer(layout: self, maxDepth: maxDepth, meter: meter)
        try writer.project()
        meter = writer.meter
        return writer.out
    }

    // MARK: Layout rules

    /// Objects Xcode writes on one line: build files, file references, and the
    /// synchronized groups of Xcode 16.0, which always wrote `explicitFileTypes`
    /// and `explicitFolders` (later versions write them only when not empty, and
    /// write every group on several lines).
    static func isOneLine(_ object: PropertyListValue) -> Bool {
        switch object["isa"]?.stringValue {
        case "PBXBuildFile", "PBXFileReference": return true
        case "PBXFileSystemSynchronizedRootGroup": return object["explicitFileTypes"] != nil && object["explicitFolders"] != nil
        default: return false
        }
    }

    /// `isa` first, then the other keys sorted.
    static func keyOrder(_ object: PropertyListDictionary) -> [String] {
        (object["isa"] == nil ? [] : ["isa"]) + object.sortedKeys.filter { $0 != "isa" }
    }

    /// Keys whose string values name an object but that Xcode writes without
    /// its comment: they hold IDs as data (a proxy's remote object, possibly in
    /// another project; a test target named in the project's attributes).
    static let uncommentedKeys: Set<String> = ["remoteGlobalIDString", "TestTargetID"]

    /// Xcode's quoting: bare when non-empty, only of ASCII letters, digits,
    /// `_ $ / .`, and holding neither `//` nor `___` (Xcode's template
    /// placeholders); quoted otherwise, with `\\ \" \n \t` escaped and U+007F
    /// as it is (as Xcode writes them; other controls, never seen in Xcode's
    /// files, as the generic writer escapes them).
    static func text(_ string: String) -> String {
        var bare = !string.isEmpty
        var previous: UInt8 = 0, run = 0
        for byte in string.utf8 where bare {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "$"), UInt8(ascii: "."):
                break
            case UInt8(ascii: "/"): bare = previous != byte
            case UInt8(ascii: "_"): bare = !(previous == byte && run >= 2)
            default: bare = false
            }
            run = byte == previous ? run + 1 : 1
            previous = byte
        }
        return bare ? string : OpenStepWriter.quoted(string, rawDelete: true)
    }

    // MARK: Comments

    /// Whether `text` can stand inside `/* … */` (commentSafety): not holding
    /// `*/`, which would end the comment early, nor a character no
    /// human-readable output shows raw (a NUL would make the file read as
    /// binary; a line or bidirectional control would forge what a reviewer
    /// sees). Comments are regenerated from the value, so one left out loses
    /// nothing.
    static func isCommentable(_ text: String) -> Bool {
        !text.contains("*/") && !text.unicodeScalars.contains(where: JSONText.isUnreadable)
    }

    /// The comment Xcode writes after a reference to `id`, or nil for none.
    func comment(for id: String) -> String? {
        guard let object = objects[id]?.dictionaryValue, let isa = object["isa"]?.stringValue else { return nil }
        switch isa {
        case "PBXProject":
            return "Project object"
        case "PBXBuildFile":
            // The file's own comment (or the package product's name), never
            // another build file's (a build file referring to itself or to
            // another recursed forever; found by fuzzing); "(null)" when neither.
            func fileComment(_ reference: String?) -> String? {
                guard let reference, objects[reference]?["isa"]?.stringValue != "PBXBuildFile" else { return nil }
                return comment(for: reference)
            }
            let file = fileComment(object["fileRef"]?.stringValue) ?? fileComment(object["productRef"]?.stringValue) ?? "(null)"
            guard let phase = phaseOfBuildFile[id] else { return file }
            return "\(file) in \(phase)"
        case "XCConfigurationList":
            return configurationListComments[id]
        case "XCBuildConfiguration":
            return configurationComments[id] ?? object["name"]?.stringValue
        case "PBXContainerItemProxy", "PBXTargetDependency", "PBXBuildRule",
             "PBXFileSystemSynchronizedBuildFileExceptionSet", "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet":
            // Xcode names these by their class, even a dependency with a name.
            return exceptionSetComments[id] ?? isa
        case "XCRemoteSwiftPackageReference":
            // The URL's last component without its extension; Xcode has also
            // written it with the extension (`"LightChart.git"`): a file that
            // records that form keeps it.
            let url = object["repositoryURL"]?.stringValue ?? ""
            let withExtension = "XCRemoteSwiftPackageReference \"\(Self.lastComponent(url))\""
            if recordedComments[id] == withExtension { return withExtension }
            return "XCRemoteSwiftPackageReference \"\(Self.packageName(url))\""
        case "XCLocalSwiftPackageReference":
            return "XCLocalSwiftPackageReference \"\(object["relativePath"]?.stringValue ?? "")\""
        case "XCSwiftPackageProductDependency":
            // A plugin product (`plugin:SwiftLint`) is named without its prefix.
            guard let product = object["productName"]?.stringValue else { return nil }
            return product.hasPrefix("plugin:") ? String(product.dropFirst("plugin:".count)) : product
        default:
            if let phase = Self.phaseNames[isa] { return object["name"]?.stringValue ?? phase }
            return object["name"]?.stringValue ?? object["path"]?.stringValue
        }
    }

    /// A package's name as Xcode shows it: the repository URL's last path
    /// component without its extension (`…/realm-swift.git` → `realm-swift`,
    /// `…/GRMustache.swift` → `GRMustache`, `…/Sparkle/` → `Sparkle`).
    static func packageName(_ url: String) -> String {
        let last = lastComponent(url)
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    /// A URL's last non-empty path component.
    static func lastComponent(_ url: String) -> String {
        url.split(separator: "/").last.map(String.init) ?? ""
    }

    static let phaseNames = [
        "PBXSourcesBuildPhase": "Sources", "PBXFrameworksBuildPhase": "Frameworks", "PBXResourcesBuildPhase": "Resources",
        "PBXHeadersBuildPhase": "Headers", "PBXCopyFilesBuildPhase": "CopyFiles", "PBXShellScriptBuildPhase": "ShellScript",
        "PBXRezBuildPhase": "Rez",
    ]
}

/// The text of one project, written depth-first within the limits.
private struct Writer {
    let layout: XcodeProjectLayout
    let maxDepth: Int
    var meter: ExpansionMeter
    var out = ""

    init(layout: XcodeProjectLayout, maxDepth: Int, meter: ExpansionMeter) {
        self.layout = layout
        self.maxDepth = maxDepth
        self.meter = meter
    }

    mutating func project() throws(PropertyListError) {
        out = "// !$*UTF8*$!\n{\n"
        try meter.charge(depth: 0, payload: 0)
        for key in layout.root.sortedKeys {
            let member = layout.root[key]!
            try meter.charge(depth: 1, payload: key.utf8.count)
            out += "\t" + XcodeProjectLayout.text(key) + " = "
            if key == "objects" {
                out += "{\n"
                try sections()
                out += "\t}"
            } else {
                do { try append(member, key: key, depth: 1, multiLine: true) } catch { throw error.inside(.key(key)) }
            }
            out += ";\n"
        }
        out += "}\n"
    }

    // MARK: Sections

    /// The objects in sections by `isa`, each section's objects by ID, both in
    /// UTF-16 order and compared exactly: two spellings of a class name (`é`
    /// and `e` + U+0301) are two sections. (Grouped by `String`, they were one,
    /// under whichever spelling came first, so that writing what was read
    /// changed the section's name: found by openstep-read's fixed-point oracle.)
    private mutating func sections() throws(PropertyListError) {
        let order = layout.objects.keys.map { id in
            (isa: layout.objects[id]!["isa"]!.stringValue!, id: id)
        }.sorted { a, b in
            a.isa.utf16.elementsEqual(b.isa.utf16) ? a.id.utf16.lexicographicallyPrecedes(b.id.utf16)
                : a.isa.utf16.lexicographicallyPrecedes(b.isa.utf16)
        }
        for (position, (isa, id)) in order.enumerated() {
            let opensSection = position == 0 || !order[position - 1].isa.utf16.elementsEqual(isa.utf16)
            if opensSection {
                out += "\n/* Begin \(isa) section */\n"
            }
            let object = layout.objects[id]!
            try meter.charge(depth: 2, payload: id.utf8.count)
            out += "\t\t" + (try reference(id)) + " = "
            do {
                try append(object, key: nil, depth: 2, multiLine: !XcodeProjectLayout.isOneLine(object))
            } catch {
                throw error.inside(.key("objects")).inside(.key(id))
            }
            out += ";\n"
            if position == order.count - 1 || !order[position + 1].isa.utf16.elementsEqual(isa.utf16) {
                out += "/* End \(isa) section */\n"
            }
        }
    }

    // MARK: Values

    /// A value `depth` containers deep; `key` is the key it is the value of
    /// (which decides whether an object ID gets its comment). A container
    /// on lines of its own (`multiLine`: each member on a line one tab
    /// deeper than its brackets), or on the current line as `{k = v; }` /
    /// `(a, b, )`, and so is everything inside it; a scalar, or a reference
    /// with its comment, on the current line.
    private mutating func append(_ value: PropertyListValue, key: String?, depth: Int, multiLine: Bool) throws(PropertyListError) {
        switch value {
        case .dictionary(let dictionary):
            try enter(depth)
            let marks = Self.marks("{", ";", "}", depth: depth, multiLine: multiLine)
            out += marks.opening
            for member in XcodeProjectLayout.keyOrder(dictionary) {
                try meter.charge(depth: depth + 1, payload: member.utf8.count)
                if multiLine { out += marks.indent }
                out += XcodeProjectLayout.text(member) + " = "
                do { try append(dictionary[member]!, key: member, depth: depth + 1, multiLine: multiLine) } catch { throw error.inside(.key(member)) }
                out += marks.terminator
            }
            out += marks.closing
        case .array(let elements):
            try enter(depth)
            let marks = Self.marks("(", ",", ")", depth: depth, multiLine: multiLine)
            out += marks.opening
            for (position, element) in elements.enumerated() {
                if multiLine { out += marks.indent }
                do { try append(element, key: key, depth: depth + 1, multiLine: multiLine) } catch { throw error.inside(.index(position)) }
                out += marks.terminator
            }
            out += marks.closing
        case .string(let string):
            try meter.charge(depth: depth, payload: string.utf8.count)
            if layout.objects[string] != nil, !XcodeProjectLayout.uncommentedKeys.contains(key ?? "") {
                out += try reference(string)
            } else {
                out += XcodeProjectLayout.text(string)
            }
        default:
            // Xcode's projects hold strings only; other values in GNUstep's typed forms.
            try meter.charge(depth: depth, payload: value.payloadBytes)
            out += String(decoding: try OpenStepWriter().write(value).dropLast(), as: UTF8.self)
        }
    }

    /// A container's brackets and the mark after each member, with Xcode's
    /// line breaks and the tabs before each member and the closing bracket
    /// (`multiLine`), or with a space after each mark (inline).
    private static func marks(_ open: String, _ mark: String, _ close: String, depth: Int,
                              multiLine: Bool) -> (opening: String, indent: String, terminator: String, closing: String) {
        guard multiLine else { return (open, "", mark + " ", close) }
        let tabs = String(repeating: "\t", count: depth)
        return (open + "\n", tabs + "\t", mark + "\n", tabs + close)
    }

    /// A container opens at `depth`: within the depth limit.
    private func enter(_ depth: Int) throws(PropertyListError) {
        // depthLimitExceeded
        guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
    }

    /// An object's ID with its comment, when it has one. The comment's bytes
    /// are charged too: one long name referred to many times must not expand
    /// the output past the budget.
    private mutating func reference(_ id: String) throws(PropertyListError) -> String {
        // commentSafety: a comment that could not stand in the file is left out.
        guard let comment = layout.comment(for: id), XcodeProjectLayout.isCommentable(comment) else { return XcodeProjectLayout.text(id) }
        try meter.charge(depth: 0, payload: comment.utf8.count)
        return XcodeProjectLayout.text(id) + " /* " + comment + " */"
    }
}
