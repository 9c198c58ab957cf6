import FoundationEssentials

/// The decoding state for one input: what is known about each object, and
/// the decoded values, filled in one pass with an explicit stack.
///
/// The per-object tables are an ``ObjectTable`` sized by the object count the
/// trailer declares, which the offset table bounds by the file's bytes: a
/// fact per object (its shape and expanded size) and a slot for its value,
/// filled only when the object is decoded (Specs/value-model.md, "Memory").
/// Every index into them is an object number below the count, which
/// `BinaryInput.reference(at:)` and the loops over `0..<objectCount` ensure,
/// and which the table checks again.
internal struct BinaryPropertyListDecoder: ~Copyable, ~Escapable {
    private let input: BinaryInput

    /// What is known about each object, by index, kept apart from the values
    /// so that checking a state never copies a value. Packed in eight bytes
    /// (state: 2 bits, height: 10, nodes: 52); all zero is an unvisited object.
    struct Shape {
        /// `done` objects have their value in `values`; `doneUnstored` ones are
        /// scalars without storage (integers, reals, booleans, dates, UIDs,
        /// null), decoded again where they are reused (a few bytes, no
        /// allocation), and strings and data used once so far, decoded again
        /// at their second use and `done` from then on: so that the common
        /// unshared value is never copied into `values` (a reference-count
        /// increment, atomic) and released again with it.
        enum State: UInt64 { case unvisited, inProgress, done, doneUnstored }
        private var bits: UInt64 = 0

        init(state: State, height: Int, nodes: Int) {
            bits = state.rawValue | UInt64(height) << 2 | UInt64(nodes) << 12
        }
        var state: State {
            get { State(rawValue: bits & 3)! }
            set { bits = bits & ~3 | newValue.rawValue }
        }
        /// Container height (0 for scalars), once done; at most maxSupportedDepth.
        var height: Int { Int(truncatingIfNeeded: bits >> 2 & 0x3FF) }
        /// Nodes of the expanded tree the object stands for, once done.
        var nodes: Int { Int(truncatingIfNeeded: bits >> 12) }
    }
    /// One shape (zero: unvisited), one expanded size at relative depth 0
    /// (once done) and one value slot per object.
    private let objects: ObjectTable<Shape, Int, PropertyListValue>
    private var decodedCount = 0
    /// The containers in progress, outermost first: an explicit stack, so that
    /// no depth a caller allows can overflow the thread's stack
    /// (Specs/architecture.md, "One stack policy"). Frames are initialised
    /// in place when a container opens and moved out when it closes, never
    /// copied (``GrowableBuffer``).
    private var frames: GrowableBuffer<Frame>
    /// Recently decoded dictionary keys (see `decodeKey`); allocated on first use.
    private var recentKeys: [RecentKey] = []
    private static let recentKeysSize = 256
    private static let recentKeysMinimumObjects = 256
    struct RecentKey {
        var object: Int
        var key: String
        var hash: Int?
    }
    /// The last dictionary finished at each container depth (by frame depth):
    /// a sibling whose key references are the same bytes shares its keys
    /// (Specs/binary-plist.md, "Sibling keys"). One per depth reached.
    private var siblingKeys: [SiblingKeys] = []
    struct SiblingKeys {
        /// Where the dictionary's key references start, and how many.
        var references: Int
        var count: Int
        /// Its object number: its value, whose key array and hash index are
        /// shared as they are, is in `objects` (so that recording a sibling
        /// retains nothing).
        var object: Int
    }

    /// A decoded object: its value, and its expanded size at relative depth 0
    /// (`base`), node count and container height, from which its size where it
    /// is placed follows (``ExpandedSize``).
    struct Decoded {
        var value: PropertyListValue
        var base: Int
        var nodes: Int
        var height: Int

        /// What ``startLeaf(_:depth:)`` returns for a container still to open
        /// (a sentinel rather than an optional: an optional of this struct is
        /// handled through value witnesses, measured 5% of a decode).
        static let container = Decoded(value: .bool(false), base: 0, nodes: 0, height: -1)
        var isContainer: Bool { height < 0 }
        /// The value, moved out.
        @inline(__always) consuming func takeValue() -> PropertyListValue { value }
    }

