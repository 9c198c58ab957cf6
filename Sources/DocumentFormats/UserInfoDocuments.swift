import FoundationEssentials
public import PropertyList
public import UserInfo
import KeyedArchive
import TypedJSON

/// The userInfo side of the format layer: typed JSON and keyed archives, as
/// the command-line verbs need them, so that no verb calls a codec itself
/// (Specs/architecture.md, "Format layer").
extension Document {
    /// A userInfo value's typed JSON, two-space indented, with a final newline.
    ///
    /// - Throws: ``PropertyListError`` past `limits`.
    public static func typedJSON(_ value: UserInfoValue, limits: WriterLimits = .default) throws(PropertyListError) -> [UInt8] {
        Array(try TypedJSONWriter(pretty: true, limits: limits).write(value)) + [0x0A]
    }

    /// A userInfo value read from typed JSON.
    ///
    /// - Throws: ``UserInfoError``.
    public static func userInfo(typedJSON bytes: [UInt8], limits: PropertyListLimits = .default) throws(UserInfoError) -> UserInfoValue {
        try TypedJSONReader(limits: limits).readUserInfo(bytes.span.bytes)
    }

    /// A property-list value read from typed JSON (which is never guessed:
    /// it is JSON too).
    ///
    /// - Throws: ``UserInfoError``.
    public static func propertyList(typedJSON bytes: [UInt8], limits: PropertyListLimits = .default) throws(UserInfoError) -> PropertyListValue {
        try TypedJSONReader(limits: limits).readPropertyList(bytes.span.bytes)
    }

    /// A property-list value from a JSON text given on a command line (plain
    /// JSON, as `plutil -insert … -json` takes it).
    ///
    /// - Throws: ``PropertyListError``.
    public static func propertyList(json text: String) throws(PropertyListError) -> PropertyListValue {
        try PlainJSONReader().read(text.utf8.span.bytes)
    }

    /// The keyed archive of a userInfo value (NSKeyedArchiver's form), as a property list.
    ///
    /// - Throws: ``UserInfoError``.
    public static func archive(_ value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        try KeyedArchiveWriter().archive(value)
    }

    /// The keyed archive of a userInfo value written as `format`, refused
    /// (``ErrorCode/expansionLimitExceeded``) when a reader with the default
    /// limits would not read the value back from those bytes: equal objects
    /// are archived once, so a deep value can be written in few bytes
    /// (Specs/value-model.md, "Writer limits").
    ///
    /// - Throws: ``UserInfoError``.
    public static func archiveBytes(_ value: UserInfoValue, as format: DocumentFormat) throws(UserInfoError) -> [UInt8] {
        // Binary, NSKeyedArchiver's own form, is written without the archive's
        // property-list tree (Specs/keyed-archive.md, `directBinaryArchive`).
        if format == .binary { return try KeyedArchiveWriter().writeBytes(value) }
        return try KeyedArchiveWriter().archiveBytes(value) { archive throws(PropertyListError) in try Document.writeBytes(archive, as: format) }
    }

    /// True when `plist` has a keyed archive's top-level shape.
    public static func isArchive(_ plist: PropertyListValue) -> Bool {
        KeyedArchiveReader.isArchive(plist)
    }

    /// The userInfo value a keyed archive holds (the ten userInfo types only).
    ///
    /// - Throws: ``UserInfoError``.
    public static func unarchive(_ plist: PropertyListValue, inputBytes: Int) throws(UserInfoError) -> UserInfoValue {
        try KeyedArchiveReader().unarchive(plist, inputBytes: inputBytes)
    }

    /// A keyed archive of any classes as its object graph (``KeyedArchiveGraph``):
    /// each object numbered, each class written once, references as `{"$ref": N}`,
    /// measured against the budget of an input of `inputBytes`.
    ///
    /// - Throws: ``UserInfoError``.
    public static func archiveGraph(_ plist: PropertyListValue, plainJSON: Bool = false, inputBytes: Int) throws(UserInfoError) -> PropertyListValue {
        try KeyedArchiveGraph(archive: plist).rendered(plainJSON: plainJSON, limits: budget(inputBytes: inputBytes))
    }

    /// ``archiveGraph(_:plainJSON:inputBytes:)``, or nil when `plist` is no
    /// archive graph at all; a graph that renders past the budget still throws.
    ///
    /// - Throws: ``UserInfoError``.
    public static func archiveGraphIfAny(_ plist: PropertyListValue, inputBytes: Int) throws(UserInfoError) -> PropertyListValue? {
        guard let graph = try? KeyedArchiveGraph(archive: plist) else { return nil }
        return try graph.rendered(limits: budget(inputBytes: inputBytes))
    }

    /// A rendering within the expansion budget of an input of `inputBytes`.
    private static func budget(inputBytes: Int) -> WriterLimits {
        WriterLimits(maxExpandedBytes: PropertyListLimits.default.expansionBudget(inputBytes: inputBytes))
    }
}
