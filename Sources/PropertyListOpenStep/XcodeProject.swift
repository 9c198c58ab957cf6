public import PropertyList

/// Facts about Xcode project files, and where the name of a project comes from (Specs/openstep.md, "Xcode
/// projects"). Xcode writes the name of the `.xcodeproj` in one comment of the
/// project file — `Build configuration list for PBXProject "Planner"` — but
/// keeps it nowhere in the file's value: a writer must be told it.
public enum XcodeProject {
    /// The project's name from the path of its file: `Planner` for
    /// `…/Planner.xcodeproj/project.pbxproj` (or Xcode 1's `Planner.xcode`);
    /// nil for any other path.
    public static func name(forPath path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard components.count >= 2, components[components.count - 1] == "project.pbxproj" else { return nil }
        let bundle = components[components.count - 2]
        for suffix in [".xcodeproj", ".xcode"] where bundle.hasSuffix(suffix) && bundle.count > suffix.count {
            return String(bundle.dropLast(suffix.count))
        }
        return nil
    }

    /// The name a project file records in its own configuration-list comment
    /// (the text between `Build configuration list for PBXProject "` and the
    /// next `" */` on the same line), or nil when it has none: what Xcode
    /// wrote, for a file read without its path (standard input, a renamed copy).
    public static func recordedName(in text: some Collection<UInt8>) -> String? {
        let bytes = Array(text)
        let marker = Array("/* Build configuration list for PBXProject \"".utf8)
        guard let start = firstIndex(of: marker, in: bytes, from: 0) else { return nil }
        let nameStart = start + marker.count
        var end = nameStart
        while end + 3 < bytes.count, bytes[end] != 0x0A {
            if bytes[end] == UInt8(ascii: "\""), bytes[end + 1] == UInt8(ascii: " "), bytes[end + 2] == UInt8(ascii: "*"), bytes[end + 3] == UInt8(ascii: "/") {
                return String(validating: bytes[nameStart..<end], as: UTF8.self)
            }
            end += 1
        }
        return nil
    }

    /// The comment each object's definition carries in a project file's text
    /// (`\t\tID /* comment */ = {`), by ID: what Xcode wrote, for the few
    /// comments Xcode writes in more than one way for one object
    /// (``OpenStepWriter/recordedComments``). Lines of any other shape are
    /// passed over; the cost is one pass over the text.
    public static func recordedComments(in text: some Collection<UInt8>) -> [String: String] {
        var comments: [String: String] = [:]
        let (open, close) = (Array(" /* ".utf8), Array(" */ = {".utf8))
        for line in Array(text).split(separator: 0x0A, omittingEmptySubsequences: true) {
            // \t\tID /* comment */ = {…  (a multi-line object's first line, or a one-line object)
            guard line.count > 10, line.starts(with: [0x09, 0x09]) else { continue }
            let body = Array(line.dropFirst(2))
            guard let commentStart = firstIndex(of: open, in: body, from: 0),
                  let commentEnd = firstIndex(of: close, in: body, from: commentStart + open.count),
                  let id = String(validating: body[..<commentStart], as: UTF8.self), !id.isEmpty, !id.contains(" "),
                  let comment = String(validating: body[(commentStart + open.count)..<commentEnd], as: UTF8.self) else { continue }
            comments[id] = comment
        }
        return comments
    }

    /// Whether `value` is a project's value: a dictionary with `objects` (a
    /// dictionary of dictionaries, each with a string `isa`) and a string
    /// `rootObject` — what ``OpenStepWriter/Style/xcodeProject`` writes.
    public static func isProject(_ value: PropertyListValue) -> Bool {
        XcodeProjectLayout.parts(of: value) != nil
    }

    /// Whether a text starts as every project file Xcode writes: `// !$*UTF8*$!`.
    public static func hasHeader(_ text: some Collection<UInt8>) -> Bool {
        text.starts(with: "// !$*UTF8*$!".utf8)
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