    /// Checks the header, trailer and offset table (Specs: "Trailer") and
    /// prepares one slot per object.
    @_lifetime(copy bytes)
    init(_ bytes: RawSpan, limits: PropertyListLimits) throws(PropertyListError) {
        input = try BinaryInput(bytes, limits: limits)
        objects = ObjectTable(count: input.objectCount)
        // Containers nest at most maxDepth deep, and at most once per object (no cycles).
        frames = GrowableBuffer(capacity: min(limits.maxDepth, input.objectCount) + 1)
    }

    /// Decodes the top object and checks that every object was used.
    mutating func decodeDocument() throws(PropertyListError) -> PropertyListValue {
        // unaccountedBytes: the first object starts right after the header.
        let first = try input.objectOffset(0)
        guard first == BinaryFormat.headerSize else {
            throw PropertyListError(.unaccountedBytes, "first object starts at \(first), not right after the header", at: .byteOffset(BinaryFormat.headerSize))
        }
        let top = try decodeObject(input.topObject, depth: 0)
        // Unreferenced objects are accepted, because CoreFoundation writes them
        // (one object per repeated boolean, only the first referenced), but each
        // is decoded and checked like any other, so every byte is still a valid object.
        if decodedCount < input.objectCount {
            for index in 0..<input.objectCount {
                if objects[fact: index].state == .unvisited { _ = try decodeObject(index, depth: 0) }
            }
        }
        return top.value
    }

    // MARK: Objects

    /// A container being decoded: the local `current` of ``decodeObject(_:depth:)``,
    /// and one per waiting level of `frames`. Its fields are ordered so that
    /// it packs in 128 bytes (the optional hash, the flag and the two small
    /// levels share one word): above that, every move of a frame, two per
    /// container, is a call to `memcpy` (measured: 2% of decoding
    /// unicode.bplist).
    struct Frame {
        /// The container's object number and byte offset.
        let index: Int
        let start: Int
        let count: Int
        /// The first member reference (arrays) or key reference (dictionaries).
        let references: Int
        /// The member being decoded.
        var position = 0
        var elements: [PropertyListValue] = []
        var dictionary = PropertyListDictionary()
        /// The key of the member being decoded (dictionaries).
        var key = ""
        /// The container measured at relative depth 0 so far: itself, then
        /// each member one level down.
        var base = ExpandedSize.node(depth: 0, payload: 0)
        var nodes = 1
        var keyHash: Int?
        let isDictionary: Bool
        /// The dictionary holds its sibling's keys already (sibling keys):
        /// only values are added.
        var sharesKeys = false
        /// The container depth it was entered at (1 for the top container)
        /// and its height so far, both at most `maxSupportedDepth`.
        private let storedDepth: Int32
        private var storedHeight: Int32 = 0

        init(index: Int, start: Int, depth: Int, isDictionary: Bool, count: Int, references: Int) {
            self.index = index
            self.start = start
            self.count = count
            self.references = references
            self.isDictionary = isDictionary
            storedDepth = Int32(depth)
        }

        var depth: Int { Int(storedDepth) }
        var height: Int {
            get { Int(storedHeight) }
            set { storedHeight = Int32(truncatingIfNeeded: newValue) }
        }

        /// Makes room for the members (in place: a frame built with its
        /// collections was copied into the stack, measured 3% of decoding).
        /// A dictionary whose sibling's keys it shares (`sibling`, holding
        /// them with no values) adds only values.
        @inline(__always)
        mutating func reserveMembers(sharing sibling: consuming PropertyListDictionary?) {
            if let sibling {
                dictionary = sibling
                sharesKeys = true
            } else if isDictionary {
                dictionary = PropertyListDictionary(minimumCapacity: count)
            } else {
                elements.reserveCapacity(count)
            }
        }

        /// The key of the member being decoded (dictionaries).
        var memberKey: String { sharesKeys ? dictionary.storedKeys[position] : key }

