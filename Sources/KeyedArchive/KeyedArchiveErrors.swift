public import PropertyList
import UserInfo

// Error codes of the keyed-archive reader, writer and profiles. Each is a rule
// in Specs/keyed-archive.md, under the same name. They are thrown as
// ``UserInfoError``s, the error of the userInfo layer.

extension ErrorCode {
    /// The archive's top-level dictionary lacks `$archiver`, `$version`, `$top` or `$objects`.
    public static let missingArchiveKey = Self("missingArchiveKey")
    /// The archive's top-level dictionary has a key other than those four.
    public static let unexpectedArchiveKey = Self("unexpectedArchiveKey")
    /// `$archiver` is not the string `NSKeyedArchiver`.
    public static let wrongArchiver = Self("wrongArchiver")
    /// `$version` is not the integer 100000.
    public static let wrongVersion = Self("wrongVersion")
    /// `$objects` is not an array starting with the string `$null`.
    public static let badObjects = Self("badObjects")
    /// `$top` is not a dictionary with exactly one root key (`root`, or the legacy `$$0`) holding a UID.
    public static let badTop = Self("badTop")
    /// The root reference is nil (UID 0 or the `$null` object).
    public static let nilRoot = Self("nilRoot")
    /// An object's class is not one of the ten userInfo classes (or their mutable variants).
    public static let classNotAllowed = Self("classNotAllowed")
    /// A class entry is malformed or contradicts itself (name, chain, hints).
    public static let inconsistentClass = Self("inconsistentClass")
    /// An object dictionary has no `$class`.
    public static let missingClass = Self("missingClass")
    /// `NS.keys` and `NS.objects` differ in length.
    public static let keysObjectsMismatch = Self("keysObjectsMismatch")
    /// A collection member is nil.
    public static let nilMember = Self("nilMember")
    /// An object in `$objects` is referenced by nothing reachable from the root.
    public static let unreferencedObject = Self("unreferencedObject")
    /// An inline object of a type no userInfo value is archived as (a UID, a plain date, a binary null).
    public static let unexpectedObjectType = Self("unexpectedObjectType")
    /// The string `$null`, which NSKeyedUnarchiver reads back as nil.
    public static let reservedString = Self("reservedString")
    /// A plain userInfo whose top-level dictionary has the key `$archiver`.
    public static let reservedKey = Self("reservedKey")
    /// An error packet's archive whose root is no NSError with a domain and a code.
    public static let notAnError = Self("notAnError")
}
