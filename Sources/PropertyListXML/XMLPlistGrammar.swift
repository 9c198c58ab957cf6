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
        /// Where a container's members (a dictionary's values) begin in the
        /// grammar's ``PlistGrammar/values`` stack, and a dictionary's keys in
        /// ``PlistGrammar/keys``: each stack holds the open containers'
        /// contents, innermost last (Specs/xml-plist.md, "Reader stacks").
        var start: Int
        var keyStart: Int
        /// A dictionary's state (empty for any other frame: no optional to
        /// check on every access).
        var dictionary = OpenDictionary()

        init(_ kind: Kind, start: Int, keyStart: Int) {
            self.kind = kind
            self.start = start
            self.keyStart = keyStart
        }
    }

    /// An open `<dict>`: where its waiting key goes, its index once it is
    /// past the scan limit, and how far its keys follow its sibling's.
    struct OpenDictionary {
        /// The index bucket of the key waiting for its value (-1 while the
        /// dictionary needs no index); nil when no key is waiting.
        var pendingSlot: Int?
        var index = OpenDictionaryIndex()
        /// The `hashValue`s of its first keys, in order, once it is past its
        /// scan limit, so that its index grows without hashing a key twice.
        var hashes: [Int] = []
        /// Where in its sibling (the dictionary closed before it at its depth)
        /// the next key is looked for.
        var templateCursor = 0
        /// How many of its keys were found in its sibling. While that is all
        /// of them (each found past the one before), they are distinct keys of
        /// a checked dictionary, so the next such key needs no comparison.
        var templateKeys = 0
        /// How many of its first keys are its sibling's at the same positions:
        /// when that is all of them and all of the sibling's, it shares the
        /// sibling's keys and index (``Sibling``).
        var sharedKeys = 0
        /// The hashes of its first keys, where the sibling gave them (bit i of
        /// `knownEarlyHashes` set when `earlyHashes[i]` holds key i's).
        var earlyHashes = InlineArray<8, Int>(repeating: 0)
        var knownEarlyHashes: UInt8 = 0
    }

    /// The last dictionary closed at a depth, and its keys' hashes where it
    /// kept them: a dictionary shaped like it (the records of one kind, such
    /// as a music library's tracks) reuses those keys' `String`s and hashes,
    /// position by position, instead of building and hashing them again
    /// (measured: 3% fewer instructions reading library.xml, where a
    /// per-document cache of every key cost 4% on documents whose keys do not
    /// repeat), and when it has exactly the sibling's keys it shares the
    /// sibling's key array and index, as the binary reader does.
    struct Sibling {
        /// Its keys and their index (not its values).
        var keys = SharedDictionaryKeys()
        var hashes: [Int] = []
    }

    private let limits: PropertyListLimits
    private var frames = GrowableBuffer<Frame>(capacity: 16)
    /// The members of every open container (a dictionary's values), in
    /// order, innermost container last: a container closes into an array of
    /// exactly its count, moved out of here (Specs/xml-plist.md, "Reader stacks").
    private var values = GrowableBuffer<PropertyListValue>(capacity: 64)
    /// The keys of every open dictionary, in order, innermost last.
    private var keys = GrowableBuffer<String>(capacity: 32)
    /// The last dictionary closed at each depth (``Sibling``), by depth.
    private var siblings = GrowableBuffer<Sibling>(capacity: 4)
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
        frames.append(Frame(.document(seenRoot: false), start: 0, keyStart: 0))
    }

    /// The innermost frame's position in the stack.
    private var top: Int { frames.count - 1 }

    /// The key path of the innermost open value.
    var keyPath: [PropertyListKeyPath.Component] {
        var path: [PropertyListKeyPath.Component] = []
        for level in 0..<frames.count {
            // A container's contents end where the next frame's begin.
            let inner = level + 1 < frames.count
            switch frames[level].kind {
            case .array:
                path.append(.index((inner ? frames[level + 1].start : values.count) - frames[level].start))
            case .dictionary:
                if frames[level].dictionary.pendingSlot != nil {
                    path.append(.key(keys[(inner ? frames[level + 1].keyStart : keys.count) - 1]))
                }
            default: break
            }
        }
        return path
    }

    /// `<!DOCTYPE …>`: forbiddenDeclaration unless it is Apple's plist document
    /// type (the internal subset is refused before parsing, by XMLInput).
    mutating func documentType(name: LibXML2Text, publicID: LibXML2Text, systemID: LibXML2Text) throws(PropertyListError) {
        guard name.spells("plist"), XMLInput.appleDocumentTypes.contains(where: { publicID.spells($0.publicID) && systemID.spells($0.systemID) }) else {
            throw PropertyListError(.forbiddenDeclaration, "document type \(name.text) \(publicID.optionalText ?? "-") \(systemID.optionalText ?? "-") is not Apple's plist document type")
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
    ///
    /// The grammar's steps taken for every element sit in the bridge's
    /// `.text.hot` section, which the linker puts ahead of all other code, so
    /// that a change anywhere else no longer moves them (Specs/xml-plist.md,
    /// "Reader speed": moved by 160 or 800 bytes, they made numbers.xml 4–8%
    /// slower at equal instructions). This one, `characters`, `endElement`,
    /// `closeKey` and `deliverElsewhere` are inlined into the reader's
    /// callbacks there (measured: their calls were 3.7% of the userInfo
    /// pack's instructions); `closeContainer` is placed there.
    @inline(__always)
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
    @section(".text.hot.activitycodec")
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
                guard attributes.allAre(name: "version", value: "1.0") else {
                    throw PropertyListError(.unexpectedRoot, "<plist> takes no attribute but version=\"1.0\"")
                }
                frames.append(Frame(.plist(hasValue: false, implicit: false), start: 0, keyStart: 0))
                return
            }
            frames.append(Frame(.plist(hasValue: false, implicit: true), start: 0, keyStart: 0))
        case .plist(let hasValue, _):
            // plistValueCount: exactly one value.
            guard !hasValue else { throw PropertyListError(.plistValueCount, "<plist> holds more than one value") }
        case .dictionary:
            let keyPending = frames[top].dictionary.pendingSlot != nil
            if element == .scalar(.key) {
                if keyPending {
                    throw PropertyListError(.missingValue, "key \"\(keys[keys.count - 1])\" has no value before the next <key>")
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
            // of decoding a 3.4 KB userInfo document). Its contents go to the
            // shared stacks, so opening it allocates nothing.
            let (start, keyStart) = (values.count, keys.count)
            frames.append(building: { Frame(element == .dict ? .dictionary : .array, start: start, keyStart: keyStart) })
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
    @inline(__always)
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

    /// True when the element closing next is a `<data>` with no text, whose
    /// closing tag decides (``endElement(closedEmpty:)``, invalidData).
    var closingNeedsItsTag: Bool { openScalar == .data && text.count == 0 }

    /// The innermost element closes. `closedEmpty` tells whether it was
    /// written as an empty-element tag (`<data/>`) when
    /// ``closingNeedsItsTag`` says that matters (and may be false otherwise):
    /// a flag, not a closure to call, so that no copy specialised for one is
    /// made out of the `.text.hot` section (Specs/xml-plist.md, "Reader speed");
    /// inlined into the reader's callback there (``startElement(_:name:attributes:)``).
    @inline(__always)
    mutating func endElement(closedEmpty: Bool) throws(PropertyListError) {
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
        try deliver(consume value)
    }

    /// The rarer steps before a scalar's value is read: an empty-element
    /// `<data/>` refused, a string's marks turned back into controls.
    @inline(never)
    private mutating func prepareText(_ kind: ScalarKind, closedEmpty: Bool) throws(PropertyListError) {
        // invalidData: CoreFoundation refuses <data/>, though it reads <data></data> as empty data.
        if kind == .data, text.count == 0, closedEmpty {
            throw PropertyListError(.invalidData, "an empty-element <data/> (Apple's parser refuses it; <data></data> is empty data)")
        }
        // Control characters in strings: the marks back into controls, before the string is made.
        if restoresMarks, kind == .string { restoredMarks += XMLInput.restoringMarks(in: &text) }
    }

    /// The innermost container closes and is delivered to its own: its
    /// contents move out of the shared stacks into arrays of exactly their
    /// count (Specs/xml-plist.md, "Reader stacks").
    @inline(never)
    @section(".text.hot.activitycodec")
    private mutating func closeContainer() throws(PropertyListError) {
        let value: PropertyListValue
        var frame = frames.removeLast()
        switch frame.kind {
        case .array:
            depth -= 1
            value = .array(values.moveOut(from: frame.start))
        case .dictionary:
            depth -= 1
            if frame.dictionary.pendingSlot != nil {
                let pendingKey = keys[keys.count - 1]
                throw PropertyListError(.missingValue, "key \"\(pendingKey)\" has no value", keyPath: PropertyListKeyPath([.key(pendingKey)]))
            }
            let count = values.count - frame.start
            var hashes: [Int] = []
            swap(&hashes, &frame.dictionary.hashes)
            let dictionary: PropertyListDictionary
            if depth < siblings.count, count > 0, frame.dictionary.sharedKeys == count, siblings[depth].keys.keys.count == count {
                // Sibling keys: exactly the sibling's keys, byte for byte and in
                // its order, so its key array and index are this one's too (and
                // the sibling stays as it is for the next one).
                keys.removeAll(from: frame.keyStart)
                dictionary = PropertyListDictionary(sharing: siblings[depth].keys, values: values.moveOut(from: frame.start))
            } else {
                var index = OpenDictionaryIndex()
                swap(&index, &frame.dictionary.index)
                if count > PropertyListDictionary.scanLimit && index.isEmpty {
                    // Its keys past the scan limit were all its sibling's, in
                    // order, so none needed the index until now.
                    Self.fillHashes(&hashes, of: keys.span.extracting(frame.keyStart...), early: frame.dictionary)
                    index.makeRoom(hashes: hashes.span)
                }
                dictionary = PropertyListDictionary(checkedKeys: keys.moveOut(from: frame.keyStart), values: values.moveOut(from: frame.start), index: index)
                // The next dictionary at this depth may have the same keys.
                while siblings.count <= depth { siblings.append(Sibling()) }
                siblings[depth] = Sibling(keys: dictionary.sharedKeys, hashes: hashes.count == count ? consume hashes : [])
            }
            // A dictionary whose only key is CF$UID, holding an integer in [0, 2^32), is a UID (CoreFoundation's reading).
            if count == 1, case .integer(let integer)? = dictionary["CF$UID"] {
                // uidTooWide: CoreFoundation would truncate a wider integer to a 32-bit UID.
                guard let uid = integer.uint64Value.flatMap(UInt32.init(exactly:)) else {
                    throw PropertyListError(.uidTooWide, "a CF$UID dictionary holds \(integer), outside [0, 2^32) (CoreFoundation would truncate it)")
                }
                value = .uid(uid)
            } else {
                // Moved, not copied (a copy retains the dictionary's storage
                // and the end of `dictionary` releases it again).
                value = .dictionary(consume dictionary)
            }
        case .plist(let hasValue, _):
            // plistValueCount
            guard hasValue else { throw PropertyListError(.plistValueCount, "<plist> holds no value") }
            return
        case .document:
            preconditionFailure("the document frame is never closed by an element")
        }
        try deliver(consume value)
    }

    /// Completes `hashes` to the `hashValue`s of `keys`, a dictionary's keys
    /// (the early ones its sibling gave, in `early`, are taken as they are).
    /// (A static function: as a method it copied the whole grammar to call.)
    @inline(never)
    private static func fillHashes(_ hashes: inout [Int], of keys: Span<String>, early: borrowing OpenDictionary) {
        hashes.reserveCapacity(2 * keys.count)
        while hashes.count < keys.count {
            let position = hashes.count
            let isKnown = position < PropertyListDictionary.scanLimit && early.knownEarlyHashes & (1 << UInt8(position)) != 0
            hashes.append(isKnown ? early.earlyHashes[position] : keys[position].hashValue)
        }
    }

    /// `</key>`: the key is checked against its dictionary's keys and waits for its value.
    @inline(__always)
    private mutating func closeKey() throws(PropertyListError) {
        // Control characters in strings: the marks back into controls, before the key is compared with the others.
        if restoresMarks { restoredMarks += XMLInput.restoringMarks(in: &text) }
        // leadingByteOrderMark (called only for a key that starts with its first byte)
        if text.count >= 3, text.span[0] == 0xEF { try ScalarText.checkLeadingByteOrderMark(utf8: text.span) }
        try charge(text.count)
        let top = self.top
        let level = depth - 1
        let position = keys.count - frames[top].keyStart
        // The sibling's key at the cursor or just after it (records of one kind
        // may leave out a key), if it is these bytes.
        var reused: String?
        var knownHash: Int?
        var matched: Int?
        // A dictionary whose first two keys are not its sibling's stops looking
        // (settings-like documents, whose keys never repeat, pay two compares).
        if level < siblings.count, position < 2 || frames[top].dictionary.templateCursor > 0 {
            let cursor = frames[top].dictionary.templateCursor
            for candidate in cursor..<min(cursor + 2, siblings[level].keys.keys.count)
            where Self.same(text.span, siblings[level].keys.keys[candidate]) {
                reused = siblings[level].keys.keys[candidate]
                if candidate < siblings[level].hashes.count { knownHash = siblings[level].hashes[candidate] }
                matched = candidate
                break
            }
        }
        // duplicateKey needs no comparison for a key of the sibling found past
        // the keys before it, all of them the sibling's too.
        var knownNew = false
        if let matched {
            frames[top].dictionary.templateCursor = matched + 1
            knownNew = frames[top].dictionary.templateKeys == position
            frames[top].dictionary.templateKeys += 1
            if matched == position && frames[top].dictionary.sharedKeys == position { frames[top].dictionary.sharedKeys += 1 }
        }
        // libxml2 hands over valid UTF-8 only.
        let key = reused ?? ScalarText.string(checkedUTF8: text.span)
        let slot: Int
        if position < PropertyListDictionary.scanLimit {
            if let knownHash {
                frames[top].dictionary.earlyHashes[position] = knownHash
                frames[top].dictionary.knownEarlyHashes |= 1 << UInt8(position)
            }
            // duplicateKey: each key once (canonically equivalent spellings count as one).
            if !knownNew {
                for stored in frames[top].keyStart..<keys.count where keys[stored] == key {
                    throw PropertyListError(.duplicateKey, "key \"\(key)\" appears more than once")
                }
            }
            slot = -1
        } else if knownNew && frames[top].dictionary.index.isEmpty {
            // Every key so far is its sibling's, in order: distinct with no
            // index, which waits until a key is not (or the dictionary closes).
            if position == frames[top].dictionary.hashes.count, let knownHash { frames[top].dictionary.hashes.append(knownHash) }
            slot = -1
        } else {
            // The hashes move out while they change (so that appending to them
            // never copies them), and back after.
            var hashes: [Int] = []
            swap(&hashes, &frames[top].dictionary.hashes)
            if hashes.count < position { Self.fillHashes(&hashes, of: keys.span.extracting(frames[top].keyStart...), early: frames[top].dictionary) }
            frames[top].dictionary.index.makeRoom(hashes: hashes.span)
            let hash = knownHash ?? key.hashValue
            let found = frames[top].dictionary.index.slot(for: key, hash: hash, keys: keys.span.extracting(frames[top].keyStart...), knownAbsent: knownNew)
            hashes.append(hash)
            swap(&hashes, &frames[top].dictionary.hashes)
            // duplicateKey
            guard let found else {
                throw PropertyListError(.duplicateKey, "key \"\(key)\" appears more than once")
            }
            slot = found
        }
        keys.append(key)
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
        if case .array = frames[top].kind, values.count &- frames[top].start < limits.maxCollectionCount {
            values.append(consume value)
            return
        }
        try deliverElsewhere(consume value)
    }

    /// ``deliver(_:)`` to a dictionary, the document's root, or an array that is full.
    @inline(__always)
    private mutating func deliverElsewhere(_ value: __owned PropertyListValue) throws(PropertyListError) {
        let top = self.top
        switch frames[top].kind {
        case .plist(_, let implicit):
            result = consume value
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
            let position = values.count - frames[top].start
            guard position < limits.maxCollectionCount else {
                throw PropertyListError(.collectionLimitExceeded, "a dictionary of more than \(limits.maxCollectionCount) members")
            }
            guard let slot = frames[top].dictionary.pendingSlot.take() else {
                preconditionFailure("values in dictionaries follow keys")
            }
            if slot >= 0 { frames[top].dictionary.index.store(position: position, at: slot) }
            values.append(consume value)
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
