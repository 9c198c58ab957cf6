#if canImport(Glibc)
import Glibc
#endif
// Structure-aware mutation of binary property lists (Specs/fuzzing.md,
// "Structure-aware mutation"): libFuzzer's byte mutations rarely keep a
// bplist's offset table and trailer consistent, so most mutants stop at the
// trailer checks and never reach the object graph. This mutator takes the
// document apart into its objects, changes the graph (an object's bytes, a
// reference, a shared or cyclic reference, a new scalar, the top object, two
// objects swapped, a copy), and writes offset table and trailer anew; one
// mutant in eight is libFuzzer's own byte mutation, so broken tables are
// still tried.

@_silgen_name("LLVMFuzzerMutate")
private func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// The mutator of the binary targets (inputs: one options byte, then a bplist).
public enum BinaryPlistMutator {
    /// `FUZZ_PLAIN_MUTATION=1` turns it off (every mutant is libFuzzer's own),
    /// for comparing the two in the same CPU time.
    static let plainOnly = getenv("FUZZ_PLAIN_MUTATION").map { String(cString: $0) == "1" } ?? false

    /// A bplist taken apart: its objects in table order, its reference width and top object.
    struct Document {
        var objects: [[UInt8]]
        var referenceSize: Int
        var top: Int
    }

    /// `LLVMFuzzerCustomMutator`'s body: mutates the input at `data` in place.
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
        var random = Random(seed: UInt64(seed))
        guard !plainOnly, size >= 2, random.next(8) != 0 else { return LLVMFuzzerMutate(data, size, maxSize) }
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        guard var document = parse(input[1...]) else { return LLVMFuzzerMutate(data, size, maxSize) }
        mutate(&document, &random)
        let output = [input[0]] + serialize(document)
        guard output.count <= maxSize else { return LLVMFuzzerMutate(data, size, maxSize) }
        output.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: output.count) }
        return output.count
    }

    /// One change to the object graph, chosen by `random`.
    static func mutate(_ document: inout Document, _ random: inout Random) {
        let count = document.objects.count
        let canGrow = document.referenceSize >= 8 || count + 1 < 1 << (8 * document.referenceSize)
        switch random.next(7) {
        case 0:
            // An object's bytes, through libFuzzer's byte mutations.
            let index = random.next(count)
            var bytes = document.objects[index] + [UInt8](repeating: 0, count: 32)
            let size = bytes.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress!, $0.count - 32, $0.count) }
            document.objects[index] = Array(bytes.prefix(max(size, 1)))
        case 1:
            // A reference to another object: sharing, or a cycle.
            setRandomReference(in: &document, to: random.next(count), &random)
        case 2 where canGrow:
            // A copy of an object, referred to from a container.
            document.objects.append(document.objects[random.next(count)])
            setRandomReference(in: &document, to: count, &random)
        case 3 where canGrow:
            // A new scalar, referred to from a container (or the new top).
            document.objects.append(interestingScalars[random.next(interestingScalars.count)])
            if !setRandomReference(in: &document, to: count, &random) { document.top = count }
        case 4:
            // Two objects swapped (their references stay: the graph changes shape).
            document.objects.swapAt(random.next(count), random.next(count))
        case 5:
            document.top = random.next(count)
        default:
            // A container's member count changed by one, its references following.
            let containers = (0..<count).filter { references(of: document.objects[$0], referenceSize: document.referenceSize) != nil }
            guard let index = containers.isEmpty ? nil : containers[random.next(containers.count)] else { return }
            var object = document.objects[index]
            let marker = object[0]
            guard marker & 0x0F < 0x0E, marker >> 4 != 0xD else { return }
            if random.next(2) == 0, marker & 0x0F > 0 {
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
    static func setRandomReference(in document: inout Document, to target: Int, _ random: inout Random) -> Bool {
        let containers = (0..<document.objects.count).compactMap { index in
            references(of: document.objects[index], referenceSize: document.referenceSize).flatMap { $0.count > 0 ? (index, $0) : nil }
        }
        guard !containers.isEmpty else { return false }
        let (index, list) = containers[random.next(containers.count)]
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

    // MARK: Reading and writing the layout

    /// The document's objects in table order, when its header, trailer and
    /// offset table are consistent and the objects lie in order; else nil.
    static func parse(_ slice: ArraySlice<UInt8>) -> Document? {
        let bytes = Array(slice)
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
        let objects = (0..<count).map { Array(bytes[offsets[$0]..<offsets[$0 + 1]]) }
        return Document(objects: objects, referenceSize: referenceSize, top: top)
    }

    /// The document written out: header, objects, the narrowest offset table, trailer.
    static func serialize(_ document: Document) -> [UInt8] {
        var output = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in document.objects {
            offsets.append(output.count)
            output += object
        }
        let table = output.count
        var offsetSize = 1
        while offsetSize < 8, table >= 1 << (8 * offsetSize) { offsetSize += 1 }
        for offset in offsets { output += bigEndian(offset, width: offsetSize) }
        output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(document.referenceSize)]
        output += bigEndian(document.objects.count, width: 8) + bigEndian(document.top, width: 8) + bigEndian(table, width: 8)
        return output
    }

    static func bigEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A small generator (SplitMix64) seeded by libFuzzer's seed.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int(z % UInt64(max(bound, 1)))
        }
    }
}