        /// The key whose reference is at `slot`, decoded again for a message
        /// (the frame's copy has moved into the dictionary).
        @inline(never)
        static func keyText(at slot: Int, input: BinaryInput) -> String {
            guard let object = try? input.reference(at: slot), let offset = try? input.objectOffset(object),
                  let (text, _) = try? input.decodeString(at: offset) else { return "?" }
            return text
        }

        /// The key path component of the member being decoded.
        var member: PropertyListKeyPath.Component { isDictionary ? .key(memberKey) : .index(position) }

        /// Adds a member's value, measured at relative depth 0 (`base`,
        /// `nodes`, `height`), and checks the container's size so far.
        @inline(__always)
        mutating func add(_ value: consuming PropertyListValue, base: Int, nodes: Int, height: Int,
                          input: BinaryInput) throws(PropertyListError) {
            if isDictionary {
                let keyBytes: Int
                if sharesKeys {
                    // Sibling keys: the key is in place, and its sibling passed duplicateKey.
                    dictionary.storedValues.append(consume value)
                    keyBytes = dictionary.storedKeys[position].utf8.count
                } else {
                    // The key moves into the dictionary (the frame's is empty until the next key).
                    var memberKey = ""
                    swap(&memberKey, &key)
                    keyBytes = memberKey.utf8.count
                    // duplicateKey: each key once (canonically equivalent spellings count as one).
                    guard dictionary.insertNew(consume value, forKey: consume memberKey, hashValue: keyHash) else {
                        let slot = references + position * input.referenceSize
                        throw PropertyListError(.duplicateKey, "key \"\(Self.keyText(at: slot, input: input))\" appears more than once", at: .byteOffset(slot))
                    }
                }
                // The key and the value, each a node one level down.
                self.base = ExpandedSize.add(self.base, ExpandedSize.node(depth: 1, payload: keyBytes))
                self.nodes = ExpandedSize.add(self.nodes, 1 &+ nodes)
            } else {
                elements.append(consume value)
                self.nodes = ExpandedSize.add(self.nodes, nodes)
            }
            self.base = ExpandedSize.add(self.base, ExpandedSize.placed(base: base, nodes: nodes, depth: 1))
            self.height = max(self.height, height)
            position += 1
            try input.checkExpansion(base: self.base, nodes: self.nodes, depth: depth - 1, at: start)
        }
    }

    /// Decodes object `index` found at container depth `depth` (0 for the top
    /// object): its value, expanded size, node count and container height.
    /// A shared object is decoded once and charged its expanded size again at
    /// every place it is used. Containers in progress are kept in `frames`; an
    /// error gets the key path from this object to where it happened.
    private mutating func decodeObject(_ index: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let first = try startLeaf(index, depth: depth)
        guard first.isContainer else { return first }
        // The container in progress is a local (no index to check per member);
        // its ancestors wait in `frames`, from `bottom` up.
        let bottom = frames.count
        var current = try open(index, depth: depth)
        while true {
            if current.position < current.count {
                // The next member: its key first (dictionaries), then its value.
                // The container's own checks are located at the container, the
                // member's at the member.
                let child: Int
                do { child = try nextMember(&current) } catch { throw located(error, in: current, atMember: false, from: bottom) }
                // A scalar goes straight into the container.
                let memberDepth = current.depth
                // Each decoded value is moved into its container, never copied
                // (a copy is a reference-count increment: an atomic operation,
                // measured 13% of decoding a 1.3 KB userInfo document).
                let scalar: Scalar
                do { scalar = try scalarMember(child, depth: memberDepth) } catch { throw located(error, in: current, atMember: true, from: bottom) }
                if !scalar.isContainer {
                    let base = scalar.base
                    do { try current.add((consume scalar).takeValue(), base: base, nodes: 1, height: 0, input: input) } catch {
                        throw located(error, in: current, atMember: false, from: bottom)
                    }
                    continue
                }
                let leaf: Decoded
                do { leaf = try startLeaf(child, depth: memberDepth) } catch { throw located(error, in: current, atMember: true, from: bottom) }
                if leaf.isContainer {
                    let opened: Frame
                    do { opened = try open(child, depth: memberDepth) } catch { throw located(error, in: current, atMember: true, from: bottom) }
                    frames.append(consume current)
                    current = opened
                } else {
                    do { try addMember(consume leaf, to: &current) } catch { throw located(error, in: current, atMember: false, from: bottom) }
                }
            } else {
                // The finished container is a member of its parent: its own
                // checks are located at that member.
                let decoded: Decoded
                do { decoded = try finish(consume current) } catch { throw located(error, from: bottom) }
                if frames.count == bottom { return decoded }
                current = frames.removeLast()
                do { try addMember(consume decoded, to: &current) } catch { throw located(error, in: current, atMember: false, from: bottom) }
            }
        }
    }

