import FoundationEssentials
@_spi(ByteKit) public import PropertyList
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads XML property lists strictly, through libxml2's SAX2 parser.
///
/// The document is checked before libxml2 sees it (encoding, document type,
/// no internal subset), then read event by event — no document tree — against
/// the plist grammar. Wherever libxml2 and Apple's CoreFoundation parser could
/// read one document differently (comments inside values, duplicate keys,
/// stray text, entity tricks, raw carriage returns in strings), the document is
/// refused; raw control characters in strings, which Apple's writer writes and
/// CoreFoundation reads as themselves, are read so. Errors carry line, column
/// and key path. See `Specs/xml-plist.md`.
///
/// ```swift
/// let value = try XMLPropertyListReader().read(data)
/// ```
public struct XMLPropertyListReader: BytesReader, Sendable {
    /// The bounds this reader enforces (the same as the binary reader's).
    public var limits: PropertyListLimits
    /// When true, libxml2 reads every document a window at a time, as it reads
    /// one over 1 MiB, instead of from one buffer holding it whole
    /// (Specs/xml-plist.md, "libxml2", whole documents): for tests that check
    /// both ways read alike.
    package var streamsEveryDocument = false
    /// The largest document libxml2 is handed whole, in bytes after Apple's
    /// prolog (0 when the libxml2 linked is not one whose parser gains by it).
    package static var wholeDocumentLimit: Int { XMLSAXParser.wholeDocumentLimit }

    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes an XML property list from a span of its bytes (read in place:
    /// only a UTF-16 document is copied, into its UTF-8; `Data` and arrays:
    /// ``BytesReader``).
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        try limits.validate()
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "input is \(bytes.byteCount) bytes, over the limit of \(limits.maxInputBytes)")
        }
        let inputBytes = bytes.byteCount
        return try XMLInput.withUTF8(bytes.span) { (utf8) throws(PropertyListError) -> PropertyListValue in
            // Apple's prolog passes checkProlog whatever follows it, and libxml2
            // starts after it (Specs/xml-plist.md, "libxml2", Apple's prolog).
            let root = XMLInput.rootAfterAppleProlog(utf8)
            if root == nil { try XMLInput.checkProlog(utf8) }
            try XMLInput.checkMarkup(utf8)
            try XMLInput.checkLineEndings(utf8)
            do throws(PropertyListError) {
                return try parse(utf8, root: root, inputBytes: inputBytes, restoringMarks: false).value
            } catch where error.code == .malformedXML {
                // Apple's writer puts control characters raw into strings, which XML
                // forbids and CoreFoundation reads as themselves ("Control characters
                // in strings"): read them so, and nothing else (only after libxml2
                // refused the document, so no other document pays for it).
                // malformedXML stands unless every mark placed came back in a string or key.
                guard let marked = XMLInput.markingControls(utf8),
                      let read = try? parse(marked.bytes.span, root: XMLInput.rootAfterAppleProlog(marked.bytes.span),
                                            inputBytes: inputBytes, restoringMarks: true),
                      read.restoredMarks == marked.count else { throw error }
                return read.value
            }
        }
    }

    /// Parses checked UTF-8 with libxml2 against the plist grammar; with
    /// `restoringMarks`, each string and key has its marks turned back into
    /// controls as it is built, and `restoredMarks` counts them ("Control
    /// characters in strings"). `root` is where the root stands after Apple's
    /// prolog, if `utf8` opens with it (``XMLInput/rootAfterAppleProlog(_:)``).
    private func parse(_ utf8: Span<UInt8>, root: (offset: Int, line: Int, column: Int)?, inputBytes: Int,
                       restoringMarks: Bool) throws(PropertyListError) -> (value: PropertyListValue, restoredMarks: Int) {
        let parser = XMLSAXParser(grammar: PlistGrammar(limits: limits, inputBytes: inputBytes, restoringMarks: restoringMarks))
        guard parser.parse(utf8, root: root, streamed: streamsEveryDocument) else {
            throw PropertyListError(.malformedXML, "libxml2 could not start parsing", at: .lineColumn(line: 1, column: 1))
        }
        if let failure = parser.failure { throw failure }
        if let diagnostic = parser.diagnostic {
            // malformedXML: libxml2's own diagnosis.
            throw PropertyListError(.malformedXML, diagnostic.message, at: .lineColumn(line: diagnostic.line, column: diagnostic.column),
                                    keyPath: PropertyListKeyPath(parser.keyPath))
        }
        do {
            return (try parser.finish(), parser.restoredMarks)
        } catch {
            var located = error
            located.location = .lineColumn(line: parser.endPosition.line, column: parser.endPosition.column)
            throw located
        }
    }

    /// The number a `<real>` element's text stands for, by the reader's own
    /// grammar (Specs/xml-plist.md, `invalidReal`): a finite decimal number, or
    /// `nan`, `inf`, `infinity` as CoreFoundation spells them; nil for anything
    /// else (hexadecimal floats, `1e999`, whitespace). Command-line values use
    /// it, so that what they accept is what a document may hold.
    public static func real(_ text: String) -> Double? {
        text.withUTF8Span { ScalarText.real($0) }
    }

    /// True when `prefix` looks like an XML document, without parsing: `<`
    /// after an optional byte-order mark (UTF-8, or UTF-16 in either order)
    /// and whitespace, or UTF-16 `<` without a mark (which the reader then
    /// refuses by name). A UTF-16 text that starts otherwise (a `.strings`
    /// file) is not XML.
    public static func looksLikeXML(_ prefix: some Collection<UInt8>) -> Bool {
        var rest = prefix[...]
        if rest.starts(with: [0x00, 0x3C]) || rest.starts(with: [0x3C, 0x00]) { return true }
        // UTF-16: the unit of each character is (low, high) or (high, low) after the mark.
        let utf16: (littleEndian: Bool, width: Int)?
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3); utf16 = nil }
        else if rest.starts(with: [0xFF, 0xFE]) { rest = rest.dropFirst(2); utf16 = (true, 2) }
        else if rest.starts(with: [0xFE, 0xFF]) { rest = rest.dropFirst(2); utf16 = (false, 2) }
        else { utf16 = nil }
        while true {
            guard let first = rest.first else { return false }
            var byte = first
            if let utf16 {
                let pair = Array(rest.prefix(2))
                guard pair.count == 2 else { return false }
                let (low, high) = utf16.littleEndian ? (pair[0], pair[1]) : (pair[1], pair[0])
                guard high == 0 else { return false }
                byte = low
            }
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return byte == UInt8(ascii: "<") }
            rest = rest.dropFirst(utf16?.width ?? 1)
        }
    }
}

/// The elements of the plist grammar, told apart once per node by their bytes.
enum PlistElement: Equatable {
    case plist, dict, array
    case scalar(PlistGrammar.ScalarKind)
    case unknown

    var isContainer: Bool { self == .dict || self == .array }
    /// A value element: a container or a scalar other than `key`.
    var isValue: Bool {
        switch self {
        case .dict, .array: return true
        case .scalar(let kind): return kind != .key
        default: return false
        }
    }
}
