import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// Writes OpenStep text property lists and `.strings` files, deterministically
/// (Specs/openstep.md, "Writer"): tabs, `key = value;`, arrays one element per
/// line with a trailing comma (Xcode's layout), strings quoted only where
/// needed, data as `<hex>` in groups of four bytes. Integers, reals, booleans
/// and dates are written in GNUstep's typed forms (`<*I…>`), which this
/// package reads back exactly and CoreFoundation does not read: a property
/// list of strings, data, arrays and dictionaries is one CF reads.
///
/// ```swift
/// let text = try OpenStepWriter().write(.dictionary(["name": "café"]))
/// ```
public struct OpenStepWriter: PropertyListByteWriter {
    /// What the writer writes.
    public enum Style: Sendable, Hashable {
        /// A property list: `{ … }`, `( … )`, or a scalar.
        case propertyList
        /// A `.strings` file: a dictionary of strings as `"key" = "value";` lines, no braces.
        case strings
        /// An Xcode project file (`.pbxproj`) in Xcode's layout: sections by `isa`,
        /// object comments, one-line build files and file references.
        case xcodeProject
    }

    /// What is written (``Style/propertyList`` by default).
    public var style: Style
    /// The order of dictionary keys (``KeyOrder/sorted`` by default).
    public var keyOrder: KeyOrder = .sorted
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger than a reader with the same limits reads.
    public var limits: WriterLimits
    /// ``Style/xcodeProject``: the name of the `.xcodeproj` the project file is
    /// in (`Planner` for `Planner.xcodeproj/project.pbxproj`). Xcode writes it in
    /// the comment of the project's configuration list, and the file holds it
    /// nowhere else: see ``XcodeProject/name(forPath:)`` and
    /// ``XcodeProject/recordedName(in:)``. Empty by default.
    public var projectName: String = ""
    /// ``Style/xcodeProject``: the comments the project's own text recorded for
    /// its objects (``XcodeProject/recordedComments(in:)``), kept only where
    /// Xcode writes one object's comment in more than one way (a remote
    /// package named with or without its URL's extension). Empty by default.
    public var recordedComments: [String: String] = [:]
    /// The text's encoding (UTF-8 without a byte-order mark by default); a
    /// `.strings` file read as UTF-16 is written back as UTF-16 with its mark.
    /// An Xcode project is always UTF-8 (its first line says so).
    public var encoding: TextEncoding = .utf8

    /// Creates a writer.
    public init(style: Style = .propertyList, limits: WriterLimits = .default) {
        self.limits = limits
        self.style = style
    }

    /// The text of `value` in ``encoding``, ending in a newline
    /// (``PropertyListByteWriter/write(_:)`` gives it as `Data`).
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/unrepresentableValue`` for a
    ///   UID, a null, a non-finite real, (``Style/strings``) anything but a
    ///   dictionary of strings, or (``Style/xcodeProject``) an encoding other than
    ///   UTF-8; ``ErrorCode/invalidDate``; the limits.
    public func writeBytes(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        try limits.validate()
        var meter = ExpansionMeter(limit: limits.maxExpandedBytes)
        var out = ""
        switch style {
        case .propertyList:
            try append(value, depth: 0, meter: &meter, to: &out)
            out += "\n"
        case .xcodeProject:
            // unrepresentableValue: an Xcode project is UTF-8 (`// !$*UTF8*$!`).
            guard encoding == .utf8 else {
                throw PropertyListError(.unrepresentableValue, "an Xcode project file is UTF-8 without a byte-order mark, not \(encoding.rawValue)")
            }
            // unrepresentableValue: a project is a dictionary with objects (each with an isa) and a rootObject.
            guard let layout = XcodeProjectLayout(value, projectName: projectName, recordedComments: recordedComments) else {
                throw PropertyListError(.unrepresentableValue, "not an Xcode project: a dictionary with objects (each with an isa) and a rootObject")
            }
            out = try layout.write(maxDepth: limits.maxDepth, meter: &meter)
        case .strings:
            // unrepresentableValue: a .strings file is a dictionary of strings.
            guard case .dictionary(let dictionary) = value else {
                throw PropertyListError(.unrepresentableValue, "a .strings file is a dictionary, not a \(value.typeName)")
            }
            try meter.charge(depth: 0, payload: 0)
            for position in dictionary.writerOrder(keyOrder) {
                let (key, member) = dictionary[position]
                guard case .string(let string) = member else {
                    throw PropertyListError(.unrepresentableValue, "a .strings file holds strings, not a \(member.typeName)", keyPath: PropertyListKeyPath([.key(key)]))
                }
                try meter.charge(depth: 1, payload: key.utf8.count + string.utf8.count)
                out += Self.quoted(key) + " = " + Self.quoted(string) + ";\n"
            }
            // A .strings file without entries is a line break: an empty text
            // (zero characters) is no document to CF or to us.
            if out.isEmpty { out = "\n" }
        }
        let bytes = encoding.encode(out)
        try meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }

