/// Structure-aware mutation (Specs/fuzzing.md, "Structure-aware mutation"):
/// libFuzzer's byte mutations rarely keep a binary property list's offset
/// table, an MP length or a container's field words consistent, so most of
/// their mutants stop at the first check. A mutator takes the document after
/// the options byte apart, makes one change to its structure, and writes it
/// anew with every length, count and offset recomputed (or, in a named
/// mutation, broken on purpose). One mutant in eight, and every input that
/// does not take apart, gets libFuzzer's own byte mutation instead, so
/// broken layouts are still tried.
///
/// The mutators live here, beside the oracles, so that the unit tests can run
/// them (`MutationTests`); the fuzz targets hand them libFuzzer's
/// `LLVMFuzzerMutate` as ``ByteMutation``.
@_spi(Fuzzing) public enum StructureAwareMutation: String, Sendable, CaseIterable {
    /// A bplist's objects, references, top object (binary-decode, keyed-decode, error-packet, diff).
    case binaryPlist = "binary-plist"
    /// MP values by their markers (mp-decode).
    case mp
    /// The activity container's fields, compressed or not (container-decode, payload-decode).
    case container
    /// XML by elements and text (xml-decode).
    case xml
    /// OpenStep text by tokens and bracketed groups (openstep-read).
    case openStep = "openstep"

    /// libFuzzer's own mutation of bytes (`LLVMFuzzerMutate`): changes
    /// `bytes` in place, leaving at most `maxSize` of them.
    @_spi(Fuzzing) public typealias ByteMutation = (_ bytes: inout [UInt8], _ maxSize: Int) -> Void

    /// The mutator of `entryPoint`'s target; nil for typed-json-read, which
    /// has libFuzzer's mutations and its JSON dictionary only.
    @_spi(Fuzzing) public init?(entryPoint: FuzzEntryPoint) {
        switch entryPoint {
        case .binaryDecode, .keyedDecode, .errorPacket, .diff: self = .binaryPlist
        case .mpDecode: self = .mp
        case .containerDecode, .payloadDecode: self = .container
        case .xmlDecode: self = .xml
        case .openStepRead: self = .openStep
        case .typedJSONRead: return nil
        }
    }

    /// One mutant of `input` (the options byte, then the document), at most
    /// `maxSize` bytes long, chosen by `seed`.
    @_spi(Fuzzing) public func mutate(_ input: [UInt8], maxSize: Int, seed: UInt32, bytes mutateBytes: ByteMutation) -> [UInt8] {
        var random = SplitMix(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        let document = Array(input.dropFirst())
        if input.count >= 2, !random.oneIn(8), let mutant = structured(document, &random, mutateBytes),
           mutant.count + 1 <= maxSize, mutant != document {
            return [input[0]] + mutant
        }
        var plain = input
        mutateBytes(&plain, maxSize)
        return plain
    }

    /// The document changed in its structure; nil when it does not take apart.
    func structured(_ document: [UInt8], _ random: inout SplitMix, _ mutateBytes: ByteMutation) -> [UInt8]? {
        switch self {
        case .binaryPlist:
            guard var parsed = BinaryPlistMutation.Document(parsing: document) else { return nil }
            BinaryPlistMutation.mutate(&parsed, &random, mutateBytes)
            return parsed.serialized()
        case .mp:
            return MPMutation.mutate(document, &random, mutateBytes)
        case .container:
            return ContainerMutation.mutate(document, &random, mutateBytes)
        case .xml:
            return MarkupMutation(syntax: .xml).mutate(document, &random, mutateBytes)
        case .openStep:
            return MarkupMutation(syntax: .openStep).mutate(document, &random, mutateBytes)
        }
    }
}

/// `mutateBytes` on a part of a document, as long as `limit` allows (at least one byte kept).
func mutatedPart(_ part: [UInt8], limit: Int = 4096, _ mutateBytes: StructureAwareMutation.ByteMutation) -> [UInt8] {
    var bytes = part.isEmpty ? [0] : part
    mutateBytes(&bytes, max(limit, bytes.count))
    return bytes
}

extension StructureAwareMutation {
    /// The structured mutant of `document` (no options byte) alone, without
    /// the byte-mutation share; nil when it does not take apart. For the tests.
    @_spi(Fuzzing) public func structuredMutant(of document: [UInt8], seed: UInt64, bytes mutateBytes: ByteMutation) -> [UInt8]? {
        var random = SplitMix(seed: seed)
        return structured(document, &random, mutateBytes)
    }

    /// Whether `document` (no options byte) takes apart as this mutator reads
    /// it: a bplist's offset table and trailer consistent, MP markers and
    /// lengths that end where the bytes end, a container's field words (its
    /// stream inflated) ending where the bytes end, tokens. For the tests.
    @_spi(Fuzzing) public func takesApart(_ document: [UInt8]) -> Bool {
        switch self {
        case .binaryPlist: return BinaryPlistMutation.Document(parsing: document) != nil
        case .mp:
            var parser = MPMutation.Parser(bytes: document, at: 4)
            return document.count > 4 && parser.node(depth: 0) != nil && parser.at == document.count
        case .container: return ContainerMutation.Packet(parsing: document) != nil
        case .xml: return !MarkupMutation.xmlTokens(document).isEmpty
        case .openStep: return !MarkupMutation.openStepTokens(document).isEmpty
        }
    }
}
