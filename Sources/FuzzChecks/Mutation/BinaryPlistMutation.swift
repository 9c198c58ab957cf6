/// Structure-aware mutation of binary property lists (Specs/fuzzing.md,
/// "Structure-aware mutation"): the document taken apart into its objects,
/// one change to the graph (an object's bytes, a reference pointed at another
/// object — a shared object, a cycle —, a copy, a new scalar, two objects
/// swapped, another top object, a member more or fewer), and the offset
/// table (narrowest offsets) and trailer written anew.
enum BinaryPlistMutation {
    /// A bplist taken apart: its objects in table order, its reference width and top object.
    struct Document: Equatable {
        var objects: [[UInt8]]
        var referenceSize: Int
        var top: Int

        /// The document's objects in table order, when its header, trailer and
        /// offset table are consistent and the objects lie in order; else nil.
        init?(parsing bytes: [UInt8]) {
            guard bytes.count >= 42, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
            let trailer = bytes.count - 32
            let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else { return nil }
            func load(_ at: Int, _ width: Int) -> Int? {
                guard at >= 0, at + width <= bytes.count else { return nil }
                let value = bytes[at..<(at + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                return value < 1 << 40 ? Int(value) : nil
            }
            guard let count = load(trailer + 8, 8), let top = load(trailer + 16, 8), let table = load(trailer + 24, 8),
                  count >= 1, count <= 8192, top < count, table > 8, table + count * offsetSize == trailer else { return nil }
            var offsets: [Int] = []
            for index in 0..<count {
                guard let offset = load(table + index * offsetSize, offsetSize) else { return nil }
                offsets.append(offset)
            }
            offsets.append(table)
            guard offsets[0] == 8, zip(offsets, offsets.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
            objects = (0..<count).map { Array(bytes[offsets[$0]..<offsets[$0 + 1]]) }
            self.referenceSize = referenceSize
            self.top = top
        }

        /// The document written out: header, objects, the narrowest offset table, trailer.
        func serialized() -> [UInt8] {
            var output = Array("bplist00".utf8)
            var offsets: [Int] = []
            for object in objects {
                offsets.append(output.count)
                output += object
            }
            let table = output.count
            var offsetSize = 1
            while offsetSize < 8, table >= 1 << (8 * offsetSize) { offsetSize += 1 }
            for offset in offsets { output += bigEndian(offset, width: offsetSize) }
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            output += bigEndian(objects.count, width: 8) + bigEndian(top, width: 8) + bigEndian(table, width: 8)
            return output
        }
    }

    /// One change to the object graph, chosen by `random`.
    static func mutate(_ document: inout Document, _ random: inout SplitMix, _ mutateBytes: StructureAwareMutation.ByteMutation) {
        let count = document.objects.count
        let canGrow = document.referenceSize >= 8 || count + 1 < 1 << (8 * document.referenceSize)
        switch random.next(7) {
        case 0:
            // An object's bytes, through libFuzzer's byte mutations.
            let index = random.next(count)
            document.objects[index] = mutatedPart(document.objects[index], limit: document.objects[index].count + 32, mutateBytes)
        case 1:
            // A reference to another object: sharing, or a cycle.
            setRandomReference(in: &document, to: random.next(count), &random)
        case 2 where canGrow:
            // A copy of an object, referred to from a container.
            document.objects.append(document.objects[random.next(count)])
            setRandomReference(in: &document, to: count, &random)
        case 3 where canGrow:
            // A new scalar, referred to from a container (or the new top).
            document.objects.append(random.pick(interestingScalars))
            if !setRandomReference(in: &document, to: count, &random) { document.top = count }
        case 4:
            // Two objects swapped (their references stay: the graph changes shape).
            document.objects.swapAt(random.next(count), random.next(count))
        case 5:
            document.top = random.next(count)
        default:
            // A container's member count changed by one, its references following.
            let containers = (0..<count).filter { references(of: document.objects[$0], referenceSize: document.referenceSize) != nil }
            guard !containers.isEmpty else { return }
            let index = random.pick(containers)
            var object = document.objects[index]
            let marker = object[0]
            guard marker & 0x0F < 0x0E, marker >> 4 != 0xD else { return }
            if random.oneIn(2), marker & 0x0F > 0 {
                object[0] = marker - 1
                object.removeLast(document.referenceSize)
            } else {
                object[0] = marker + 1
                object += bigEndian(random.next(count), width: document.referenceSize)
            }
            document.objects[index] = object
        }
    }

    /// Points a random reference of a random container at `target`; false when there is no container.
    @discardableResult
    static func setRandomReference(in document: inout Document, to target: Int, _ random: inout SplitMix) -> Bool {
        let containers = (0..<document.objects.count).compactMap { index in
            references(of: document.objects[index], referenceSize: document.referenceSize).flatMap { $0.count > 0 ? (index, $0) : nil }
        }
        guard !containers.isEmpty else { return false }
        let (index, list) = random.pick(containers)
        let at = list.start + random.next(list.count) * document.referenceSize
        document.objects[index].replaceSubrange(at..<(at + document.referenceSize), with: bigEndian(target, width: document.referenceSize))
        return true
    }

    /// Where a container's references start and how many there are (a
    /// dictionary's keys and values); nil for a scalar or a malformed header.
    static func references(of object: [UInt8], referenceSize: Int) -> (start: Int, count: Int)? {
        guard let marker = object.first, [0xA, 0xC, 0xD].contains(marker >> 4) else { return nil }
        var count = Int(marker & 0x0F), start = 1
        if count == 0x0F {
            guard object.count >= 2, object[1] >> 4 == 1, object[1] & 0x0F <= 2 else { return nil }
            let width = 1 << Int(object[1] & 0x0F)
            guard object.count >= 2 + width else { return nil }
            count = object[2..<(2 + width)].reduce(0) { $0 << 8 | Int($1) }
            start = 2 + width
        }
        let total = marker >> 4 == 0xD ? 2 * count : count
        guard start + total * referenceSize <= object.count else { return nil }
        return (start, total)
    }

    /// Scalars the graph mutations add: integers of every width and sign,
    /// reals, dates, strings (with a lone surrogate), data, booleans, null, a UID.
    static let interestingScalars: [[UInt8]] = [
        [0x08], [0x09], [0x00],
        [0x10, 0xFF], [0x11, 0x80, 0x00], [0x12, 0xFF, 0xFF, 0xFF, 0xFF], [0x13] + bigEndian(-1, width: 8),
        [0x14] + [UInt8](repeating: 0xFF, count: 16),
        [0x22, 0x7F, 0xC0, 0x00, 0x00], [0x23, 0x7F, 0xF0, 0, 0, 0, 0, 0, 0],
        [0x33, 0xC1, 0xE0, 0, 0, 0, 0, 0, 0], [0x33, 0x41, 0xE0, 0, 0, 0, 0, 0, 0],
        [0x50], [0x53, 0x6B, 0x65, 0x79], [0x61, 0xD8, 0x00], [0x62, 0xD8, 0x3D, 0xDE, 0x00],
        [0x40], [0x43, 0x01, 0x02, 0x03], [0x80, 0x01], [0xA0], [0xD0],
    ]
}

/// `value`'s low `width` bytes, most significant first.
func bigEndian(_ value: Int, width: Int) -> [UInt8] {
    (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
