// Differential target against libplist 2.2 (Specs/fuzzing.md, "Differential
// fuzzing against libplist"): every document is read by our reader (binary or
// XML, by its magic) and by libplist's (`plist_from_bin` or `plist_from_xml`),
// in process, and the two answers must agree:
//   (a) both accept  → equal values (Comparison);
//   (b) we accept, libplist refuses → a finding unless a listed deviation of
//       libplist's (KnownDeviation.libplistRefuses);
//   (c) libplist accepts, we refuse → a finding unless our refusal is one of the
//       strictness rules listed, by error code, in Specs/known-deviations.md
//       ("libplist"; KnownDeviation.toleratedRefusal).
//
// Isolation: libplist's binary reader parses a shared object once per reference
// and has no limits, so a small document can make it build an exponential tree.
// A binary document goes to libplist only when BinaryShape, which follows
// libplist's own reading of the file, says the tree it would build is acyclic,
// at most 512 deep and small (16 MiB of node weight); others are skipped
// (never one we accept: that is checked). Its XML reader is iterative and has
// no sharing: every XML document goes to it.
//
// FUZZ_LIBPLIST_EXPLAIN=1: print each input's classification (triage).
// FUZZ_LIBPLIST_SURVEY=<folder>: report each disagreement on stdout, keep the
// first inputs of each kind in <folder>, and go on (to classify a new reader's
// disagreements in one run; Specs/fuzzing.md). Never set in CI or campaigns.
import FoundationEssentials
import PropertyList
import PropertyListXML
import FuzzDriver
#if canImport(Glibc)
import Glibc
#endif

let limits = PropertyListLimits(maxInputBytes: 1 << 16, maxDepth: 64, maxObjects: 4096, maxCollectionCount: 1024,
                                maxStringBytes: 4096, maxDataBytes: 4096, maxExpandedBytes: 1 << 20)
let survey: String? = getenv("FUZZ_LIBPLIST_SURVEY").map { String(cString: $0) }
nonisolated(unsafe) var surveyCounts: [String: Int] = [:]

/// FUZZ_LIBPLIST_EXPLAIN=1: print how each input was classified (triage of one input by hand).
let explain = getenv("FUZZ_LIBPLIST_EXPLAIN") != nil

/// True, after printing `rule` when explaining: the deviation that applied.
func explained(_ rule: String) -> Bool {
    if explain { print("explain: deviation \(rule)") }
    return true
}

func finding(_ kind: String, _ message: String, _ bytes: [UInt8]) {
    guard let survey else { fatalError("finding: \(message)") }
    let count = surveyCounts[kind, default: 0]
    surveyCounts[kind] = count + 1
    guard count < 5 else { return }
    print("survey: \(kind): \(message)")
    if let file = fopen("\(survey)/\(kind)-\(count)", "wb") {
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, count > 0, count <= 1 << 16 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let binary = BinaryPropertyListReader.hasMagic(bytes.prefix(8))
    let ours: Result<PropertyListValue, PropertyListError>
    do {
        ours = .success(binary ? try BinaryPropertyListReader(limits: limits).read(bytes)
                               : try XMLPropertyListReader(limits: limits).read(bytes))
    } catch {
        ours = .failure(error)
    }

    var shape: BinaryShape? = nil
    var walk: BinaryShape.Walk? = nil
    if binary, let found = BinaryShape(bytes) {
        let path = found.walk()
        guard !path.cyclic, path.weight <= BinaryShape.maxWeight, path.height <= BinaryShape.maxHeight else {
            // Isolation: libplist would blow up or walk a cycle's paths. Never
            // for a document we accept (our limits are tighter): that would be
            // BinaryShape reading the file otherwise than both readers.
            if case .success = ours { finding("isolated-accepted", "BinaryShape isolated a document we accept: \(path)", bytes) }
            if explain { print("explain: binary, isolated from libplist (cyclic \(path.cyclic), weight \(path.weight), height \(path.height))") }
            return 0
        }
        shape = found
        walk = path
    }
    let theirs = LibplistDocument(bytes, binary: binary)
    if binary, shape == nil, theirs != nil {
        // BinaryShape said libplist refuses this trailer before reading an
        // object, which is why such documents are not isolated: check it.
        finding("shape-trailer", "libplist read a document whose trailer BinaryShape takes for refused", bytes)
    }
    if explain {
        let refusal: String
        if case .failure(let error) = ours { refusal = "refuse (\(error.code))" } else { refusal = "accept" }
        print("explain: \(binary ? "binary" : "XML"): we \(refusal), libplist \(theirs == nil ? "refuses" : "accepts")")
    }

    switch (ours, theirs) {
    case (.success(let value), .some(let document)):
        if let difference = Comparison(xml: !binary).difference(value, document.value, at: "root") {
            finding("differ", "values differ at \(difference)", bytes)
        }
    case (.success(let value), .none):
        if let deviation = KnownDeviation.libplistRefuses(bytes, value: value, binary: binary, shape: shape, walk: walk) {
            _ = explained(deviation)
            return 0
        }
        finding("libplist-refuses", "libplist refused a document we accept", bytes)
    case (.failure(let error), .some):
        if let reason = KnownDeviation.toleratedRefusal(error, binary: binary, shape: shape, walk: walk) {
            _ = explained("\(error.code): \(reason)")
            return 0
        }
        finding("we-refuse-\(error.code)", "libplist accepted a document we refuse: \(error.code): \(error)", bytes)
    case (.failure, .none):
        break
    }
    return 0
}

runLibFuzzer(fuzzOneInput)
