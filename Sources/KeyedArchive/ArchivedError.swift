public import FoundationEssentials
public import PropertyList
public import UserInfo

/// The `NSError` an activity container's error packet carries
/// (Specs/keyed-archive.md, "Archived errors"), read through the graph
/// reader (``KeyedArchiveGraph``): its domain, code and user info, as
/// `NSError`'s `encodeWithCoder:` archives them (`NSDomain`, `NSCode`,
/// `NSUserInfo`).
///
/// ```swift
/// let error = try ArchivedError(reading: packetArchive)
/// print(error.domain, error.code)   // UAContinuityErrorDomain -110
/// ```
public struct ArchivedError: Sendable, Hashable {
    /// `NSDomain`.
    public var domain: String
    /// `NSCode` (an `NSInteger`).
    public var code: PropertyListInteger
    /// `NSUserInfo` as userInfo values; nil when there is none.
    public var userInfo: UserInfoDictionary?
    /// True when `NSUserInfo` holds objects of other classes (an
    /// `NSUnderlyingError`, say), which ``graph`` shows and ``userInfo`` cannot.
    public var userInfoHasOtherClasses: Bool
    /// The whole archive as a graph of numbered objects.
    public var graph: KeyedArchiveGraph

    /// Reads an archive of one `NSError`.
    ///
    /// - Throws: ``UserInfoError``: the graph reader's errors,
    ///   ``ErrorCode/expansionLimitExceeded`` when the user info would expand
    ///   past the input's budget, or ``ErrorCode/notAnError`` when the root is no `NSError` (or one of its
    ///   subclasses) with a string `NSDomain` and an integer `NSCode`.
    public init(reading data: Data, limits: PropertyListLimits = .default) throws(UserInfoError) {
        let graph = try KeyedArchiveGraph(reading: data, limits: limits)
        self.graph = graph
        // The user info is resolved within the input's budget, each object once
        // (Specs/keyed-archive.md, "Archived errors").
        let budget = limits.expansionBudget(inputBytes: data.count)
        // notAnError: the root is an NSError (its class chain names NSError).
        guard let root = graph.root, root < graph.objects.count,
              case .object(_, let classes, let fields) = graph.objects[root], classes.contains("NSError") else {
            throw UserInfoError(.notAnError, "the archive's root is not an NSError")
        }
        // notAnError: NSDomain names a string, NSCode is an integer. The object
        // is looked at, not resolved: a domain that names a container is no
        // string, whatever it would expand to (found by the error-packet fuzz
        // target: a domain naming a chain of doubled arrays was refused for
        // the budget, expansionLimitExceeded, instead of as no NSError).
        guard case .uid(let domainReference)? = fields["NSDomain"], Int(domainReference) < graph.objects.count,
              let domain = Self.string(graph.objects[Int(domainReference)]) else {
            throw UserInfoError(.notAnError, "the NSError's NSDomain is not a reference to a string")
        }
        guard case .integer(let code)? = fields["NSCode"] else {
            throw UserInfoError(.notAnError, "the NSError's NSCode is not an integer")
        }
        self.domain = domain
        self.code = code
        userInfo = nil
        userInfoHasOtherClasses = false
        if case .uid(let reference)? = fields["NSUserInfo"], reference != 0 {
            if case .dictionary(let entries)? = try graph.userInfoValue(at: Int(reference), maxExpandedBytes: budget) {
                userInfo = entries
            } else {
                userInfoHasOtherClasses = true
            }
        }
    }

    /// The string an object of the graph is (an `NSString` or an inline
    /// string), or nil.
    private static func string(_ node: KeyedArchiveGraph.Node) -> String? {
        switch node {
        case .string(let string), .value(.string(let string)): return string
        default: return nil
        }
    }
}
