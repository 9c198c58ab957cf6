import ActivityContainer

/// Structure-aware mutation of the activity container (Specs/fuzzing.md,
/// "Structure-aware mutation"): the packet taken apart into its header and
/// fields (inflated first when it is compressed), one change to a field (its
/// bytes; the userInfo through the MP or bplist mutator; the activity JSON
/// from a list of edge objects; title and webpageURL from edge strings; a
/// field absent, present, added or dropped), to the header (the kind, the
/// compression bit: the fields bzip2-compressed anew, at any block size), and
/// the packet written anew with every field word recomputed; one mutation in
/// ten breaks a field word, the stream or the end on purpose.
enum ContainerMutation {
    struct Packet: Equatable {
        /// The header without the compression bit.
        var kind: UInt32
        var compressed: Bool
        /// Each field's bytes, nil when absent (a zero word).
        var fields: [[UInt8]?]

        init?(parsing bytes: [UInt8]) {
            guard bytes.count >= 4 else { return nil }
            let header = littleEndian(bytes, at: 0)
            kind = header & ~0x100
            compressed = header & 0x100 != 0
            var body = Array(bytes[4...])
            if compressed {
                guard let inflated = Bzip2.inflated(body, cap: 1 << 20) else { return nil }
                body = inflated
            }
            fields = []
            var at = 0
            while at < body.count {
                guard body.count - at >= 4 else { return nil }
                let word = littleEndian(body, at: at)
                at += 4
                if word == 0 { fields.append(nil); continue }
                let length = Int(word & 0xFF_FFFF)
                guard word >> 24 == 1, length <= body.count - at else { return nil }
                fields.append(Array(body[at..<(at + length)]))
                at += length
            }
        }

        /// Header, then the fields (compressed when the bit is set); `broken`
        /// spoils one part on purpose.
        func serialized(blockSize: Int32, broken: Int?) -> [UInt8] {
            var body: [UInt8] = []
            for (index, field) in fields.enumerated() {
                guard let field else { body += [0, 0, 0, 0]; continue }
                var word = UInt32(0x0100_0000) | UInt32(field.count & 0xFF_FFFF)
                if broken == index { word = [word + 1, word - 1, 0x0100_0000, 0x0200_0000 | word & 0xFF_FFFF][index % 4] }
                body += littleEndianBytes(word) + field
            }
            if broken == -1 { body.append(0) }
            if compressed, let stream = Bzip2.compressed(body, blockSize: blockSize) {
                body = broken == -2 ? Array(stream.dropLast(stream.count / 3 + 1)) : stream
            }
            return littleEndianBytes(kind | (compressed ? 0x100 : 0)) + body
        }
    }

    static func mutate(_ document: [UInt8], _ random: inout SplitMix, _ mutateBytes: StructureAwareMutation.ByteMutation) -> [UInt8]? {
        guard var packet = Packet(parsing: document) else { return nil }
        var broken: Int?
        var blockSize: Int32 = 1
        let present = packet.fields.indices.filter { packet.fields[$0] != nil }
        switch random.next(10) {
        case 0, 1:
            // The userInfo field through its own mutator (MP or bplist), or any present field's bytes.
            if packet.fields.count > 1, let userInfo = packet.fields[1], random.oneIn(4) == false {
                let mutator: StructureAwareMutation = userInfo.starts(with: [0x4D, 0x50]) ? .mp : .binaryPlist
                packet.fields[1] = mutator.structured(userInfo, &random, mutateBytes) ?? mutatedPart(userInfo, limit: userInfo.count + 64, mutateBytes)
            } else if !present.isEmpty {
                let index = random.pick(present)
                packet.fields[index] = mutatedPart(packet.fields[index]!, limit: packet.fields[index]!.count + 64, mutateBytes)
            } else {
                return nil
            }
        case 2:
            // The activity JSON: an edge object.
            while packet.fields.count < 3 { packet.fields.append(nil) }
            packet.fields[2] = Array(random.pick(edgeJSON).utf8)
        case 3:
            // The title or the webpage URL: an edge string.
            let index = random.oneIn(2) ? 0 : 3
            while packet.fields.count <= index { packet.fields.append(nil) }
            packet.fields[index] = random.pick(edgeStrings)
        case 4:
            // A field absent or present (a copy of another field, or one byte).
            guard !packet.fields.isEmpty else { return nil }
            let index = random.next(packet.fields.count)
            packet.fields[index] = packet.fields[index] == nil ? (present.isEmpty ? [0x41] : packet.fields[random.pick(present)]) : nil
        case 5:
            // A field more or fewer.
            if random.oneIn(2), !packet.fields.isEmpty { packet.fields.removeLast() } else { packet.fields.append(random.oneIn(2) ? nil : [0x00]) }
        case 6:
            // The compression bit, the fields compressed anew at any block size.
            packet.compressed.toggle()
            blockSize = Int32(1 + random.next(9))
        case 7:
            // The kind: activity, error packet, another.
            packet.kind = random.pick([0x1, 0xF, 0x0, 0x2, 0x1F, 0x8000_0001] as [UInt32])
        case 8:
            // An error packet of this packet's userInfo or a field (a keyed archive, or not).
            packet.kind = 0xF
            packet.fields = [packet.fields.count > 1 ? packet.fields[1] : present.first.flatMap { packet.fields[$0] }]
        default:
            // Broken on purpose: a field word, a byte after the end, the stream cut.
            broken = packet.fields.isEmpty ? -1 : random.pick(Array(-2..<packet.fields.count))
            if broken == -2 { packet.compressed = true }
        }
        return packet.serialized(blockSize: blockSize, broken: broken)
    }

    /// Activity JSON objects at the edges of field 3's rules.
    static let edgeJSON: [String] = [
        #"{"teamID":"","type":"a"}"#, #"{"teamID":"ABCDE12345","type":"com.example.edit","persistentID":"p","targetContentID":"t"}"#,
        #"{"teamID":"A","type":"a","type":"b"}"#, #"{"teamID":"A"}"#, #"{"teamID":"A","type":"a","persistentID":""}"#,
        #"{"teamID":"A","type":"a","other":"x"}"#, #"{"teamID":"A","type":1}"#, #"{"teamID":"A","type":"a"} x"#,
        #" {"teamID" : "A" , "type" : "\u00e9\ud83d\ude00\n"} "#, #"{"teamID":"A","type":"\ud800"}"#, "[]", "{}", "",
        #"{"teamID":"A","type":"a","#,
    ]

    /// Titles and webpage URLs at the edges: empty, not UTF-8, not http(s), bidirectional controls.
    static let edgeStrings: [[UInt8]] = [
        Array("https://example.com/a?b#c".utf8), Array("http://x".utf8), Array("file:///etc/passwd".utf8),
        Array("javascript:alert(1)".utf8), Array("HTTPS://EXAMPLE.COM".utf8), Array("https://".utf8),
        Array("Title \u{202E}gnp.exe".utf8), [0xC3, 0x28], [0xED, 0xA0, 0x80], [0x00],
    ]
}

private func littleEndian(_ bytes: [UInt8], at index: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index + $1]) << (8 * $1) }
}

private func littleEndianBytes(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
