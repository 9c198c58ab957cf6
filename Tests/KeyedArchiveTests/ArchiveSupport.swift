import Foundation
import KeyedArchive
import PropertyList
import UserInfo

/// A keyed archive with the given `$objects` (after `$null`) and root UID.
func archive(_ objects: [PropertyListValue], root: PropertyListValue = .uid(1),
             archiver: PropertyListValue = "NSKeyedArchiver", version: PropertyListValue = 100_000) -> PropertyListValue {
    .dictionary([
        "$archiver": archiver,
        "$version": version,
        "$top": ["root": root],
        "$objects": .array(["$null"] + objects),
    ])
}

/// A class entry with Apple's chain for `name` (or the given chain).
func classEntry(_ name: String, _ chain: [String]? = nil) -> PropertyListValue {
    ["$classname": .string(name), "$classes": .array((chain ?? [name, "NSObject"]).map { .string($0) })]
}

func uids(_ values: UInt32...) -> PropertyListValue { .array(values.map { .uid($0) }) }

/// Unarchives, returning the error (or nil when accepted).
func unarchiveError(_ plist: PropertyListValue, limits: PropertyListLimits = .default) -> UserInfoError? {
    do {
        _ = try KeyedArchiveReader(limits: limits).unarchive(plist)
        return nil
    } catch {
        return error
    }
}

func unarchive(_ plist: PropertyListValue) throws -> UserInfoValue {
    try KeyedArchiveReader().unarchive(plist)
}

/// Removes a top-level key from an archive.
func removing(_ key: String, from plist: PropertyListValue) -> PropertyListValue {
    var dictionary = plist.dictionaryValue!
    dictionary[key] = nil
    return .dictionary(dictionary)
}

/// Replaces a top-level key of an archive.
func replacing(_ key: String, with value: PropertyListValue, in plist: PropertyListValue) -> PropertyListValue {
    var dictionary = plist.dictionaryValue!
    dictionary[key] = value
    return .dictionary(dictionary)
}

/// The `$objects` of an archive.
func objects(_ plist: PropertyListValue) -> [PropertyListValue] {
    plist["$objects"]!.arrayValue!
}
