/// Structure-aware mutation of MP userInfo (Specs/fuzzing.md,
/// "Structure-aware mutation"): the value after the 4-byte header taken apart
/// by its markers into a tree, one change to the tree (a leaf's bytes, a copy
/// of another value — a deeper nesting when it is an ancestor —, a member
/// added from a list of edge values and keys, a member removed, two values
/// swapped, a value wrapped in an array, a set, a URL or a map, a container
/// replaced by a member, a wider length form), and the tree written anew with
/// every length and count recomputed; one mutation in ten breaks the bytes on
/// purpose (a count or length wrong, a value's marker replaced, the header's
/// version bytes, the bytes cut short).
enum MPMutation {
    /// An MP value taken apart. Lengths and counts are not kept: they are
    /// written from the members; the marker a value was read in is kept as the
    /// form to write it in, when that form can hold it.
    indirect enum Node: Equatable {
        /// A value of fixed size, marker included: nil, booleans, numbers, fixext, ext16/32.
        case scalar([UInt8])
        case string([UInt8], marker: UInt8)
        case binary([UInt8], marker: UInt8)
        case array([Node], marker: UInt8)
        /// Keys and values alternating.
        case map([Node], marker: UInt8)
        /// `C7 type size`, its `size` bytes, then the values its type takes
        /// (a set: its array; a URL with a base: base and string; a URL: its string).
        case ext(header: [UInt8], [Node])

        var members: [Node] {
            switch self {
            case .array(let members, _), .map(let members, _), .ext(_, let members): members
            default: []
            }
        }

        func replacingMembers(_ members: [Node]) -> Node {
            switch self {
            case .array(_, let marker): .array(members, marker: marker)
            case .map(_, let marker): .map(members, marker: marker)
            case .ext(let header, _): .ext(header: header, members)
            default: self
            }
        }
    }

    /// A tree position: the member indices from the top value.
    typealias Path = [Int]

