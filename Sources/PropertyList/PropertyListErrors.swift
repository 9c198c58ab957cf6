// The errors of ActivityCodec (Specs/errors.md): one code type, one protocol
// every layer's error struct conforms to, and this layer's struct and codes.

/// The name of a rule, as written in `Specs/` (each rule has one name, and
/// each name one rule, across every layer). Codes are static members declared
/// in each module's errors file, so layers add theirs and existing code keeps
/// compiling.
public struct ErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The code's name, as written in `Specs/`.
    public let name: String

    /// Declares a code. Use the static members; this initializer is for the
    /// errors file of each module.
    public init(_ name: String) { self.name = name }

    public var description: String { name }
}

/// Where in the input a problem was found.
public enum ErrorLocation: Sendable, Hashable, CustomStringConvertible {
    /// No single place (for example, the whole input is too large).
    case unknown
    /// A byte offset from the start of the input (binary formats).
    case byteOffset(Int)
    /// A 1-based line and column (text formats).
    case lineColumn(line: Int, column: Int)

    public var description: String {
        switch self {
        case .unknown: return "unknown location"
        case .byteOffset(let offset): return "offset \(offset)"
        case .lineColumn(let line, let column): return "line \(line), column \(column)"
        }
    }
}

/// What every error of ActivityCodec says: which rule was broken (``code``),
/// a sentence for people (``reason``), where in the input (``location``) and
/// in the value (``keyPath``), and the lower layer's error it wraps, if any
/// (``underlyingError``). Two errors are equal when their codes are, so tests
/// and callers match on the rule, not on the wording. See `Specs/errors.md`.
public protocol CodecError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: ErrorCode { get }
    var reason: String { get }
    var location: ErrorLocation { get }
    var keyPath: PropertyListKeyPath { get set }
    /// The lower layer's error this one wraps (a property-list error inside a
    /// userInfo error, a userInfo error inside a payload error).
    var underlyingError: (any CodecError)? { get }
}

extension CodecError {
    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The error with `component` added at the outer end of its key path (as
    /// an error travels up from where it was found).
    package func inside(_ component: PropertyListKeyPath.Component) -> Self {
        var copy = self
        copy.keyPath = keyPath.prepending(component)
        return copy
    }

    /// The most specific rule: the innermost code of the chain of wrapped errors.
    public var innermostCode: ErrorCode { underlyingError?.innermostCode ?? code }

    /// `reason (first, at LOCATION, keyPathLabel KEYPATH)`: the description of
    /// an error, leaving out what is unknown (no `first`, an unknown location,
    /// the root key path) and the location when `showsLocation` is false.
    package func described(first: String? = nil, showsLocation: Bool = true,
                           keyPathLabel: String = "key path") -> String {
        var places: [String] = []
        if let first { places.append(first) }
        if showsLocation, location != .unknown { places.append("at \(location)") }
        if !keyPath.isRoot { places.append("\(keyPathLabel) \(keyPath)") }
        return places.isEmpty ? reason : "\(reason) (\(places.joined(separator: ", ")))"
    }
}

/// The error every property-list reader and writer of ActivityCodec throws:
/// what went wrong (``code``), a sentence for people (``reason``), and where
/// (``location`` in the input and ``keyPath`` in the value).
/// See `Specs/errors.md`.
public struct PropertyListError: CodecError {
    /// Which rule was broken (``ErrorCode``; the name is kept for source compatibility).
    public typealias Code = ErrorCode
    /// Where in the input (``ErrorLocation``).
    public typealias Location = ErrorLocation

    /// The rule that was broken.
    public var code: ErrorCode
    /// A short human explanation, without the location.
    public var reason: String
    /// Where in the input.
    public var location: ErrorLocation
    /// Where in the value; the root path when unknown or at the top.
    public var keyPath: PropertyListKeyPath

    /// Creates an error.
    public init(
        _ code: ErrorCode, _ reason: String,
        at location: ErrorLocation = .unknown, keyPath: PropertyListKeyPath = .root
    ) {
        self.code = code
        self.reason = reason
        self.location = location
        self.keyPath = keyPath
    }

    /// A property-list error wraps nothing.
    public var underlyingError: (any CodecError)? { nil }