    /// `error` with the key path through the members in progress of the
    /// waiting frames from `bottom` up, then (`atMember`) `current`'s.
    private func located(_ error: PropertyListError, in current: borrowing Frame, atMember: Bool, from bottom: Int) -> PropertyListError {
        located(atMember ? error.inside(current.member) : error, from: bottom)
    }

    /// `error` with the key path through the members in progress of the
    /// waiting frames from `bottom` up.
    private func located(_ error: PropertyListError, from bottom: Int) -> PropertyListError {
        var error = error
        var level = frames.count - 1
        while level >= bottom {
            error = error.inside(frames[level].member)
            level -= 1
        }
        return error
    }

    /// Starts object `index` at container depth `depth`: a done object or a
    /// scalar is finished at once; ``Decoded/container`` for a container to
    /// ``open(_:depth:)``.
    @inline(__always)
    private mutating func startLeaf(_ index: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let shape = objects[fact: index]
        switch shape.state {
        case .done where shape.height > 0:
            // depthLimitExceeded: a shared container reused deeper than where it was first decoded
            // (located at its offset, read when it was decoded: this read cannot fail).
            guard depth + shape.height <= input.limits.maxDepth else {
                throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(input.limits.maxDepth)", at: .byteOffset(try input.objectOffset(index)))
            }
            let size = objects[measure: index]
            try input.checkExpansion(base: size, nodes: shape.nodes, depth: depth, ofDecoded: index)
            return Decoded(value: objects[value: index], base: size, nodes: shape.nodes, height: shape.height)
        case .inProgress:
            // cyclicReference: an object in progress is reached again (its offset was read when it opened).
            throw PropertyListError(.cyclicReference, "object \(index) contains itself", at: .byteOffset(try input.objectOffset(index)))
        default:
            let scalar = try scalarMember(index, depth: depth)
            guard !scalar.isContainer else { return .container }
            let base = scalar.base
            return Decoded(value: (consume scalar).takeValue(), base: base, nodes: 1, height: 0)
        }
    }

    /// A scalar member and its expanded size at relative depth 0, or
    /// ``Scalar/container`` for an object the general path handles (a
    /// container, or an object in progress: a cycle).
    struct Scalar {
        var value: PropertyListValue
        var base: Int
        static let container = Scalar(value: .bool(false), base: -1)
        var isContainer: Bool { base < 0 }
        /// The value, moved out.
        @inline(__always) consuming func takeValue() -> PropertyListValue { value }
    }