    static func mutate(_ document: [UInt8], _ random: inout SplitMix, _ mutateBytes: StructureAwareMutation.ByteMutation) -> [UInt8]? {
        guard document.count >= 5 else { return nil }
        var parser = Parser(bytes: document, at: 4)
        guard let top = parser.node(depth: 0) else { return nil }
        let trailing = Array(document[parser.at...])
        var tree = top
        let paths = allPaths(tree)
        var broken: Path?
        switch random.next(10) {
        case 0:
            // A leaf's bytes (a string's or data's length follows; a scalar keeps its size).
            let leaves = paths.filter { tree[$0].members.isEmpty }
            let path = random.pick(leaves)
            switch tree[path] {
            case .string(let bytes, let marker): tree[path] = .string(mutatedPart(bytes, limit: bytes.count + 64, mutateBytes), marker: marker)
            case .binary(let bytes, let marker): tree[path] = .binary(mutatedPart(bytes, limit: bytes.count + 64, mutateBytes), marker: marker)
            case .scalar(let bytes) where bytes.count > 1:
                let payload = mutatedPart(Array(bytes.dropFirst()), limit: bytes.count - 1, mutateBytes)
                tree[path] = .scalar([bytes[0]] + (payload + [UInt8](repeating: 0, count: bytes.count)).prefix(bytes.count - 1))
            default: tree[path] = .scalar([random.pick([0x00, 0x7F, 0xE0, 0xFF, 0xC0, 0xC2, 0xC3] as [UInt8])])
            }
        case 1:
            // A copy of another value (of an ancestor: one more level of nesting).
            tree[random.pick(paths)] = tree[random.pick(paths)]
        case 2:
            // A member added: an edge value, or in a map under an edge key (a duplicate, a canonically equal one).
            let containers = paths.filter { if case .array = tree[$0] { true } else if case .map = tree[$0] { true } else { false } }
            guard !containers.isEmpty else { return nil }
            let path = random.pick(containers)
            var members = tree[path].members
            let value = random.oneIn(3) ? tree[random.pick(paths)] : random.pick(edgeValues)
            if case .map = tree[path] {
                let existing = stride(from: 0, to: members.count, by: 2).map { members[$0] }
                let key = !existing.isEmpty && random.oneIn(3) ? random.pick(existing) : random.pick(edgeKeys)
                let at = 2 * random.next(members.count / 2 + 1)
                members.insert(contentsOf: [key, value], at: at)
            } else {
                members.insert(value, at: random.next(members.count + 1))
            }
            tree[path] = tree[path].replacingMembers(members)
        case 3:
            // A member removed (a map's key and value together).
            let containers = paths.filter { !tree[$0].members.isEmpty }
            guard !containers.isEmpty else { return nil }
            let path = random.pick(containers)
            var members = tree[path].members
            if case .map = tree[path] {
                let pair = random.next(members.count / 2) * 2
                members.removeSubrange(pair..<min(pair + 2, members.count))
            } else {
                members.remove(at: random.next(members.count))
            }
            tree[path] = tree[path].replacingMembers(members)
        case 4:
            // Two values swapped (when neither holds the other).
            let first = random.pick(paths), second = random.pick(paths)
            guard !first.starts(with: second), !second.starts(with: first) else { return nil }
            let held = tree[first]
            tree[first] = tree[second]
            tree[second] = held
        case 5:
            // A value wrapped: in an array, a set, a map, or (a string) a URL.
            let path = random.pick(paths)
            let value = tree[path]
            switch random.next(4) {
            case 0: tree[path] = .array([value], marker: 0x90)
            case 1: tree[path] = .ext(header: [0xC7, 0x00, 0x02], [.array([value, value], marker: 0x90)])
            case 2: tree[path] = .map([random.pick(edgeKeys), value], marker: 0x80)
            default:
                if case .string = value {
                    tree[path] = random.oneIn(2) ? .ext(header: [0xC7, 0x00, 0x05], [value])
                        : .ext(header: [0xC7, 0x00, 0x04], [.ext(header: [0xC7, 0x00, 0x05], [.string(Array("https://example.com/a/".utf8), marker: 0xA0)]), value])
                } else {
                    tree[path] = .ext(header: [0xC7, 0x00, 0x02], [value])
                }
            }
        case 6:
            // A container replaced by one of its members (a level less).
            let containers = paths.filter { !$0.isEmpty && !tree[$0].members.isEmpty }
            guard !containers.isEmpty else { return nil }
            let path = random.pick(containers)
            tree[path] = random.pick(tree[path].members)
        case 7:
            // A wider length form than the smallest (every form must read).
            let path = random.pick(paths)
            switch tree[path] {
            case .string(let bytes, _): tree[path] = .string(bytes, marker: random.pick([0xD9, 0xDA, 0xDB] as [UInt8]))
            case .binary(let bytes, _): tree[path] = .binary(bytes, marker: random.pick([0xC5, 0xC6] as [UInt8]))
            case .array(let members, _): tree[path] = .array(members, marker: random.pick([0xDC, 0xDD] as [UInt8]))
            case .map(let members, _): tree[path] = .map(members, marker: random.pick([0xDE, 0xDF] as [UInt8]))
            default: return nil
            }
        case 8:
            // Broken on purpose: a count or length (one off, or huge), a marker, the header, the end.
            switch random.next(4) {
            case 0: broken = random.pick(paths)
            case 1:
                var output = Array(document[0..<4])
                write(tree, at: [], broken: nil, random: &random, into: &output)
                let cut = 4 + random.next(max(output.count - 4, 1))
                return Array(output[..<cut])
            case 2:
                var output = document
                output[2 + random.next(2)] = UInt8(truncatingIfNeeded: random.next(256))
                return output
            default:
                let path = random.pick(paths)
                var bytes: [UInt8] = []
                write(tree[path], at: [], broken: nil, random: &random, into: &bytes)
                bytes[0] = random.pick(confusingMarkers)
                tree[path] = .scalar(bytes)
            }
        default:
            // A whole value from the list of edge values in place of another.
            tree[random.pick(paths)] = random.pick(edgeValues)
        }
        var output = Array(document[0..<4])
        write(tree, at: [], broken: broken, random: &random, into: &output)
        return output + trailing
    }

