// Error codes of the binary property-list reader and writer.
// Each is a rule in Specs/binary-plist.md, under the same name.

extension PropertyListError.Code {
    /// Shorter than the smallest possible `bplist00` file (42 bytes).
    public static let truncated = Self("truncated")
    /// Does not start with `bplist`.
    public static let badMagic = Self("badMagic")
    /// A `bplist` version other than `00`, such as CoreFoundation's private `bplist15`.
    public static let unsupportedVersion = Self("unsupportedVersion")
    /// A trailer field is out of range: reserved bytes not zero, an offset or
    /// reference size outside 1…8 or too small, no objects, top object out of range.
    public static let badTrailer = Self("badTrailer")
    /// The offset table does not lie exactly between the objects and the trailer.
    public static let badOffsetTable = Self("badOffsetTable")
    /// An offset-table entry points outside the object area.
    public static let badObjectOffset = Self("badObjectOffset")
    /// An object reference is not below the object count.
    public static let badReference = Self("badReference")
    /// An object's content runs past the end of the object area.
    public static let objectOverrun = Self("objectOverrun")
    /// An extended length is not a 1-, 2-, 4- or 8-byte non-negative integer.
    public static let badLength = Self("badLength")
    /// An ASCII string holds a byte above 0x7F.
    public static let invalidASCII = Self("invalidASCII")
    /// A UTF-16 string holds an unpaired surrogate.
    public static let invalidUTF16 = Self("invalidUTF16")
    /// A marker byte that no property list uses.
    public static let unknownMarker = Self("unknownMarker")
    /// A marker that only CoreFoundation's private formats use in practice
    /// (fill, set, ordered set, UTF-8 string, URL, UUID).
    public static let unsupportedObject = Self("unsupportedObject")
    /// An integer marker with a width other than 1, 2, 4, 8 or 16 bytes.
    public static let badIntegerWidth = Self("badIntegerWidth")
    /// A 16-byte integer outside [-2⁶³, 2⁶⁴).
    public static let integerOutOfRange = Self("integerOutOfRange")
    /// A real marker with a width other than 4 or 8 bytes.
    public static let badRealWidth = Self("badRealWidth")
    /// A UID wider than 4 bytes (CoreFoundation keeps UIDs to 32 bits).
    public static let uidOutOfRange = Self("uidOutOfRange")
    /// An object contains itself.
    public static let cyclicReference = Self("cyclicReference")
    /// Bytes in the object area that no object accounts for, or objects that
    /// overlap or are not laid out in object-table order.
    public static let unaccountedBytes = Self("unaccountedBytes")
}