    /// Object `index` met at container depth `depth`, when it is a scalar:
    /// decoded and checked (expanded size where it is placed, then
    /// `unaccountedBytes`, as ``complete(_:at:end:_:depth:)`` checks a
    /// container), or taken again if done. A string or data value is kept in
    /// `values` from its second use on; any other scalar is never kept
    /// (``Shape/State/doneUnstored``).
    @inline(__always)
    private mutating func scalarMember(_ index: Int, depth: Int) throws(PropertyListError) -> Scalar {
        let shape = objects[fact: index]
        switch shape.state {
        case .done:
            guard shape.height == 0 else { return .container }
            let base = objects[measure: index]
            try input.checkExpansion(base: base, nodes: 1, depth: depth, ofDecoded: index)
            return Scalar(value: objects[value: index], base: base)
        case .doneUnstored:
            let start = try input.objectOffset(index)
            let (value, _) = try input.decodeScalar(at: start)
            guard Self.isKeptOnReuse(input.reader[start]) else {
                // A scalar without storage: a node with no payload.
                let base = ExpandedSize.node(depth: 0, payload: 0)
                try input.checkExpansion(base: base, nodes: 1, depth: depth, at: start)
                return Scalar(value: value, base: base)
            }
            // A string's or data's second use: kept from now on.
            let base = ExpandedSize.node(depth: 0, payload: value.payloadBytes)
            try input.checkExpansion(base: base, nodes: 1, depth: depth, at: start)
            keepAtSecondUse(index, value, base: base)
            return Scalar(value: value, base: base)
        case .inProgress:
            return .container
        case .unvisited:
            break
        }
        let start = try input.objectOffset(index)
        let marker = input.reader[start]
        guard !BinaryMarker.isContainer(marker) else { return .container }
        objects[fact: index].state = .inProgress
        let (value, end) = try input.decodeScalar(at: start)
        let payload = value.payloadBytes
        let base = ExpandedSize.node(depth: 0, payload: payload)
        try input.checkExpansion(base: base, nodes: 1, depth: depth, at: start)
        // unaccountedBytes: each object ends exactly where the next one (or the table) starts.
        let nextStart = index + 1 < input.objectCount ? try input.objectOffset(index + 1) : input.tableOffset
        guard end == nextStart else {
            throw PropertyListError(.unaccountedBytes, end < nextStart
                ? "\(nextStart - end) bytes after object \(index) belong to no object"
                : "object \(index) overlaps the next object or is out of table order", at: .byteOffset(end))
        }
        decodedCount += 1
        // Not kept: a scalar without storage is decoded again wherever it is
        // reused, and a string or data value at its second use, if it has one
        // (most have none: the value moves into its container uncopied).
        objects[fact: index].state = .doneUnstored
        return Scalar(value: value, base: base)
    }

    /// Keeps string or data object `index`, met for the second time and
    /// decoded again (`value`, measured `base` at relative depth 0), for every
    /// later use ("Sharing, time and memory": decoded at most twice).
    @inline(__always)
    private func keepAtSecondUse(_ index: Int, _ value: PropertyListValue, base: Int) {
        objects[measure: index] = base
        objects[fact: index] = Shape(state: .done, height: 0, nodes: 1)
        objects.fill(index, with: value)
    }

    /// True for the objects kept from their second use on: strings and data
    /// (every other scalar is decoded again at each use, from a few bytes).
    @inline(__always)
    private static func isKeptOnReuse(_ marker: UInt8) -> Bool {
        switch marker & 0xF0 {
        case BinaryMarker.asciiString.rawValue, BinaryMarker.utf16String.rawValue, BinaryMarker.data.rawValue: return true
        default: return false
        }
    }

    /// Opens the unvisited container `index` at container depth `depth`: its
    /// header checked, a frame for its members pushed onto `frames`.
    private mutating func open(_ index: Int, depth: Int) throws(PropertyListError) -> Frame {
        objects[fact: index].state = .inProgress
        let start = try input.objectOffset(index)
        let isDictionary = input.reader[start] & 0xF0 == BinaryMarker.dict.rawValue
        try input.checkDepth(depth + 1, at: start)
        let (count, references) = try input.readCount(at: start)
        try input.checkCollectionCount(count, at: start)
        try input.needReferences(count, at: references, for: start)
        if isDictionary {
            try input.needReferences(count, at: references + count * input.referenceSize, for: start)
        }
        var frame = Frame(index: index, start: start, depth: depth + 1, isDictionary: isDictionary, count: count, references: references)
        frame.reserveMembers(sharing: isDictionary ? siblingDictionary(depth: depth + 1, count: count, references: references) : nil)
        return frame
    }