    private func append(_ value: PropertyListValue, depth: Int, meter: inout ExpansionMeter, to out: inout String) throws(PropertyListError) {
        try meter.charge(depth: depth, payload: value.payloadBytes)
        switch value {
        case .string(let string): out += Self.text(string)
        case .data(let data):
            out += "<"
            for (position, byte) in data.enumerated() {
                if position > 0 && position % 4 == 0 { out += " " }
                out += Hex.lower(byte)
            }
            out += ">"
        case .integer(let integer): out += "<*I\(integer)>"
        case .real(let real):
            guard real.isFinite else { throw PropertyListError(.unrepresentableValue, "OpenStep has no form for the real \(real)") }
            out += "<*R\(real)>"
        case .bool(let flag): out += flag ? "<*BY>" : "<*BN>"
        case .date(let date):
            guard let text = Self.gnustepDate(date.timeIntervalSinceReferenceDate) else {
                throw PropertyListError(.invalidDate, "the date \(date.timeIntervalSinceReferenceDate) has no whole-second GNUstep form")
            }
            out += "<*D\(text)>"
        case .uid, .null:
            throw PropertyListError(.unrepresentableValue, "OpenStep has no form for a \(value.typeName)")
        case .array(let elements):
            guard depth < limits.maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)") }
            out += "(\n"
            for (position, element) in elements.enumerated() {
                out += String(repeating: "\t", count: depth + 1)
                do { try append(element, depth: depth + 1, meter: &meter, to: &out) } catch { throw error.inside(.index(position)) }
                out += ",\n"
            }
            out += String(repeating: "\t", count: depth) + ")"
        case .dictionary(let dictionary):
            guard depth < limits.maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)") }
            out += "{\n"
            for position in dictionary.writerOrder(keyOrder) {
                let (key, member) = dictionary[position]
                try meter.charge(depth: depth + 1, payload: key.utf8.count)
                out += String(repeating: "\t", count: depth + 1) + Self.text(key) + " = "
                do { try append(member, depth: depth + 1, meter: &meter, to: &out) } catch { throw error.inside(.key(key)) }
                out += ";\n"
            }
            out += String(repeating: "\t", count: depth) + "}"
        }
    }

    /// A string bare when CF reads it back as itself unquoted, else quoted.
    static func text(_ string: String) -> String {
        let bare = !string.isEmpty && !string.contains("//") && !string.contains("/*")
            && string.unicodeScalars.allSatisfy(OpenStepReader.isUnquoted)
        return bare ? string : quoted(string)
    }

    /// A quoted string: `\` and `"` escaped, line breaks and tabs as `\n`, `\r`,
    /// `\t`, other controls as `\Uxxxx`; everything else as it is (UTF-8).
    /// `rawDelete`: U+007F as it is (Xcode writes it so in a project file).
    static func quoted(_ string: String, rawDelete: Bool = false) -> String {
        var out = "\""
        TextEscaping.append(string, quoted: true, to: &out) { scalar, _ in
            guard scalar.value < 0x20 || (scalar.value == 0x7F && !rawDelete) || scalar == "\u{2028}" || scalar == "\u{2029}" else { return nil }
            let hex = String(scalar.value, radix: 16, uppercase: false)
            return "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        return out + "\""
    }

    /// `YYYY-MM-DD HH:MM:SS +0000` for whole seconds; nil otherwise.
    static func gnustepDate(_ seconds: Double) -> String? {
        guard PropertyListValue.isValidDate(seconds), seconds.rounded(.down) == seconds else { return nil }
        guard let iso = CivilTime.iso8601(secondsSinceReference: seconds), iso.count == 20, iso.hasSuffix("Z") else { return nil }
        // 2001-01-01T00:00:00Z → 2001-01-01 00:00:00 +0000
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " +0000"
    }
}
