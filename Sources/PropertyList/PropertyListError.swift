/// The error every property-list reader and writer of ActivityCodec throws:
/// what went wrong (``code``), a sentence for people (``reason``), and where
/// (``location`` in the input and ``keyPath`` in the value).
///
/// Two errors are equal when their codes are equal, so tests and callers
/// match on the rule that was broken, not on the wording. Every code is named
/// the same in `Specs/` as in code. See `Specs/errors.md`.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which rule was broken. Codes are open-ended: later layers add their own
    /// in extensions, and existing code keeps compiling.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, as written in `Specs/`.
        public let name: String

        /// Declares a code. Use the static members; this initializer is for
        /// the format modules that extend the list.
        public init(_ name: String) { self.name = name }

        public var description: String { name }
    }

    /// Where in the input the problem was found.
    public enum Location: Sendable, Hashable, CustomStringConvertible {
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

    /// The rule that was broken.
    public var code: Code
    /// A short human explanation, without the location.
    public var reason: String
    /// Where in the input.
    public var location: Location
    /// Where in the value; the root path when unknown or at the top.
    public var keyPath: PropertyListKeyPath

    /// Creates an error.
    public init(
        _ code: Code, _ reason: String,
        at location: Location = .unknown, keyPath: PropertyListKeyPath = .root
    ) {
        self.code = code
        self.reason = reason
        self.location = location
        self.keyPath = keyPath
    }

    /// `reason (at offset N, key path P)`, leaving out what is unknown.
    public var description: String {
        var places: [String] = []
        if location != .unknown { places.append("at \(location)") }
        if !keyPath.isRoot { places.append("key path \(keyPath)") }
        return places.isEmpty ? reason : "\(reason) (\(places.joined(separator: ", ")))"
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Returns the error with `component` added at the outer end of its key path.
    package func inside(_ component: PropertyListKeyPath.Component) -> PropertyListError {
        var copy = self
        copy.keyPath = keyPath.prepending(component)
        return copy
    }
}

// MARK: - Codes shared by every format (Specs/errors.md)

extension PropertyListError.Code {
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
    /// A dictionary key is not a string.
    public static let nonStringKey = Self("nonStringKey")
    /// A dictionary holds the same key twice.
    public static let duplicateKey = Self("duplicateKey")
    /// A date is NaN or infinite.
    public static let invalidDate = Self("invalidDate")
    /// The input is in no property-list format this library reads.
    public static let unknownFormat = Self("unknownFormat")
    /// A value cannot be written in the requested format (for example a
    /// null in XML, or a date in JSON).
    public static let unrepresentableValue = Self("unrepresentableValue")
}
