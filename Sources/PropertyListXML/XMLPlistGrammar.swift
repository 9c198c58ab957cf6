import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The plist grammar as a state machine over the reader's nodes: one
/// explicit stack of frames, one per open container (and the document and
/// `<plist>` around them), so no document can exhaust the call stack. Each
/// frame holds its container's contents and is changed in place in the
/// stack (``GrowableBuffer``), so reading stays linear however large a
/// container grows. A scalar holds text only, so at most one is open: it is
/// ``openScalar``, with its text in ``text``, not a frame.
struct PlistGrammar: ~Copyable {
    enum ScalarKind: String {
        case key, string, integer, real, date, data
        case trueValue = "true", falseValue = "false"
    }

    /// One open element.
    struct Frame {
        enum Kind: Equatable {
            case document(seenRoot: Bool)
            /// `<plist>`, or (implicit) a value element that is itself the root.
            case plist(hasValue: Bool, implicit: Bool)
            case array
            case dictionary
        }

        var kind: Kind
        /// An array's members so far.
        var members: [PropertyListValue] = []
        /// A dictionary's entries and the key waiting for its value (empty
        /// for any other frame: no optional to check on every access).
        var dictionary: OpenDictionary
        /// The keys of the last dictionary closed inside this frame, with
        /// their hashes where it kept them: a dictionary shaped like its
        /// sibling before it (the records of one kind, such as a music
        /// library's tracks) reuses those keys' `String`s and hashes, position
        /// by position, instead of building and hashing them again (measured:
        /// 3% fewer instructions reading library.xml, where a per-document
        /// cache of every key cost 4% on documents whose keys do not repeat).
        var childTemplate: (keys: [String], hashes: [Int]) = ([], [])

        init(_ kind: Kind, dictionary: OpenDictionary = OpenDictionary(entries: PropertyListDictionary())) {
            self.kind = kind
            self.dictionary = dictionary
        }
    }

    /// An open `<dict>`: its entries, the key waiting for its value (checked
    /// against the others as it closed) and where that key goes.
    struct OpenDictionary {
        var entries: PropertyListDictionary
        var pendingKey: String?
        var pendingSlot: Int?
        /// Each stored key's `hashValue`, kept once the dictionary is past its
        /// scan limit, so that its index grows without hashing a key twice.
        var hashes: [Int] = []
        /// Where in its template (the sibling before it) the next key is looked for.
        var templateCursor = 0
        /// How many of its keys were found in its template. While that is all
        /// of them (each found past the one before), they are distinct keys of
        /// a checked dictionary, so the next such key needs no comparison.
        var templateKeys = 0
        /// The hashes of its first keys, where the template gave them (bit i of
        /// `knownEarlyHashes` set when `earlyHashes[i]` holds key i's).
        var earlyHashes = InlineArray<8, Int>(repeating: 0)
        var knownEarlyHashes: UInt8 = 0
    }

