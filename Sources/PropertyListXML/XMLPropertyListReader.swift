public import FoundationEssentials
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
public struct XMLPropertyListReader: Sendable {
    /// The bounds this reader enforces (the same as the binary reader's).
    public var limits: PropertyListLimits

    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Decodes an XML property list.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        try read(data.bytes)
    }

    /// Decodes an XML property list from bytes.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        try read(bytes.span.bytes)
    }

    /// Decodes an XML property list from a span of its bytes (read in place:
    /// only a UTF-16 document is copied, into its UTF-8).
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        try limits.validate()
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "input is \(bytes.byteCount) bytes, over the limit of \(limits.maxInputBytes)")
        }
        let inputBytes = bytes.byteCount
        return try XMLInput.withUTF8(bytes.span) { (utf8) throws(PropertyListError) -> PropertyListValue in
            try XMLInput.checkProlog(utf8)
            try XMLInput.checkMarkup(utf8)
            try XMLInput.checkLineEndings(utf8)
            do throws(PropertyListError) {
                return try parse(utf8, inputBytes: inputBytes, restoringMarks: false).value
            } catch where error.code == .malformedXML {
                // Apple's writer puts control characters raw into strings, which XML
                // forbids and CoreFoundation reads as themselves ("Control characters
                // in strings"): read them so, and nothing else (only after libxml2
                // refused the document, so no other document pays for it).
                // malformedXML stands unless every mark placed came back in a string or key.
                guard let marked = XMLInput.markingControls(utf8),
                      let read = try? parse(marked.bytes.span, inputBytes: inputBytes, restoringMarks: true),
                      read.restoredMarks == marked.count else { throw error }
                return read.value
            }
        }
    }

    /// Parses checked UTF-8 with libxml2 against the plist grammar; with
    /// `restoringMarks`, each string and key has its marks turned back into
    /// controls as it is built, and `restoredMarks` counts them ("Control
    /// characters in strings").
    private func parse(_ utf8: Span<UInt8>, inputBytes: Int,
                       restoringMarks: Bool) throws(PropertyListError) -> (value: PropertyListValue, restoredMarks: Int) {
        let parser = XMLSAXParser(grammar: PlistGrammar(limits: limits, inputBytes: inputBytes, restoringMarks: restoringMarks))
        guard parser.parse(utf8) else {
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

    /// Each element, its name, and the name's bytes, most frequent first.
    static let names: [(PlistElement, String, [UInt8])] = {
        let pairs: [(PlistElement, String)] = [
            (.scalar(.key), "key"), (.scalar(.string), "string"), (.scalar(.integer), "integer"), (.dict, "dict"),
            (.scalar(.real), "real"), (.scalar(.trueValue), "true"), (.scalar(.falseValue), "false"), (.array, "array"),
            (.scalar(.date), "date"), (.scalar(.data), "data"), (.plist, "plist"),
        ]
        return pairs.map { ($0.0, $0.1, Array($0.1.utf8)) }
    }()

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

/// The plist grammar as a state machine over the reader's nodes: an explicit
/// stack of open elements, so no document can exhaust the call stack.
/// Open containers live in their own stacks and are appended to in place, so
/// reading stays linear however large a container grows.
struct PlistGrammar: ~Copyable {
    /// One open element. Plain values only (no references), so that pushing,
    /// reading and popping frames does no reference counting.
    private enum Frame: Equatable {
        case document(seenRoot: Bool)
        /// `<plist>`, or (implicit) a value element that is itself the root.
        case plist(hasValue: Bool, implicit: Bool)
        case array
        case dictionary
        case scalar(ScalarKind)
    }

    enum ScalarKind: String {
        case key, string, integer, real, date, data
        case trueValue = "true", falseValue = "false"
    }

    /// An open `<dict>`: its entries, the key waiting for its value (checked
    /// against the others as it closed) and where that key goes.
    private struct OpenDictionary {
        var entries: PropertyListDictionary
        var pendingKey: String?
        var pendingSlot: Int?
        /// Each stored key's `hashValue`, kept once the dictionary is past its
        /// scan limit, so that its index grows without hashing a key twice.
        var hashes: [Int] = []
        /// Where in its template (the sibling before it) the next key is looked for.
        var templateCursor = 0
        /// The hashes of its first keys, where the template gave them (bit i of
        /// `knownEarlyHashes` set when `earlyHashes[i]` holds key i's).
        var earlyHashes = InlineArray<8, Int>(repeating: 0)
        var knownEarlyHashes: UInt8 = 0
    }

    private let limits: PropertyListLimits
    private var stack: [Frame] = [.document(seenRoot: false)]
    /// The members of every open array, one after another, and where each open
    /// array's members start.
    private var members = GrowableBuffer<PropertyListValue>(capacity: 64)
    private var arrays: [Int] = []
    private var dictionaries: [OpenDictionary] = []
    /// The UTF-8 text of the open scalar (only one can be open at a time).
    private var text = ByteSink(capacity: 256)
    /// The keys of the last dictionary closed at each depth, with their hashes
    /// where it kept them: a dictionary shaped like its sibling before it (the
    /// records of one kind, such as a music library's tracks) reuses those keys'
    /// `String`s and hashes, position by position, instead of building and
    /// hashing them again (measured: 3% fewer instructions reading library.xml,
    /// where a per-document cache of every key cost 4% on documents whose keys
    /// do not repeat).
    private var templates: [(keys: [String], hashes: [Int])] = []
    private var objects = 0
    /// The expanded size read so far, and what it may reach (Specs/value-model.md, "Expanded size").
    private var expandedSize = 0
    private let expansionBudget: Int
    private var result: PropertyListValue?
    /// The second parse of "Control characters in strings": each string's and
    /// key's marks are turned back into controls as it closes, and counted.
    private let restoresMarks: Bool
    private(set) var restoredMarks = 0

    init(limits: PropertyListLimits, inputBytes: Int, restoringMarks: Bool = false) {
        self.limits = limits
        self.expansionBudget = limits.expansionBudget(inputBytes: inputBytes)
        self.restoresMarks = restoringMarks
    }

    /// The number of members the open array `index` (in opening order) holds so far.
    private func memberCount(ofArray index: Int) -> Int {
        (index + 1 < arrays.count ? arrays[index + 1] : members.count) - arrays[index]
    }

    /// The key path of the innermost open value.
    var keyPath: [PropertyListKeyPath.Component] {
        var arrayIndex = 0
        var dictionaryIndex = 0
        var path: [PropertyListKeyPath.Component] = []
        for frame in stack {
            switch frame {
            case .array:
                path.append(.index(memberCount(ofArray: arrayIndex)))
                arrayIndex += 1
            case .dictionary:
                if let pendingKey = dictionaries[dictionaryIndex].pendingKey { path.append(.key(pendingKey)) }
                dictionaryIndex += 1
            default: break
            }
        }
        return path
    }

    /// `<!DOCTYPE …>`: forbiddenDeclaration unless it is Apple's plist document
    /// type (the internal subset is refused before parsing, by XMLInput).
    mutating func documentType(name: String, publicID: String?, systemID: String?) throws(PropertyListError) {
        guard name == "plist", XMLInput.appleDocumentTypes.contains(where: { $0 == (publicID, systemID) }) else {
            throw PropertyListError(.forbiddenDeclaration, "document type \(name) \(publicID ?? "-") \(systemID ?? "-") is not Apple's plist document type")
        }
    }

    /// A comment.
    mutating func comment() throws(PropertyListError) {
        // commentInValue: a comment inside a key or scalar reads differently to Apple's parser.
        if case .scalar(let kind) = stack.last! {
            throw PropertyListError(.commentInValue, "a comment inside <\(kind.rawValue)>")
        }
    }

    /// A processing instruction (the XML declaration is not one).
    mutating func processingInstruction(target: String) throws(PropertyListError) {
        // forbiddenNode
        throw PropertyListError(.forbiddenNode, "processing instruction <?\(target)?> (only the XML declaration is allowed)")
    }

    /// A reference to an entity that is not predefined.
    mutating func entityReference(name: String) throws(PropertyListError) {
        // forbiddenNode
        throw PropertyListError(.forbiddenNode, "entity reference &\(name); (no entities are declared in a property list)")
    }

    /// An element opens. `name` is its name as written (only error messages
    /// read it); `attributes` are its attributes, namespace declarations
    /// included, read only when there are some (``ElementAttributes``).
    mutating func startElement(_ element: PlistElement, name: ElementName, attributes: ElementAttributes) throws(PropertyListError) {
        func shown() -> String { name.text }
        switch stack.last! {
        case .document(let seenRoot):
            // unexpectedRoot: one root, <plist> with no attribute but version="1.0", or a
            // value element itself (CoreFoundation and plistlib read a bare value).
            guard !seenRoot, element == .plist || element.isValue else {
                throw PropertyListError(.unexpectedRoot, "the root element is <\(shown())>, not <plist> or a value")
            }
            stack[stack.count - 1] = .document(seenRoot: true)
            if element == .plist {
                guard attributes.pairs.allSatisfy({ $0.name == "version" && $0.value == "1.0" }) else {
                    throw PropertyListError(.unexpectedRoot, "<plist> takes no attribute but version=\"1.0\"")
                }
                stack.append(.plist(hasValue: false, implicit: false))
                return
            }
            stack.append(.plist(hasValue: false, implicit: true))
        case .scalar(let kind):
            // misplacedElement: scalars hold text only.
            throw PropertyListError(.misplacedElement, "<\(shown())> inside <\(kind.rawValue)>")
        case .plist(let hasValue, _):
            // plistValueCount: exactly one value.
            guard !hasValue else { throw PropertyListError(.plistValueCount, "<plist> holds more than one value") }
        case .dictionary:
            let pendingKey = dictionaries[dictionaries.count - 1].pendingKey
            if element == .scalar(.key) {
                if let pendingKey {
                    throw PropertyListError(.missingValue, "key \"\(pendingKey)\" has no value before the next <key>")
                }
            } else if pendingKey == nil, element.isValue {
                throw PropertyListError(.misplacedElement, "<\(shown())> in a dictionary without a <key> before it")
            }
        case .array:
            break
        }
        // unknownElement
        guard element.isContainer || element.isValue || element == .scalar(.key) else {
            throw PropertyListError(.unknownElement, "<\(shown())> is not a property-list element")
        }
        // unexpectedAttribute: only <plist> has one.
        if !attributes.isEmpty, let attribute = attributes.pairs.first {
            throw PropertyListError(.unexpectedAttribute, "<\(shown())> has an attribute \(attribute.name)")
        }
        switch element {
        case .dict, .array:
            // depthLimitExceeded
            guard arrays.count + dictionaries.count < limits.maxDepth else {
                throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)")
            }
            try countObject()
            try charge(8 &+ arrays.count &+ dictionaries.count)  // ExpandedSize.node(depth:payload: 0), inline
            if element == .dict {
                stack.append(.dictionary)
                dictionaries.append(OpenDictionary(entries: PropertyListDictionary(minimumCapacity: PropertyListDictionary.scanLimit)))
            } else {
                stack.append(.array)
                arrays.append(members.count)
            }
        case .scalar(.key):
            guard stack.last! == .dictionary else {
                throw PropertyListError(.misplacedElement, "<key> outside a dictionary")
            }
            try charge(8 &+ arrays.count &+ dictionaries.count)  // ExpandedSize.node(depth:payload: 0), inline
            stack.append(.scalar(.key))
            text.removeAll()
        case .scalar(let kind):
            try countObject()
            try charge(8 &+ arrays.count &+ dictionaries.count)  // ExpandedSize.node(depth:payload: 0), inline
            stack.append(.scalar(kind))
            text.removeAll()
        case .plist, .unknown:
            preconditionFailure("checked above")
        }
    }

    /// Character data (raw or CDATA), possibly one of several pieces of one text.
    mutating func characters(_ more: Span<UInt8>, cdata: Bool) throws(PropertyListError) {
        guard case .scalar(let kind) = stack.last! else {
            // misplacedCDATA / unexpectedText: containers hold elements and whitespace only.
            if cdata { throw PropertyListError(.misplacedCDATA, "CDATA between elements") }
            for index in 0..<more.count {
                let byte = more[index]
                guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else {
                    throw PropertyListError(.unexpectedText, "text between elements")
                }
            }
            return
        }
        switch kind {
        case .key, .string: break
        case .trueValue, .falseValue:
            throw PropertyListError(.unexpectedText, "<\(kind.rawValue)> holds text")
        default:
            if cdata { throw PropertyListError(.misplacedCDATA, "CDATA inside <\(kind.rawValue)>") }
        }
        text.append(more)
        // stringLimitExceeded / dataLimitExceeded (base64 text, loosely, before decoding)
        if kind == .data {
            let (allowance, overflow) = limits.maxDataBytes.addingReportingOverflow(limits.maxDataBytes / 2 + 3)
            guard overflow || text.count / 4 * 3 <= allowance else {
                throw PropertyListError(.dataLimitExceeded, "data over the limit of \(limits.maxDataBytes) bytes")
            }
        } else {
            guard text.count <= limits.maxStringBytes else {
                throw PropertyListError(.stringLimitExceeded, "text over the limit of \(limits.maxStringBytes) bytes")
            }
        }
    }

    /// The innermost element closes; `closedEmpty` tells, when asked, whether
    /// it was written as an empty-element tag (`<data/>`).
    mutating func endElement(closedEmpty: () -> Bool) throws(PropertyListError) {
        // A key is checked while its frame is still open (errors name the dictionary's path).
        if stack.last! == .scalar(.key) {
            try closeKey()
            stack.removeLast()
            return
        }
        let frame = stack.removeLast()
        let value: PropertyListValue
        switch frame {
        case .scalar(.key):
            preconditionFailure("closed above")
        case .scalar(let kind):
            // invalidData: CoreFoundation refuses <data/>, though it reads <data></data> as empty data.
            if kind == .data, text.count == 0, closedEmpty() {
                throw PropertyListError(.invalidData, "an empty-element <data/> (Apple's parser refuses it; <data></data> is empty data)")
            }
            // Control characters in strings: the marks back into controls, before the string is made.
            if restoresMarks, kind == .string { restoredMarks += XMLInput.restoringMarks(in: &text) }
            let limits = self.limits
            value = try ScalarText.value(kind, text.span, limits: limits)
            try charge(value.payloadBytes)
        case .array:
            value = .array(members.moveOut(from: arrays.removeLast()))
        case .dictionary:
            let open = dictionaries.removeLast()
            // The next dictionary at this depth may have the same keys.
            let depth = dictionaries.count
            while templates.count <= depth { templates.append(([], [])) }
            templates[depth] = (open.entries.keys, open.hashes)
            if let pendingKey = open.pendingKey {
                throw PropertyListError(.missingValue, "key \"\(pendingKey)\" has no value", keyPath: PropertyListKeyPath([.key(pendingKey)]))
            }
            let dictionary = open.entries
            // A dictionary whose only key is CF$UID, holding an integer in [0, 2^32), is a UID (CoreFoundation's reading).
            if dictionary.count == 1, case .integer(let integer)? = dictionary["CF$UID"] {
                // uidTooWide: CoreFoundation would truncate a wider integer to a 32-bit UID.
                guard let uid = integer.uint64Value.flatMap(UInt32.init(exactly:)) else {
                    throw PropertyListError(.uidTooWide, "a CF$UID dictionary holds \(integer), outside [0, 2^32) (CoreFoundation would truncate it)")
                }
                value = .uid(uid)
            } else {
                value = .dictionary(dictionary)
            }
        case .plist(let hasValue, _):
            // plistValueCount
            guard hasValue else { throw PropertyListError(.plistValueCount, "<plist> holds no value") }
            return
        case .document:
            preconditionFailure("the document frame is never closed by an element")
        }
        try deliver(value)
    }

    /// `</key>`: the key is checked against its dictionary's keys and waits for its value.
    private mutating func closeKey() throws(PropertyListError) {
        // Control characters in strings: the marks back into controls, before the key is compared with the others.
        if restoresMarks { restoredMarks += XMLInput.restoringMarks(in: &text) }
        try ScalarText.checkLeadingByteOrderMark(utf8: text.span)
        try charge(text.count)
        let top = dictionaries.count - 1
        let position = dictionaries[top].entries.count
        // The sibling's key at the cursor or just after it (records of one kind
        // may leave out a key), if it is these bytes.
        var reused: String?
        var knownHash: Int?
        var matched: Int?
        // A dictionary whose first two keys are not its sibling's stops looking
        // (settings-like documents, whose keys never repeat, pay two compares).
        if top < templates.count, position < 2 || dictionaries[top].templateCursor > 0 {
            let cursor = dictionaries[top].templateCursor
            let template = templates[top]
            for candidate in cursor..<min(cursor + 2, template.keys.count) where Self.same(text.span, template.keys[candidate]) {
                reused = template.keys[candidate]
                if candidate < template.hashes.count { knownHash = template.hashes[candidate] }
                matched = candidate
                break
            }
        }
        if let matched { dictionaries[top].templateCursor = matched + 1 }
        // libxml2 hands over valid UTF-8 only.
        let key = reused ?? ScalarText.string(checkedUTF8: text.span)
        if let knownHash, position < PropertyListDictionary.scanLimit {
            dictionaries[top].earlyHashes[position] = knownHash
            dictionaries[top].knownEarlyHashes |= 1 << UInt8(position)
        }
        let slot: Int?
        if position < PropertyListDictionary.scanLimit {
            slot = dictionaries[top].entries.slot(forNewKey: key, hash: { 0 }, hashes: [Int]().span)
        } else {
            // The hashes move out while the entries change (so that appending
            // to them never copies them), and back after.
            var hashes: [Int] = []
            swap(&hashes, &dictionaries[top].hashes)
            if hashes.isEmpty {
                // Past the scan limit: from now on the index needs every key's hash.
                let open = dictionaries[top]
                hashes.reserveCapacity(2 * position)
                for (index, stored) in open.entries.keys.enumerated() {
                    hashes.append(open.knownEarlyHashes & (1 << UInt8(index)) != 0 ? open.earlyHashes[index] : stored.hashValue)
                }
            }
            var hash = 0
            slot = dictionaries[top].entries.slot(forNewKey: key, hash: {
                hash = knownHash ?? key.hashValue
                return hash
            }, hashes: hashes.span)
            if slot != nil { hashes.append(hash) }
            swap(&hashes, &dictionaries[top].hashes)
        }
        // duplicateKey: each key once (canonically equivalent spellings count as one).
        guard let slot else {
            throw PropertyListError(.duplicateKey, "key \"\(key)\" appears more than once")
        }
        dictionaries[top].pendingKey = key
        dictionaries[top].pendingSlot = slot
    }

    /// True when `string` is spelled by exactly `bytes`.
    @inline(__always)
    private static func same(_ bytes: Span<UInt8>, _ string: String) -> Bool {
        bytes.bytes.sameBytes(asUTF8Of: string)
    }

    private mutating func deliver(_ value: __owned PropertyListValue) throws(PropertyListError) {
        switch stack.last! {
        case .plist(_, let implicit):
            result = value
            if implicit {
                // A bare root value is the whole document.
                stack.removeLast()
            } else {
                stack[stack.count - 1] = .plist(hasValue: true, implicit: false)
            }
        case .array:
            // collectionLimitExceeded
            guard members.count - arrays[arrays.count - 1] < limits.maxCollectionCount else {
                throw PropertyListError(.collectionLimitExceeded, "an array of more than \(limits.maxCollectionCount) members")
            }
            members.append(value)
        case .dictionary:
            let top = dictionaries.count - 1
            guard let key = dictionaries[top].pendingKey, let slot = dictionaries[top].pendingSlot else {
                preconditionFailure("values in dictionaries follow keys")
            }
            guard dictionaries[top].entries.count < limits.maxCollectionCount else {
                throw PropertyListError(.collectionLimitExceeded, "a dictionary of more than \(limits.maxCollectionCount) members")
            }
            dictionaries[top].pendingKey = nil
            dictionaries[top].pendingSlot = nil
            dictionaries[top].entries.append(value, forNewKey: key, at: slot)
        default:
            preconditionFailure("values are delivered to containers")
        }
    }

    @inline(__always)
    private mutating func countObject() throws(PropertyListError) {
        objects += 1
        // objectLimitExceeded
        guard objects <= limits.maxObjects else {
            throw PropertyListError(.objectLimitExceeded, "more than \(limits.maxObjects) values")
        }
    }

    /// Adds to the expanded size: each value and key as it opens (8 + its depth),
    /// its text's bytes as it closes.
    @inline(__always)
    private mutating func charge(_ bytes: Int) throws(PropertyListError) {
        // ExpandedSize.add, saturating, written out: called across modules it is not inlined.
        let (sum, overflow) = expandedSize.addingReportingOverflow(bytes)
        expandedSize = overflow ? .max : sum
        // expansionLimitExceeded (XML has no sharing, but indentation and text still weigh)
        guard expandedSize <= expansionBudget else {
            throw PropertyListError(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)")
        }
    }

    /// The value, once the document has ended.
    func finish() throws(PropertyListError) -> PropertyListValue {
        guard let result, stack.count == 1 else {
            throw PropertyListError(.malformedXML, "the document ends before </plist>")
        }
        return result
    }
}
