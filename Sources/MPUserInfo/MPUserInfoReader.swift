public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Reads Apple's "MP" userInfo: the MessagePack form, written by the cmp
/// library that UserActivity.framework embeds, in which current Apple
/// devices send an activity's `userInfo` (Specs/mp-userinfo.md).
///
/// Strict: the header `4D 50 03 05`, one map at the top with string keys,
/// each once, every marker and extension form Apple's writer uses and no
/// other, UTF-8 strings, the limits, nothing after the value. Errors are
/// ``UserInfoError``s with the byte offset of the value at fault and its key
/// path. One pass over the bytes (the grammar's one reading, which
/// ``MPUserInfoDecoder`` shares) records the values on a tape, and the tree
/// is built from the tape; nesting is kept on heap stacks, never the call
/// stack (Specs/architecture.md, "One stack policy").
///
/// ```swift
/// let userInfo = try MPUserInfoReader(limits: .payload).read(bytes)
/// ```
public struct MPUserInfoReader: Sendable {
    /// Bounds on the input and the value read.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// The header Apple's writer puts first: `MP`, cmp version 3, MessagePack spec 5.
    public static let header: [UInt8] = [0x4D, 0x50, 0x03, 0x05]

    /// True when the bytes start with `MP`: Apple's own test for this form
    /// (anything else is a keyed archive to its reader).
    public static func hasMagic(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        return iterator.next() == 0x4D && iterator.next() == 0x50
    }

    /// Reads an MP userInfo.
    ///
    /// - Throws: ``UserInfoError``, with the codes of Specs/mp-userinfo.md.
    public func read(_ data: Data) throws(UserInfoError) -> UserInfoDictionary {
        try read(data.bytes)
    }

    /// Reads an MP userInfo.
    ///
    /// - Throws: ``UserInfoError``, with the codes of Specs/mp-userinfo.md.
    public func read(_ bytes: [UInt8]) throws(UserInfoError) -> UserInfoDictionary {
        try read(bytes.span.bytes)
    }

    /// The scan's tape, built into the tree. The scan leaves repeated keys to
    /// the dictionaries the tree is built into.
    private func read(_ bytes: RawSpan) throws(UserInfoError) -> UserInfoDictionary {
        // oneGrammar: when the scan or the building fails, a scan that checks each
        // key as it comes gives the first error in the input (Specs/mp-userinfo.md, "One grammar").
        if let tape = try? MPScan.tape(of: bytes, limits: limits, keyCheck: .byDictionaries), let dictionary = tape.dictionary(in: bytes) {
            return dictionary
        }
        guard let dictionary = try MPScan.tape(of: bytes, limits: limits).dictionary(in: bytes) else {
            preconditionFailure("a tape with each key once builds")
        }
        return dictionary
    }

    /// True when MP bytes `byteCount` long cannot exceed any bound of `limits`
    /// but the depth, whatever they hold (Specs/payload.md, "payloadLimits").
    /// Every MP value and key takes at least a byte, so the values, members,
    /// string and data bytes are each at most `byteCount`; within `maxDepth`
    /// each value charges the expansion meter at most 8 + depth + its payload,
    /// a URL its relative string once more, so the expanded size is at most
    /// `byteCount` × (10 + maxDepth).
    package static func withinLimits(byteCount count: Int, _ limits: PropertyListLimits) -> Bool {
        guard count <= limits.maxInputBytes, count <= limits.maxObjects, count <= limits.maxCollectionCount,
              count <= limits.maxStringBytes, count <= limits.maxDataBytes else { return false }
        let (expanded, overflow) = count.multipliedReportingOverflow(by: 10 + limits.maxDepth)
        return !overflow && expanded <= limits.expansionBudget(inputBytes: count)
    }
}
