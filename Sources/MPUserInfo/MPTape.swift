import FoundationEssentials
@_spi(ByteKit) package import PropertyList
package import UserInfo

/// One value of an MP userInfo on the tape.
struct MPNode {
    enum Kind: UInt8 { case map, array, set, string, data, signed, unsigned, real, bool, null, uuid, date, url }
    /// An integer's, real's, date's or boolean's bits; a map's ordinal; a
    /// key's fingerprint (``fingerprint(_:)``, all ones for a key
    /// beyond ASCII); a set's or URL's slot in the tape's tables.
    var bits: UInt64 = 0
    /// Where the value's bytes start (a string's, data's, UUID's, a URL's
    /// relative string); a container's marker.
    var start: Int = 0
    /// The index of the node after this value (after its members, for a container).
    var next: Int
    /// The bytes' count, or a container's members (a map's entries).
    var length: UInt32 = 0
    var kind: Kind

    var isContainer: Bool { kind == .map || kind == .array }

    /// A key's fingerprint when the key is not ASCII.
    static let nonASCIIKey = UInt64.max

    /// A key's length and first seven bytes: ASCII keys with different fingerprints differ.
    static func fingerprint(_ key: RawSpan) -> UInt64 {
        let length = UInt64(truncatingIfNeeded: key.byteCount) << 56
        if key.byteCount >= 8 { return length | key.word(at: 0) & 0x00FF_FFFF_FFFF_FFFF }
        var print = length
        for offset in 0..<key.byteCount {
            print |= UInt64(key.byte(at: offset)) << (8 * offset)
        }
        return print
    }
}

/// A URL of the tape: its value, and its parse when the scan parsed it
/// (nil: not parsed, being valid at a glance).
struct MPURL {
    var value: UserInfoURL
    var parsed: URL?
}

/// The values of an MP userInfo in the order they are written, each map's
/// entries as key node, value node; a set's members and a URL's base follow
/// their node. Made only by ``MPScan``, the one reading of the grammar
/// (Specs/mp-userinfo.md), from bytes it accepts; the bytes stay with the caller.
struct MPTapeNodes {
    var nodes: [MPNode] = []
    /// The maps, numbered in order (a map node's `bits`).
    var maps = 0
    /// The sets, checked and built when they closed, by their node's `bits`.
    var sets: [UserInfoSet] = []
    /// The URLs, checked and built when they were read, by their node's `bits`.
    var urls: [MPURL] = []
    /// The URL nodes, in order (in a tape made for the decoder).
    var urlNodes: [Int] = []
    /// True when the tape holds a set, a URL with a base or a map key beyond
    /// ASCII: what the Codable decoder leaves to the tree (`directDecodeHandOver`).
    var handsOver = false

    /// duplicateKey, for a closed map: its keys are each there once (as
    /// Strings: canonically equivalent spellings are one key). Two ASCII keys
    /// are equal exactly when their bytes are, and compared by bytes when the
    /// map is small; a key beyond ASCII may equal an ASCII one (the Kelvin
    /// sign K is K), so a map holding one compares its keys as strings.
    func keysOnce(map: Int, nonASCII: Bool, in bytes: RawSpan) -> Bool {
        let count = Int(nodes[map].length), end = nodes[map].next
        if !nonASCII && count <= MPTape.scanLimit {
            var key = map + 1
            while key < end {
                let length = Int(nodes[key].length)
                var other = nodes[key + 1].next
                while other < end {
                    // Keys under eight bytes are equal when their fingerprints are.
                    if nodes[other].bits == nodes[key].bits, length < 8 || sameBytes(key, other, in: bytes) { return false }
                    other = nodes[other + 1].next
                }
                key = nodes[key + 1].next
            }
            return true
        }
        var seen = Set<String>(minimumCapacity: count)
        var key = map + 1
        while key < end {
            guard seen.insert(string(key, in: bytes)).inserted else { return false }
            key = nodes[key + 1].next
        }
        return true
    }

    /// True when nodes `a` and `b` hold the same bytes.
    private func sameBytes(_ a: Int, _ b: Int, in bytes: RawSpan) -> Bool {
        let first = nodes[a], second = nodes[b]
        return bytes.extracting(first.start..<first.start + Int(first.length))
            .sameBytes(as: bytes.extracting(second.start..<second.start + Int(second.length)))
    }

    /// The string of node `index` (validated by the scan).
    func string(_ index: Int, in bytes: RawSpan) -> String {
        let node = nodes[index]
        return bytes.extracting(node.start..<node.start + Int(node.length)).validUTF8String!
    }