    private let limits: PropertyListLimits
    private var frames = GrowableBuffer<Frame>(capacity: 16)
    /// The number of open containers (the array and dictionary frames).
    private var depth = 0
    /// The open scalar or key, if any (only one can be open at a time).
    private var openScalar: ScalarKind?
    /// The UTF-8 text of the open scalar.
    private var text = ByteSink(capacity: 256)
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
        frames.append(Frame(.document(seenRoot: false)))
    }

    /// The innermost frame's position in the stack.
    private var top: Int { frames.count - 1 }

    /// The key path of the innermost open value.
    var keyPath: [PropertyListKeyPath.Component] {
        var path: [PropertyListKeyPath.Component] = []
        for level in 0..<frames.count {
            switch frames[level].kind {
            case .array: path.append(.index(frames[level].members.count))
            case .dictionary: if let pendingKey = frames[level].dictionary.pendingKey { path.append(.key(pendingKey)) }
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
        if let kind = openScalar {
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
        // Most elements are a value in an array or after its key, or a key in
        // a dictionary, with no attribute and nothing open: for them no rule
        // below can fail but the counts, which are charged here in the same
        // order. Everything else takes the general path.
        if case .scalar(let kind) = element, openScalar == nil, attributes.isEmpty {
            let inArray: Bool
            let keyPending: Bool
            switch frames[top].kind {
            case .array: (inArray, keyPending) = (true, false)
            case .dictionary: (inArray, keyPending) = (false, frames[top].dictionary.pendingSlot != nil)
            default: return try startAnyElement(element, name: name, attributes: attributes)
            }
            if kind == .key ? !inArray && !keyPending : inArray || keyPending {
                return try openText(kind)
            }
        }
        try startAnyElement(element, name: name, attributes: attributes)
    }

    /// Opens a scalar or key, its place checked: a value is counted, and each
    /// weighs its node (8 + its depth) as it opens.
    @inline(__always)
    private mutating func openText(_ kind: ScalarKind) throws(PropertyListError) {
        if kind != .key { try countObject() }
        try charge(8 &+ depth)  // ExpandedSize.node(depth:payload: 0), inline
        openScalar = kind
        text.removeAll()
    }

    /// ``startElement(_:name:attributes:)`` for every element, each rule checked.
    @inline(never)
    private mutating func startAnyElement(_ element: PlistElement, name: ElementName, attributes: ElementAttributes) throws(PropertyListError) {
        func shown() -> String { name.text }
        if let kind = openScalar {
            // misplacedElement: scalars hold text only.
            throw PropertyListError(.misplacedElement, "<\(shown())> inside <\(kind.rawValue)>")
        }
        switch frames[top].kind {
        case .document(let seenRoot):
            // unexpectedRoot: one root, <plist> with no attribute but version="1.0", or a
            // value element itself (CoreFoundation and plistlib read a bare value).
            guard !seenRoot, element == .plist || element.isValue else {
                throw PropertyListError(.unexpectedRoot, "the root element is <\(shown())>, not <plist> or a value")
            }
            frames[top].kind = .document(seenRoot: true)
            if element == .plist {
                guard attributes.pairs.allSatisfy({ $0.name == "version" && $0.value == "1.0" }) else {
                    throw PropertyListError(.unexpectedRoot, "<plist> takes no attribute but version=\"1.0\"")
                }
                frames.append(Frame(.plist(hasValue: false, implicit: false)))
                return
            }
            frames.append(Frame(.plist(hasValue: false, implicit: true)))
        case .plist(let hasValue, _):
            // plistValueCount: exactly one value.
            guard !hasValue else { throw PropertyListError(.plistValueCount, "<plist> holds more than one value") }
        case .dictionary:
            // pendingSlot is set with pendingKey: testing it copies no string.
            let keyPending = frames[top].dictionary.pendingSlot != nil
            if element == .scalar(.key) {
                if keyPending {
                    throw PropertyListError(.missingValue, "key \"\(frames[top].dictionary.pendingKey ?? "")\" has no value before the next <key>")
                }
            } else if !keyPending, element.isValue {
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
            guard depth < limits.maxDepth else {
                throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)")
            }
            try countObject()
            try charge(8 &+ depth)  // ExpandedSize.node(depth:payload: 0), inline
            // Each frame is built in its place in the stack (built first and
            // appended, it was copied and the original destroyed: measured 2%
            // of decoding a 3.4 KB userInfo document).
            if element == .dict {
                frames.append(building: {
                    Frame(.dictionary, dictionary: OpenDictionary(entries: PropertyListDictionary(minimumCapacity: PropertyListDictionary.scanLimit)))
                })
            } else {
                // Room for a few members at once: an array grown from empty one
                // append at a time is reallocated at its second and third.
                frames.append(building: {
                    var frame = Frame(.array)
                    frame.members.reserveCapacity(4)
                    return frame
                })
            }
            depth += 1
        case .scalar(let kind):
            guard kind != .key || frames[top].kind == .dictionary else {
                throw PropertyListError(.misplacedElement, "<key> outside a dictionary")
            }
            try openText(kind)
        case .plist, .unknown:
            preconditionFailure("checked above")
        }
    }

    /// Character data (raw or CDATA), possibly one of several pieces of one text.
    mutating func characters(_ more: Span<UInt8>, cdata: Bool) throws(PropertyListError) {
        // Text of an open key, string, number or date, not CDATA, within the
        // string limit: no rule below can refuse it.
        if let kind = openScalar, !cdata, kind != .data, kind != .trueValue, kind != .falseValue,
           more.count <= limits.maxStringBytes &- text.count {
            text.append(more)
            return
        }
        try anyCharacters(more, cdata: cdata)
    }

    /// ``characters(_:cdata:)`` for any text, each rule checked.
    @inline(never)
    private mutating func anyCharacters(_ more: Span<UInt8>, cdata: Bool) throws(PropertyListError) {
        guard let kind = openScalar else {
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
        guard let kind = openScalar else { return try closeContainer() }
        // A key is checked while it is still open (errors name the dictionary's path).
        if kind == .key {
            try closeKey()
            openScalar = nil
            return
        }
        openScalar = nil
        if kind == .data || restoresMarks { try prepareText(kind, closedEmpty: closedEmpty) }
        let value = try ScalarText.value(kind, text.span, maxDataBytes: limits.maxDataBytes)
        // Only strings and data weigh more than their node (ExpandedSize.node, charged as the element opened).
        if kind == .string || kind == .data { try charge(value.payloadBytes) }
        try deliver(value)
    }

    /// The rarer steps before a scalar's value is read: an empty-element
    /// `<data/>` refused, a string's marks turned back into controls.
    @inline(never)
    private mutating func prepareText(_ kind: ScalarKind, closedEmpty: () -> Bool) throws(PropertyListError) {
        // invalidData: CoreFoundation refuses <data/>, though it reads <data></data> as empty data.
        if kind == .data, text.count == 0, closedEmpty() {
            throw PropertyListError(.invalidData, "an empty-element <data/> (Apple's parser refuses it; <data></data> is empty data)")
        }
        // Control characters in strings: the marks back into controls, before the string is made.
        if restoresMarks, kind == .string { restoredMarks += XMLInput.restoringMarks(in: &text) }
    }

    /// The innermost container closes and is delivered to its own.
    @inline(never)
    private mutating func closeContainer() throws(PropertyListError) {
        let value: PropertyListValue
        // The frame's contents are moved out of it (swapped with empty ones),
        // not copied: a copy retained every array of the frame and released
        // them again as the frame was destroyed (measured: 2.5% of decoding a
        // 3.4 KB userInfo document).
        var frame = frames.removeLast()
        switch frame.kind {
        case .array:
            depth -= 1
            var members: [PropertyListValue] = []
            swap(&members, &frame.members)
            value = .array(members)
        case .dictionary:
            depth -= 1
            if let pendingKey = frame.dictionary.pendingKey {
                throw PropertyListError(.missingValue, "key \"\(pendingKey)\" has no value", keyPath: PropertyListKeyPath([.key(pendingKey)]))
            }
            var dictionary = PropertyListDictionary()
            swap(&dictionary, &frame.dictionary.entries)
            var hashes: [Int] = []
            swap(&hashes, &frame.dictionary.hashes)
            // The next dictionary in the same container may have the same keys.
            frames[top].childTemplate = (dictionary.keys, hashes)
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
        let top = self.top
        let position = frames[top].dictionary.entries.count
        // The sibling's key at the cursor or just after it (records of one kind
        // may leave out a key), if it is these bytes.
        var reused: String?
        var knownHash: Int?
        var matched: Int?
        // A dictionary whose first two keys are not its sibling's stops looking
        // (settings-like documents, whose keys never repeat, pay two compares).
        if position < 2 || frames[top].dictionary.templateCursor > 0 {
            // Read in place in the parent's frame (a copy of the template would retain its arrays).
            let cursor = frames[top].dictionary.templateCursor
            for candidate in cursor..<min(cursor + 2, frames[top - 1].childTemplate.keys.count)
            where Self.same(text.span, frames[top - 1].childTemplate.keys[candidate]) {
                reused = frames[top - 1].childTemplate.keys[candidate]
                if candidate < frames[top - 1].childTemplate.hashes.count { knownHash = frames[top - 1].childTemplate.hashes[candidate] }
                matched = candidate
                break
            }
        }
        // duplicateKey needs no comparison for a key of the template found past
        // the keys before it, all of them the template's too.
        var knownNew = false
        if let matched {
            frames[top].dictionary.templateCursor = matched + 1
            knownNew = frames[top].dictionary.templateKeys == position
            frames[top].dictionary.templateKeys += 1
        }
        // libxml2 hands over valid UTF-8 only.
        let key = reused ?? ScalarText.string(checkedUTF8: text.span)
        if let knownHash, position < PropertyListDictionary.scanLimit {
            frames[top].dictionary.earlyHashes[position] = knownHash
            frames[top].dictionary.knownEarlyHashes |= 1 << UInt8(position)
        }
        let slot: Int?
        if position < PropertyListDictionary.scanLimit {
            slot = frames[top].dictionary.entries.slot(forNewKey: key, hash: { 0 }, hashes: [Int]().span, knownAbsent: knownNew)
        } else {
            // The hashes move out while the entries change (so that appending
            // to them never copies them), and back after.
            var hashes: [Int] = []
            swap(&hashes, &frames[top].dictionary.hashes)
            if hashes.isEmpty {
                // Past the scan limit: from now on the index needs every key's hash.
                let open = frames[top].dictionary
                hashes.reserveCapacity(2 * position)
                for (index, stored) in open.entries.keys.enumerated() {
                    hashes.append(open.knownEarlyHashes & (1 << UInt8(index)) != 0 ? open.earlyHashes[index] : stored.hashValue)
                }
            }
            var hash = 0
            slot = frames[top].dictionary.entries.slot(forNewKey: key, hash: {
                hash = knownHash ?? key.hashValue
                return hash
            }, hashes: hashes.span, knownAbsent: knownNew)
            if slot != nil { hashes.append(hash) }
            swap(&hashes, &frames[top].dictionary.hashes)
        }
        // duplicateKey: each key once (canonically equivalent spellings count as one).
        guard let slot else {
            throw PropertyListError(.duplicateKey, "key \"\(key)\" appears more than once")
        }
        frames[top].dictionary.pendingKey = key
        frames[top].dictionary.pendingSlot = slot
    }

    /// True when `string` is spelled by exactly `bytes`.
    @inline(__always)
    private static func same(_ bytes: Span<UInt8>, _ string: String) -> Bool {
        bytes.bytes.sameBytes(asUTF8Of: string)
    }

    @inline(__always)
    private mutating func deliver(_ value: __owned PropertyListValue) throws(PropertyListError) {
        // The common case: a member of an array with room for it.
        if case .array = frames[top].kind, frames[top].members.count < limits.maxCollectionCount {
            frames[top].members.append(value)
            return
        }
        try deliverElsewhere(value)
    }

    /// ``deliver(_:)`` to a dictionary, the document's root, or an array that is full.
    @inline(never)
    private mutating func deliverElsewhere(_ value: __owned PropertyListValue) throws(PropertyListError) {
        let top = self.top
        switch frames[top].kind {
        case .plist(_, let implicit):
            result = value
            if implicit {
                // A bare root value is the whole document.
                _ = frames.removeLast()
            } else {
                frames[top].kind = .plist(hasValue: true, implicit: false)
            }
        case .array:
            // collectionLimitExceeded (an array with room took the value in deliver)
            throw PropertyListError(.collectionLimitExceeded, "an array of more than \(limits.maxCollectionCount) members")
        case .dictionary:
            guard frames[top].dictionary.entries.count < limits.maxCollectionCount else {
                throw PropertyListError(.collectionLimitExceeded, "a dictionary of more than \(limits.maxCollectionCount) members")
            }
            // The key moves from the frame into the entries (no copy of the string).
            guard let key = frames[top].dictionary.pendingKey.take(), let slot = frames[top].dictionary.pendingSlot.take() else {
                preconditionFailure("values in dictionaries follow keys")
            }
            frames[top].dictionary.entries.append(value, forNewKey: key, at: slot)
        case .document:
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
        guard let result, frames.count == 1, openScalar == nil else {
            throw PropertyListError(.malformedXML, "the document ends before </plist>")
        }
        return result
    }
}