    /// Every position in the tree, the top value's first.
    static func allPaths(_ tree: Node) -> [Path] {
        var paths: [Path] = [], stack: [Path] = [[]]
        while let path = stack.popLast(), paths.count < 4096 {
            paths.append(path)
            for index in tree[path].members.indices.reversed() { stack.append(path + [index]) }
        }
        return paths
    }

    // MARK: Writing

    static func write(_ node: Node, at path: Path, broken: Path?, random: inout SplitMix, into output: inout [UInt8]) {
        func count(_ actual: Int) -> Int {
            guard path == broken else { return actual }
            return random.pick([actual + 1, max(actual - 1, 0), 0xFFFF, Int(UInt32.max)])
        }
        switch node {
        case .scalar(let bytes):
            output += bytes
        case .string(let bytes, let marker):
            header(count(bytes.count), marker: marker, forms: (0xA0, 31, [0xD9, 0xDA, 0xDB]), into: &output)
            output += bytes
        case .binary(let bytes, let marker):
            header(count(bytes.count), marker: marker, forms: (nil, 0, [0xC4, 0xC5, 0xC6]), into: &output)
            output += bytes
        case .array(let members, let marker):
            header(count(members.count), marker: marker, forms: (0x90, 15, [nil, 0xDC, 0xDD]), into: &output)
            for (index, member) in members.enumerated() { write(member, at: path + [index], broken: broken, random: &random, into: &output) }
        case .map(let members, let marker):
            header(count(members.count / 2), marker: marker, forms: (0x80, 15, [nil, 0xDE, 0xDF]), into: &output)
            for (index, member) in members.enumerated() { write(member, at: path + [index], broken: broken, random: &random, into: &output) }
        case .ext(let header, let members):
            output += header
            for (index, member) in members.enumerated() { write(member, at: path + [index], broken: broken, random: &random, into: &output) }
        }
    }

    /// A length header: `marker`'s form when it holds `count`, else the smallest
    /// (a fix form up to `fixMax`, then the 8-, 16- and 32-bit forms).
    static func header(_ count: Int, marker: UInt8, forms: (fix: UInt8?, fixMax: Int, sized: [UInt8?]), into output: inout [UInt8]) {
        let widths = [1, 2, 4]
        if let fix = forms.fix, marker & (fix == 0xA0 ? 0xE0 : 0xF0) == fix, count <= forms.fixMax {
            output.append(fix | UInt8(count)); return
        }
        if let index = forms.sized.firstIndex(of: marker), count < 1 << (8 * widths[index]) {
            output.append(marker); output += bigEndian(count, width: widths[index]); return
        }
        if let fix = forms.fix, count <= forms.fixMax { output.append(fix | UInt8(count)); return }
        for (index, form) in forms.sized.enumerated() {
            guard let form, count < 1 << (8 * widths[index]) || index == 2 else { continue }
            output.append(form); output += bigEndian(count, width: widths[index]); return
        }
    }

    // MARK: Reading

    /// Reads values by their markers only: no UTF-8, key or extension-type check.
    struct Parser {
        let bytes: [UInt8]
        var at: Int
        var nodes = 0

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return Array(bytes[at..<(at + count)])
        }

        mutating func length(_ width: Int) -> Int? {
            take(width).map { $0.reduce(0) { $0 << 8 | Int($1) } }
        }