    /// Sibling keys: when a dictionary's `count` key references at
    /// `references` are the same bytes as those of the last dictionary
    /// finished at frame depth `depth`, an empty dictionary holding that
    /// sibling's keys and index, with room for the values.
    @inline(__always)
    private func siblingDictionary(depth: Int, count: Int, references: Int) -> PropertyListDictionary? {
        guard depth < siblingKeys.count, siblingKeys[depth].count == count, count > 0 else { return nil }
        let length = count * input.referenceSize
        let sibling = siblingKeys[depth].references
        guard input.reader.bytes.extracting(references..<(references + length))
            .sameBytes(as: input.reader.bytes.extracting(sibling..<(sibling + length))) else { return nil }
        // Only the keys and index are taken from the sibling (borrowed: a copy
        // of the whole dictionary retains its values too).
        guard let keys = objects[value: siblingKeys[depth].object].sharedDictionaryKeys else {
            preconditionFailure("a finished dictionary is stored as one")
        }
        var values: [PropertyListValue] = []
        values.reserveCapacity(count)
        return PropertyListDictionary(storedKeys: keys.keys, storedValues: values, index: keys.index)
    }

    /// Reads the reference of `frame`'s member in progress, and for a
    /// dictionary decodes its key.
    @inline(__always)
    private mutating func nextMember(_ frame: inout Frame) throws(PropertyListError) -> Int {
        let slot = frame.references + frame.position * input.referenceSize
        guard frame.isDictionary else { return try input.reference(at: slot) }
        if !frame.sharesKeys {
            (frame.key, frame.keyHash) = try decodeKey(try input.reference(at: slot), hashed: frame.dictionary.isIndexed)
        }
        return try input.reference(at: slot + frame.count * input.referenceSize)
    }

    /// Adds a decoded member to `frame` and checks the container's size so far.
    @inline(__always)
    private func addMember(_ member: consuming Decoded, to frame: inout Frame) throws(PropertyListError) {
        let (base, nodes, height) = (member.base, member.nodes, member.height)
        try frame.add((consume member).takeValue(), base: base, nodes: nodes, height: height, input: input)
    }

    /// The value of a container whose members are all decoded, checked and
    /// stored; its frame, popped, is consumed.
    @inline(__always)
    private mutating func finish(_ frame: consuming Frame) throws(PropertyListError) -> Decoded {
        let width = frame.isDictionary ? 2 : 1
        let end = frame.references + width * frame.count * input.referenceSize
        let index = frame.index, start = frame.start, depth = frame.depth - 1
        if frame.isDictionary && !frame.sharesKeys && frame.count > 0 {
            // Sibling keys: the next dictionary at this depth may share these.
            let sibling = SiblingKeys(references: frame.references, count: frame.count, object: index)
            if frame.depth < siblingKeys.count {
                siblingKeys[frame.depth] = sibling
            } else {
                while siblingKeys.count < frame.depth { siblingKeys.append(SiblingKeys(references: 0, count: 0, object: 0)) }
                siblingKeys.append(sibling)
            }
        }
        // The members are moved out of the frame, not copied (a copy retains
        // them, and the frame's end releases them again).
        let value: PropertyListValue
        if frame.isDictionary {
            var dictionary = PropertyListDictionary()
            swap(&dictionary, &frame.dictionary)
            value = .dictionary(consume dictionary)
        } else {
            var elements: [PropertyListValue] = []
            swap(&elements, &frame.elements)
            value = .array(consume elements)
        }
        let decoded = Decoded(value: value, base: frame.base, nodes: frame.nodes, height: frame.height + 1)
        try complete(index, at: start, end: end, decoded, depth: depth)
        return decoded
    }

    /// Checks a decoded object's size where it is placed and that it ends where
    /// the next object starts, then stores it.
    @inline(__always)
    private mutating func complete(_ index: Int, at start: Int, end: Int, _ decoded: consuming Decoded, depth: Int) throws(PropertyListError) {
        try input.checkExpansion(base: decoded.base, nodes: decoded.nodes, depth: depth, at: start)
        // unaccountedBytes: each object ends exactly where the next one (or the table) starts.
        let nextStart = index + 1 < input.objectCount ? try input.objectOffset(index + 1) : input.tableOffset
        guard end == nextStart else {
            throw PropertyListError(.unaccountedBytes, end < nextStart
                ? "\(nextStart - end) bytes after object \(index) belong to no object"
                : "object \(index) overlaps the next object or is out of table order", at: .byteOffset(end))
        }
        objects[measure: index] = decoded.base
        objects[fact: index] = Shape(state: .done, height: decoded.height, nodes: decoded.nodes)
        objects.fill(index, with: (consume decoded).takeValue())
        decodedCount += 1
    }