    /// `reason (at offset N, key path P)`, leaving out what is unknown.
    public var description: String { described() }
}

// MARK: - Codes shared by every layer (Specs/errors.md)

extension ErrorCode {
    /// A limit the caller set cannot be honoured: negative, or a depth beyond
    /// `PropertyListLimits.maxSupportedDepth`.
    public static let invalidLimits = Self("invalidLimits")
    /// The input is larger than `PropertyListLimits.maxInputBytes`.
    public static let inputTooLarge = Self("inputTooLarge")
    /// Containers nest deeper than `PropertyListLimits.maxDepth`.
    public static let depthLimitExceeded = Self("depthLimitExceeded")
    /// More objects than `PropertyListLimits.maxObjects`.
    public static let objectLimitExceeded = Self("objectLimitExceeded")
    /// A collection holds more members than `PropertyListLimits.maxCollectionCount`.
    public static let collectionLimitExceeded = Self("collectionLimitExceeded")
    /// A string is longer than `PropertyListLimits.maxStringBytes`.
    public static let stringLimitExceeded = Self("stringLimitExceeded")
    /// A data value is longer than `PropertyListLimits.maxDataBytes`.
    public static let dataLimitExceeded = Self("dataLimitExceeded")
    /// The value would expand past its budget (`PropertyListLimits.expansionBudget(inputBytes:)`,
    /// `maxExpandedBytes` for writers): Specs/value-model.md, "Expanded size".
    public static let expansionLimitExceeded = Self("expansionLimitExceeded")
    /// What a consumer of a value prints or reports would pass the bytes its
    /// input allows (`CountedOutput`): Specs/architecture.md, "One counted output".
    public static let outputLimitExceeded = Self("outputLimitExceeded")
    /// A dictionary key is not a string (a binary key object, a keyed-archive key).
    public static let nonStringKey = Self("nonStringKey")
    /// A dictionary holds the same key twice (canonically equivalent spellings included).
    public static let duplicateKey = Self("duplicateKey")
    /// A date that is not finite or lies beyond ±10¹⁵ seconds of 2001
    /// (`PropertyListValue.dateRange`), or date text that names no such instant.
    public static let invalidDate = Self("invalidDate")
    /// An object contains itself (binary objects, keyed-archive objects).
    public static let cyclicReference = Self("cyclicReference")
    /// A reference to an object that does not exist: a binary object reference
    /// or a keyed-archive UID not below the number of objects.
    public static let badReference = Self("badReference")
    /// The input is in no property-list format this library reads.
    public static let unknownFormat = Self("unknownFormat")
    /// A value cannot be written in the requested format (for example a
    /// null in XML, or a date in JSON).
    public static let unrepresentableValue = Self("unrepresentableValue")
    /// The input ends before the structure it declares: shorter than the
    /// smallest `bplist00` file (42 bytes), or an MP value or activity-container
    /// field that runs past the end.
    public static let truncated = Self("truncated")
    /// The input does not start with its format's magic (`bplist`, `MP`).
    public static let badMagic = Self("badMagic")
    /// A marker byte that the format does not use (binary property lists, MP).
    public static let unknownMarker = Self("unknownMarker")
    /// Bytes after the value, or after an activity container's last field.
    public static let trailingBytes = Self("trailingBytes")
    /// Bytes that are not UTF-8 (after a UTF-16 byte-order mark is decoded, in XML).
    public static let invalidUTF8 = Self("invalidUTF8")
    /// JSON text that is not strict JSON (typed JSON, an activity container's JSON field).
    public static let invalidJSON = Self("invalidJSON")
}

// MARK: - Codes of the binary property-list reader and writer (Specs/binary-plist.md)

extension ErrorCode {
    /// A `bplist` version other than `00`, such as CoreFoundation's private `bplist15`.
    public static let unsupportedBinaryVersion = Self("unsupportedBinaryVersion")
    /// A trailer field is out of range: reserved bytes not zero, an offset or
    /// reference size outside 1…8 or too small, no objects, top object out of range.
    public static let badTrailer = Self("badTrailer")
    /// The offset table does not lie exactly between the objects and the trailer.
    public static let badOffsetTable = Self("badOffsetTable")
    /// An offset-table entry points outside the object area.
    public static let badObjectOffset = Self("badObjectOffset")
    /// An object's content runs past the end of the object area.
    public static let objectOverrun = Self("objectOverrun")
    /// An extended length is not a 1-, 2-, 4- or 8-byte non-negative integer.
    public static let badLength = Self("badLength")
    /// An ASCII string holds a byte above 0x7F.
    public static let invalidASCII = Self("invalidASCII")
    /// A UTF-16 string holds an unpaired surrogate.
    public static let invalidUTF16 = Self("invalidUTF16")
    /// A marker that only CoreFoundation's private formats use in practice
    /// (fill, set, ordered set, UTF-8 string, URL, UUID).
    public static let unsupportedObject = Self("unsupportedObject")
    /// An integer marker with a width other than 1, 2, 4, 8 or 16 bytes.
    public static let badIntegerWidth = Self("badIntegerWidth")
    /// A 16-byte integer outside [-2⁶³, 2⁶⁴).
    public static let integerOutOfRange = Self("integerOutOfRange")
    /// A real marker with a width other than 4 or 8 bytes.
    public static let badRealWidth = Self("badRealWidth")
    /// A UID wider than 32 bits: a binary UID of more than 4 bytes, or an XML
    /// `CF$UID` integer outside [0, 2³²) (CoreFoundation keeps UIDs to 32 bits).
    public static let uidTooWide = Self("uidTooWide")
    /// Bytes in the object area that no object accounts for, or objects that
    /// overlap or are not laid out in object-table order.
    public static let unaccountedBytes = Self("unaccountedBytes")
}

// MARK: - Codes of key paths and edits (Specs/plistkit.md, "Key paths")

extension ErrorCode {
    /// A key path that is empty or holds a backslash before anything but `.` or `\`.
    public static let invalidKeyPath = Self("invalidKeyPath")
    /// A key path component that names no value in its dictionary.
    public static let keyPathNotFound = Self("keyPathNotFound")
    /// A key path component applied to an array that is not a decimal index within it.
    public static let indexOutOfRange = Self("indexOutOfRange")
    /// A key path that goes through a value that is neither a dictionary nor an array.
    public static let notAContainer = Self("notAContainer")
    /// An insert onto a key that already has a value (replace overwrites).
    public static let valueExists = Self("valueExists")
    /// A value of another type than the one expected (`plistkit extract|type --expect`).
    public static let unexpectedType = Self("unexpectedType")
    /// PlistBuddy's Merge onto what cannot take the members (Specs/plistkit.md, "Merge").
    public static let notMergeable = Self("notMergeable")
    /// A container where only a scalar can be written (`plistkit extract … raw`).
    public static let notAScalar = Self("notAScalar")
    /// A file name that generated source cannot spell where it must (an `#import`
    /// has no escapes; `plistkit convert --format objc -o NAME`).
    public static let unsafeFileName = Self("unsafeFileName")
}