    /// The value of a node that is no map or array, as the reader gives it
    /// (a map or an array gives an empty one: what the decoder's errors need).
    func leaf(_ index: Int, in bytes: RawSpan) -> UserInfoValue {
        let node = nodes[index]
        switch node.kind {
        case .map: return .dictionary([:])
        case .array: return .array([])
        case .set: return .set(sets[Int(node.bits)])
        case .string: return .string(string(index, in: bytes))
        case .data: return .data(bytes.extracting(node.start..<node.start + Int(node.length)).data)
        case .signed: return .number(.integer(PropertyListInteger(Int64(bitPattern: node.bits))))
        case .unsigned: return .number(.integer(PropertyListInteger(node.bits)))
        case .real: return .number(.real(Double(bitPattern: node.bits)))
        case .bool: return .number(.bool(node.bits != 0))
        case .null: return .null
        case .uuid: return .uuid(bytes.extracting(node.start..<node.start + 16).uuid!)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: node.bits)))
        case .url: return .url(urls[Int(node.bits)].value)
        }
    }

    /// A map or array being built: its keys and values so far.
    private struct Building {
        var remaining: Int
        var keys: [String] = []
        var values: [UserInfoValue] = []
        let isMap: Bool

        init(_ node: MPNode) {
            remaining = Int(node.length)
            isMap = node.kind == .map
            if isMap { keys.reserveCapacity(remaining) }
            values.reserveCapacity(remaining)
        }
    }

    /// The value of node `root` and everything under it, as the reader gives
    /// it; nil when a map holds a key twice (the scan leaves that to the
    /// dictionaries when it does not check keys). Nesting is kept on a heap
    /// stack (Specs/architecture.md, "One stack policy"); sets and URLs were
    /// built by the scan.
    func value(at root: Int, in bytes: RawSpan) -> UserInfoValue? {
        guard nodes[root].isContainer else { return leaf(root, in: bytes) }
        var open = GrowableBuffer<Building>(capacity: 8)
        var index = root
        repeat {
            let node = nodes[index]
            if node.isContainer {
                open.append(building: { Building(node) })
                index += 1
            } else {
                open[open.count - 1].values.append(leaf(index, in: bytes))
                open[open.count - 1].remaining -= 1
                index = node.next
            }
            // Close every container now complete, innermost first.
            while open[open.count - 1].remaining == 0 {
                let finished = open.removeLast()
                let value: UserInfoValue
                if finished.isMap {
                    guard let dictionary = UserInfoDictionary(keys: finished.keys, values: finished.values) else { return nil }
                    value = .dictionary(dictionary)
                } else {
                    value = .array(finished.values)
                }
                if open.isEmpty { return value }
                open[open.count - 1].values.append(value)
                open[open.count - 1].remaining -= 1
            }
            // A map's next key.
            if open[open.count - 1].isMap {
                open[open.count - 1].keys.append(string(index, in: bytes))
                index += 1
            }
        } while true
    }

    /// The top map's entries (nil as for ``value(at:in:)``).
    func dictionary(in bytes: RawSpan) -> UserInfoDictionary? {
        guard case .dictionary(let dictionary)? = value(at: 0, in: bytes) else { return nil }
        return dictionary
    }
}

/// A tape and the bytes its nodes point into: what the Codable decoder reads
/// (and `PayloadCodec` translates URLs on) — Specs/codable.md, "Direct MP decoding".
package struct MPTape {
    var content: MPTapeNodes
    /// The bytes the nodes point into.
    let bytes: [UInt8]

    /// Maps of up to this many entries are searched by scan (lookups and the duplicate check).
    static let scanLimit = 16

    /// The tape of `bytes`, or nil when the reader refuses them or they hold
    /// what the decoder leaves to the tree (`directDecodeHandOver`).
    package init?(_ bytes: [UInt8], limits: PropertyListLimits) {
        // (A refusal's error is not wanted here: no second scan for it.)
        guard let content = try? MPScan.tape(of: bytes.span.bytes, limits: limits, keyCheck: .whenClosed, parsesURLs: true),
              !content.handsOver else { return nil }
        (self.content, self.bytes) = (content, bytes)
    }

    /// The tape of `bytes`, every rule of Specs/mp-userinfo.md checked.
    ///
    /// - Throws: ``UserInfoError``: the reader's errors, one for one.
    init(reading bytes: [UInt8], limits: PropertyListLimits) throws(UserInfoError) {
        self.bytes = bytes
        // Keys checked when each map closes. oneGrammar: a refusal is answered by
        // a scan that checks them as they come (the reader's first error).
        do {
            content = try MPScan.tape(of: bytes.span.bytes, limits: limits, keyCheck: .whenClosed, parsesURLs: true)
        } catch {
            content = try MPScan.tape(of: bytes.span.bytes, limits: limits, parsesURLs: true)
        }
    }

    var nodes: [MPNode] { content.nodes }

    /// The string of node `index`.
    func string(_ index: Int) -> String {
        let all = bytes
        return content.string(index, in: all.span.bytes)
    }

    /// The value of a node, as the tree decoder needs it: a scalar as the
    /// reader makes it, an empty container of the node's kind (for the tree's
    /// errors, which name only the kind).
    func scalar(_ index: Int) -> UserInfoValue {
        let all = bytes
        return content.leaf(index, in: all.span.bytes)
    }

    /// The top map's entries, as the reader gives them.
    func dictionary() -> UserInfoDictionary {
        let all = bytes
        guard let dictionary = content.dictionary(in: all.span.bytes) else { preconditionFailure("a tape with each key once builds") }
        return dictionary
    }

    /// The value under `key` in the top map (keys compared as strings), as
    /// ``scalar(_:)`` gives it; nil when the key is absent.
    package func topValue(forKey key: String) -> UserInfoValue? {
        var node = 1
        while node < nodes[0].next {
            if string(node) == key { return scalar(node + 1) }
            node = nodes[node + 1].next
        }
        return nil
    }

    /// The URLs, in order (all without a base: a tape the decoder reads holds no other).
    package var urlCount: Int { content.urlNodes.count }

    /// The `index`th URL.
    package func url(_ index: Int) -> UserInfoURL {
        content.urls[Int(nodes[content.urlNodes[index]].bits)].value
    }

    /// Replaces the `index`th URL (a URL translated for this device): its
    /// relative string is what the decoder reads.
    package mutating func replaceURL(_ index: Int, with url: UserInfoURL) {
        let slot = Int(nodes[content.urlNodes[index]].bits)
        content.urls[slot] = MPURL(value: UserInfoURL(relative: url.relative), parsed: url.url)
    }
}
