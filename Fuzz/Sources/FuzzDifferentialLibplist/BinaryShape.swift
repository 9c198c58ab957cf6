// The objects libplist 2.2's binary reader (`plist_from_bin`, src/bplist.c)
// would walk, worked out without calling it (Specs/fuzzing.md, "Differential
// fuzzing against libplist"). libplist parses a shared object again at every
// place it is referenced and has no limits, so a 200-byte document of arrays
// that each refer twice to the next one makes it build 2^n nodes: it must not
// be handed such a document. This mirror follows libplist's own reading of
// the trailer, the offset table, the extended counts and the references (not
// ours), conservatively (every reference libplist could follow is counted),
// and says whether the tree libplist would build is small and acyclic.
struct BinaryShape {
    let bytes: [UInt8]
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let rootObject: Int
    let tableOffset: Int

    /// What libplist reads of one object.
    struct Object {
        var offset: Int
        /// The marker's high nibble (0x60 = UTF-16 string, …).
        var type: UInt8
        /// The count libplist reads (the marker's nibble, or the extended count).
        var count: UInt64
        /// References libplist would follow, in its order (for a dictionary:
        /// key, value, key, value, …), up to the first it would refuse.
        var children: [Int]
        /// Bytes it copies for a string or data.
        var payload: Int
        /// Where the object's bytes end as libplist reads them (at most the table).
        var end: Int
    }

    /// The tree libplist would build from the top object.
    struct Walk {
        /// A reference cycle reachable from the top object (libplist refuses
        /// it when it meets it, but may first walk every path to it).
        var cyclic = false
        /// Nodes (64 each) plus copied bytes of the tree, shared objects once
        /// per place; saturates just above `maxWeight`.
        var weight = 0
        /// Nesting of the tree (libplist's recursion check is linear in it per node).
        var height = 0
        /// Objects the walk reaches (meaningful when not cyclic).
        var reached: [Bool] = []
    }

    static let maxWeight = 16 << 20
    static let maxHeight = 512

    /// Nil when libplist's trailer checks refuse the document before reading
    /// any object (so handing it to libplist is safe: it returns at once).
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let end = bytes.count - 32
        func bigEndian64(_ at: Int) -> UInt64 { bytes[at..<(at + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
        let offsetSize = Int(bytes[end + 6]), referenceSize = Int(bytes[end + 7])
        let count = bigEndian64(end + 8), root = bigEndian64(end + 16), table = bigEndian64(end + 24)
        guard count > 0, offsetSize > 0, referenceSize > 0, root < count else { return nil }
        guard table >= 8, table < UInt64(end) else { return nil }
        let (tableSize, overflow) = count.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, tableSize <= UInt64(end) - table else { return nil }
        self.bytes = bytes
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(count)
        self.rootObject = Int(root)
        self.tableOffset = Int(table)
    }

    /// libplist's `UINT_TO_HOST(x, n)`: n ≥ 8 reads the last 8 bytes, 1, 2 and
    /// 4 read n bytes, 3, 5, 6, 7 the first n bytes (of an 8-byte load), big-endian.
    func unsigned(at position: Int, width: Int) -> UInt64? {
        let start = width >= 8 ? position + width - 8 : position
        let length = min(width, 8)
        guard position >= 0, start >= 0, start + length <= bytes.count else { return nil }
        return bytes[start..<(start + length)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Where libplist reads object `index`, or nil if it refuses the offset.
    func offset(of index: Int) -> Int? {
        guard index >= 0, index < objectCount,
              let offset = unsigned(at: tableOffset + index * offsetSize, width: offsetSize),
              offset < UInt64(tableOffset) else { return nil }
        return Int(offset)
    }

    /// Object `index` as libplist's `parse_bin_node` reads it, or nil where it refuses.
    func object(_ index: Int) -> Object? {
        guard let offset = offset(of: index) else { return nil }
        var position = offset
        let marker = bytes[position]
        let type = marker & 0xF0
        var count = UInt64(marker & 0x0F)
        position += 1
        if count == 0xF, [0x40, 0x50, 0x60, 0xA0, 0xC0, 0xD0].contains(type) {
            guard position < bytes.count, bytes[position] & 0xF0 == 0x10 else { return nil }
            let width = 1 << Int(bytes[position] & 0x0F)
            position += 1
            guard position + width <= tableOffset, let extended = unsigned(at: position, width: width) else { return nil }
            count = extended
            position += width
        }
        let room = UInt64(tableOffset - position)
        var object = Object(offset: offset, type: type, count: count, children: [], payload: 0, end: position)
        switch type {
        case 0xA0, 0xC0, 0xD0:  // array, set (read as an array), dictionary
            guard count <= room else { return nil }
            let members = Int(count)
            let slots = type == 0xD0 ? 2 : 1
            object.end = min(position + members * slots * referenceSize, tableOffset)
            references: for member in 0..<members {
                for slot in 0..<slots {
                    let at = position + (member + slot * members) * referenceSize
                    guard at + referenceSize <= tableOffset,
                          let reference = unsigned(at: at, width: referenceSize), reference < UInt64(objectCount) else { break references }
                    object.children.append(Int(reference))
                }
            }
        case 0x40, 0x50:
            object.payload = Int(min(count, room))
            object.end = position + object.payload
        case 0x60:
            object.payload = Int(min(count, room / 2)) * 2
            object.end = position + object.payload
        case 0x10, 0x20:  // integer, real: 2^n bytes
            object.end = min(position + (1 << min(Int(count), 15)), tableOffset)
        case 0x30:  // date: 8 bytes
            object.end = min(position + 8, tableOffset)
        case 0x80:  // UID: n + 1 bytes
            object.end = min(position + Int(count) + 1, tableOffset)
        default:
            break
        }
        return object
    }

    /// The walk from the top object, with every object's children read once.
    func walk() -> Walk {
        var walk = Walk(reached: [Bool](repeating: false, count: objectCount))
        var state = [UInt8](repeating: 0, count: objectCount)  // 0 new, 1 on the path, 2 done
        var weight = [Int](repeating: 0, count: objectCount)
        var height = [Int](repeating: 0, count: objectCount)
        var objects = [Object?](repeating: nil, count: objectCount)
        var stack: [(index: Int, next: Int)] = [(rootObject, 0)]
        state[rootObject] = 1
        objects[rootObject] = object(rootObject)
        while let top = stack.last {
            let children = objects[top.index]?.children ?? []
            if top.next < children.count {
                stack[stack.count - 1].next += 1
                let child = children[top.next]
                switch state[child] {
                case 1:
                    walk.cyclic = true
                    return walk
                case 0:
                    state[child] = 1
                    objects[child] = object(child)
                    stack.append((child, 0))
                default:
                    break
                }
            } else {
                var total = 64 + (objects[top.index]?.payload ?? 0)
                var tallest = 0
                for child in children {
                    total = min(total + weight[child], Self.maxWeight + 1)
                    tallest = max(tallest, height[child])
                }
                weight[top.index] = total
                height[top.index] = tallest + 1
                state[top.index] = 2
                walk.reached[top.index] = true
                stack.removeLast()
            }
        }
        walk.weight = weight[rootObject]
        walk.height = height[rootObject]
        return walk
    }

    /// The objects whose bytes, as libplist would read them, hold `position`.
    /// An object libplist refuses to read (it cannot be reached in a document
    /// libplist accepts) is taken to run to the table.
    func objects(holding position: Int) -> [Int] {
        (0..<objectCount).filter { index in
            guard let start = offset(of: index) else { return false }
            let end = object(index).map { max($0.end, start + 1) } ?? tableOffset
            return start <= position && position < end
        }
    }
}