    /// Decodes object `index` as a dictionary key; with `hashed`, also
    /// returns its `hashValue`.
    ///
    /// Keys already met are taken from `recentKeys`, a small direct-mapped cache
    /// by object index: the dictionaries of a file share a few key objects
    /// (Apple's writers store each distinct string once), so most keys are
    /// decoded and hashed once per document instead of once per entry.
    private mutating func decodeKey(_ index: Int, hashed: Bool) throws(PropertyListError) -> (String, hash: Int?) {
        // The key is kept here as well as in `values`: reading it back from
        // `values` (state check, enum copy) measured 15% slower on library.bplist.
        let slot = index & (recentKeys.count &- 1)
        if !recentKeys.isEmpty, recentKeys[slot].object == index {
            guard hashed else { return (recentKeys[slot].key, nil) }
            if let hash = recentKeys[slot].hash { return (recentKeys[slot].key, hash) }
            let hash = recentKeys[slot].key.hashValue
            recentKeys[slot].hash = hash
            return (recentKeys[slot].key, hash)
        }
        let offset = try input.objectOffset(index)
        // nonStringKey: keys are ASCII or UTF-16 strings.
        guard BinaryMarker.isString(input.reader[offset]) else {
            throw PropertyListError(.nonStringKey, "dictionary key is not a string (marker 0x\(Hex.upper(input.reader[offset])))", at: .byteOffset(offset))
        }
        // A key is a string object: checked like any other when first decoded,
        // and decoded at most twice (a string is never in progress, and its
        // size at depth 0 was checked when it was first decoded).
        let key: String
        let state = objects[fact: index].state
        if state == .done {
            guard case .string(let decoded) = objects[value: index] else { preconditionFailure("a string marker decoded to something else") }
            key = decoded
        } else if state == .doneUnstored {
            // Met before as a value, not kept: its second use decodes it again
            // (checked already) and keeps it.
            key = try input.decodeString(at: offset).0
            keepAtSecondUse(index, .string(key), base: ExpandedSize.node(depth: 0, payload: key.utf8.count))
        } else {
            let end: Int
            (key, end) = try input.decodeString(at: offset)
            objects[fact: index].state = .inProgress
            // The object table's copy is the only one made (one retain).
            try complete(index, at: offset, end: end,
                         Decoded(value: .string(key), base: ExpandedSize.node(depth: 0, payload: key.utf8.count), nodes: 1, height: 0), depth: 0)
            // A key met for the first time is not cached: only a key object
            // that serves a second dictionary is (measured: caching every key
            // cost 7% on settings.bplist, whose keys are all distinct).
            return (key, hashed ? key.hashValue : nil)
        }
        let hash = hashed ? key.hashValue : nil
        // Small documents are decoded without the cache: it would cost more to
        // set up than the few repeated keys they can have save.
        guard input.objectCount >= Self.recentKeysMinimumObjects else { return (key, hash) }
        if recentKeys.isEmpty {
            recentKeys = Array(repeating: RecentKey(object: -1, key: "", hash: nil), count: Self.recentKeysSize)
        }
        recentKeys[index & (Self.recentKeysSize - 1)] = RecentKey(object: index, key: key, hash: hash)
        return (key, hash)
    }

}

extension PropertyListValue {
    /// A dictionary's keys and index (``StringKeyedDictionary/sharedKeys``),
    /// read in place: nil for any other value.
    @inline(__always)
    fileprivate var sharedDictionaryKeys: SharedDictionaryKeys? {
        guard case .dictionary(let dictionary) = self else { return nil }
        return dictionary.sharedKeys
    }
}