        mutating func node(depth: Int) -> Node? {
            nodes += 1
            guard depth < 256, nodes < 8192, let marker = take(1)?.first else { return nil }
            func members(_ count: Int?) -> [Node]? {
                guard let count, count <= bytes.count - at else { return nil }
                var list: [Node] = []
                for _ in 0..<count {
                    guard let member = node(depth: depth + 1) else { return nil }
                    list.append(member)
                }
                return list
            }
            func fixed(_ size: Int) -> Node? { take(size).map { .scalar([marker] + $0) } }
            switch marker {
            case 0x00...0x7F, 0xE0...0xFF, 0xC0, 0xC2, 0xC3: return .scalar([marker])
            case 0x80...0x8F: return members(2 * Int(marker & 0x0F)).map { .map($0, marker: marker) }
            case 0x90...0x9F: return members(Int(marker & 0x0F)).map { .array($0, marker: marker) }
            case 0xA0...0xBF: return take(Int(marker & 0x1F)).map { .string($0, marker: marker) }
            case 0xC4, 0xC5, 0xC6:
                guard let count = length(1 << Int(marker - 0xC4)), let payload = take(count) else { return nil }
                return .binary(payload, marker: marker)
            case 0xD9, 0xDA, 0xDB:
                guard let count = length(1 << Int(marker - 0xD9)), let payload = take(count) else { return nil }
                return .string(payload, marker: marker)
            case 0xDC, 0xDD: return members(length(2 << Int(marker - 0xDC))).map { .array($0, marker: marker) }
            case 0xDE, 0xDF: return members(length(2 << Int(marker - 0xDE)).map { 2 * $0 }).map { .map($0, marker: marker) }
            case 0xC7:
                guard let size = take(1)?.first, let type = take(1)?.first, let payload = take(Int(size)) else { return nil }
                let follows = [2: 1, 4: 2, 5: 1][Int(type)] ?? 0
                return members(follows).map { .ext(header: [0xC7, size, type] + payload, $0) }
            case 0xC8, 0xC9:
                let start = at - 1
                guard let size = length(marker == 0xC8 ? 2 : 4), take(1 + size) != nil else { return nil }
                return .scalar(Array(bytes[start..<at]))
            case 0xCA, 0xD2, 0xCE: return fixed(4)
            case 0xCB, 0xCF, 0xD3: return fixed(8)
            case 0xCC, 0xD0: return fixed(1)
            case 0xCD, 0xD1: return fixed(2)
            case 0xD4: return fixed(2)
            case 0xD5: return fixed(3)
            case 0xD6: return fixed(5)
            case 0xD7: return fixed(9)
            case 0xD8: return fixed(17)
            default: return nil  // C1
            }
        }
    }

    // MARK: Edge values

    static func string(_ text: String) -> Node { .string(Array(text.utf8), marker: 0xA0) }

    /// Keys: a canonically equal pair (precomposed and decomposed é), the
    /// archiver's and the document activity's keys, empty, invalid UTF-8.
    static let edgeKeys: [Node] = [
        string("é"), string("e\u{301}"), string(""), string("$class"), string("NSUserActivityDocumentURL"),
        string("k"), .string([0xC3], marker: 0xA0), .string([0xED, 0xA0, 0x80], marker: 0xA0), .scalar([0x01]),
    ]

    /// Markers that put a value's bytes in another light: unused, unwritten
    /// extension forms, other widths and kinds.
    static let confusingMarkers: [UInt8] = [0xC1, 0xD4, 0xD5, 0xD6, 0xC8, 0xC9, 0xC7, 0xD7, 0xD8, 0xCA, 0xCB, 0xCC, 0xD3,
                                            0xC4, 0xD9, 0xDB, 0xDC, 0xDE, 0xDF, 0x8F, 0x9F, 0xBF, 0xA0, 0x90, 0x80]

    /// Values at the edges of each type and of each extension's layout.
    static let edgeValues: [Node] = [
        .scalar([0xC0]), .scalar([0xC2]), .scalar([0xC3]), .scalar([0x7F]), .scalar([0xE0]),
        .scalar([0xCF] + [UInt8](repeating: 0xFF, count: 8)), .scalar([0xD3, 0x80] + [UInt8](repeating: 0, count: 7)),
        .scalar([0xCD, 0x00, 0x01]), .scalar([0xD0, 0x01]),
        .scalar([0xCA, 0x7F, 0xC0, 0x00, 0x01]), .scalar([0xCA, 0xFF, 0x80, 0x00, 0x00]),
        .scalar([0xCB, 0x80, 0, 0, 0, 0, 0, 0, 0]), .scalar([0xCB, 0x7F, 0xF8, 0, 0, 0, 0, 0, 1]),
        // Dates (little-endian doubles): 0, −0, NaN, 1e300; a date in the wrong form.
        .scalar([0xD7, 0x03, 0, 0, 0, 0, 0, 0, 0, 0]), .scalar([0xD7, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x80]),
        .scalar([0xD7, 0x03, 1, 0, 0, 0, 0, 0, 0xF8, 0x7F]), .scalar([0xD7, 0x03, 0x9C, 0x75, 0x88, 0x3C, 0xE4, 0x37, 0x7E, 0x7E]),
        .ext(header: [0xC7, 0x08, 0x03, 0, 0, 0, 0, 0, 0, 0, 0], []),
        // UUIDs: one, and one of another extension type.
        .scalar([0xD8, 0x01] + (0..<16).map { UInt8($0) }), .scalar([0xD8, 0x06] + [UInt8](repeating: 0, count: 16)),
        // Sets: empty, a duplicate member, a canonically equal pair, members of mixed types; a set of a map.
        .ext(header: [0xC7, 0x00, 0x02], [.array([], marker: 0x90)]),
        .ext(header: [0xC7, 0x00, 0x02], [.array([string("a"), string("a")], marker: 0x90)]),
        .ext(header: [0xC7, 0x00, 0x02], [.array([string("é"), string("e\u{301}")], marker: 0x90)]),
        .ext(header: [0xC7, 0x00, 0x02], [.array([.scalar([0x01]), .scalar([0xCB, 0x3F, 0xF0, 0, 0, 0, 0, 0, 0]), .scalar([0xC3])], marker: 0x90)]),
        .ext(header: [0xC7, 0x00, 0x02], [.map([string("k"), .scalar([0x01])], marker: 0x80)]),
        .ext(header: [0xC7, 0x01, 0x02, 0x00], [.array([], marker: 0x90)]),
        // URLs: file, https, relative to a base, a base chain, not a URL, a base that is not a URL.
        .ext(header: [0xC7, 0x00, 0x05], [string("file:///private/var/mobile/Library/Mobile%20Documents/x")]),
        .ext(header: [0xC7, 0x00, 0x05], [string("https://example.com/?q=1#f")]),
        .ext(header: [0xC7, 0x00, 0x04], [.ext(header: [0xC7, 0x00, 0x05], [string("https://example.com/a/")]), string("../b")]),
        .ext(header: [0xC7, 0x00, 0x04], [.ext(header: [0xC7, 0x00, 0x04], [.ext(header: [0xC7, 0x00, 0x05], [string("file:///")]), string("a/")]), string("b")]),
        .ext(header: [0xC7, 0x00, 0x05], [string(" not a url")]),
        .ext(header: [0xC7, 0x00, 0x04], [string("https://example.com/"), string("b")]),
        // Strings and data at their forms' edges.
        .string([UInt8](repeating: 0x61, count: 32), marker: 0xA0), .string([0xEF, 0xBB, 0xBF, 0x00], marker: 0xA0),
        .binary([], marker: 0xC4), .binary([UInt8](repeating: 0, count: 256), marker: 0xC4),
        .array([], marker: 0x90), .map([], marker: 0x80), .ext(header: [0xC7, 0x00, 0x09], []),
    ]
}

extension MPMutation.Node {
    /// The value at `path`.
    subscript(path: MPMutation.Path) -> MPMutation.Node {
        get {
            var node = self
            for index in path { node = node.members[index] }
            return node
        }
        set {
            guard let first = path.first else { self = newValue; return }
            var members = self.members
            members[first][Array(path.dropFirst())] = newValue
            self = replacingMembers(members)
        }
    }
}
