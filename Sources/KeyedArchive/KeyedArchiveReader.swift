public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Reads NSKeyedArchiver archives of userInfo values strictly: the archives
/// Apple's system writes for a Handoff `userInfo` (and Linux Foundation's),
/// with their mutable variants and class chains, and nothing else.
///
/// Every refusal is a ``UserInfoError`` naming the rule, the object index and
/// the key path. No input crashes or hangs the reader: object references are
/// checked before use, cycles are refused, shared objects are decoded once,
/// and ``PropertyListLimits`` bound depth, collection sizes and the size of
/// the tree shared references describe. See `Specs/keyed-archive.md`, "Reader".
///
/// ```swift
/// let userInfo = try KeyedArchiveReader().read(data)
/// ```
public struct KeyedArchiveReader: Sendable {
    /// Bounds for the property list and for the object graph.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Decodes a keyed archive given as a binary property list, the form
    /// NSKeyedArchiver writes. (An archive in any property-list format, or a
    /// plain userInfo, reads with `UserInfoCodec` of the DocumentFormats module.)
    public func read(_ data: Data) throws(UserInfoError) -> UserInfoValue {
        let plist: PropertyListValue
        do throws(PropertyListError) {
            plist = try BinaryPropertyListReader(limits: limits).read(data)
        } catch {
            throw UserInfoError(error)
        }
        return try unarchive(plist, inputBytes: data.count)
    }

    /// Decodes a keyed archive from its property-list value.
    ///
    /// - Parameters:
    ///   - archive: the archive's property list (its top-level dictionary).
    ///   - inputBytes: the size of the bytes the archive was read from,
    ///     which sets the expansion budget (Specs/value-model.md, "Expanded size");
    ///     nil leaves only `limits.maxExpandedBytes`.
    public func unarchive(_ archive: PropertyListValue, inputBytes: Int? = nil) throws(UserInfoError) -> UserInfoValue {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(error)
        }
        var decoder = try ArchiveDecoder(archive, limits: limits, inputBytes: inputBytes)
        return try decoder.decodeRoot()
    }

    /// True when `plist` looks like a keyed archive (a dictionary with `$archiver`),
    /// which is how decoding tells the keyed-archive profile from the plain one.
    public static func isArchive(_ plist: PropertyListValue) -> Bool {
        UserInfoProfile.of(plist) == .keyedArchive
    }
}

/// The archive's top-level structure, checked before any object is read.
extension ArchiveDecoder {
    /// The archive's top-level structure (Specs/keyed-archive.md, "Archive"):
    /// `$objects` and the root's UID, for the ten-type reader.
    static func archiveParts(_ archive: PropertyListValue) throws(UserInfoError) -> (objects: [PropertyListValue], root: PropertyListValue) {
        let (objects, topObject) = try archiveStructure(archive)
        // badTop: one root key, "root" (or the legacy "$$0"), holding a UID.
        guard topObject.count == 1, let key = topObject.keys.first, key == Field.root || key == Field.legacyRoot,
              case .uid = topObject[key]! else {
            throw UserInfoError(.badTop, "$top is not a dictionary with one root key holding a UID")
        }
        return (objects, topObject[key]!)
    }

    /// The parts of any archive, shared by the ten-type reader and the graph
    /// reader (``KeyedArchiveGraph``): `$objects`, and `$top`, which may hold
    /// any keys (Xcode's `State`, a nib's `IB.objectdata`).
    static func archiveStructure(_ archive: PropertyListValue) throws(UserInfoError) -> (objects: [PropertyListValue], top: PropertyListDictionary) {
        guard case .dictionary(let top) = archive else {
            throw UserInfoError(.missingArchiveKey, "a keyed archive is a dictionary, not a \(archive.typeName)")
        }
        // missingArchiveKey / unexpectedArchiveKey: exactly $archiver, $version, $top, $objects.
        for key in [Field.archiver, Field.version, Field.top, Field.objects$] where top[key] == nil {
            throw UserInfoError(.missingArchiveKey, "the archive has no \(key)")
        }
        if let extra = top.keys.first(where: { ![Field.archiver, Field.version, Field.top, Field.objects$].contains($0) }) {
            throw UserInfoError(.unexpectedArchiveKey, "the archive has an unexpected top-level key \"\(extra)\"")
        }
        // wrongArchiver
        guard case .string(let archiver) = top[Field.archiver]!, archiver == Field.archiverName else {
            throw UserInfoError(.wrongArchiver, "$archiver is not \"NSKeyedArchiver\"")
        }
        // wrongVersion
        guard case .integer(let version) = top[Field.version]!, version.int64Value == Int64(Field.archiveVersion) else {
            throw UserInfoError(.wrongVersion, "$version is not 100000")
        }
        // badObjects: an array whose first object is the string "$null".
        guard case .array(let objects) = top[Field.objects$]!, let first = objects.first,
              case .string(let null) = first, ExactString.equal(null, Field.nullObject) else {
            throw UserInfoError(.badObjects, "$objects is not an array starting with \"$null\"")
        }
        // badTop: $top is a dictionary.
        guard case .dictionary(let topObject) = top[Field.top]! else {
            throw UserInfoError(.badTop, "$top is not a dictionary")
        }
        return (objects, topObject)
    }
}
