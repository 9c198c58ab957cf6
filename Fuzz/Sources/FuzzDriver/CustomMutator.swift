#if canImport(Glibc)
import Glibc
#endif
@_spi(Fuzzing) public import FuzzChecks

// The C side of structure-aware mutation (Specs/fuzzing.md, "Structure-aware
// mutation"): a target's `LLVMFuzzerCustomMutator` hands its input here; the
// mutators themselves are in FuzzChecks (`StructureAwareMutation`), where the
// unit tests run them, and get libFuzzer's own `LLVMFuzzerMutate` for bytes.

@_silgen_name("LLVMFuzzerMutate")
private func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

/// `FUZZ_PLAIN_MUTATION=1` turns the mutators off (every mutant is
/// libFuzzer's own), for comparing the two in the same CPU time.
private let plainOnly = getenv("FUZZ_PLAIN_MUTATION").map { String(cString: $0) == "1" } ?? false

/// The body of a `LLVMFuzzerCustomMutator`: mutates the input at `data` in
/// place with `mutation`, and returns its new size.
@_spi(Fuzzing) public func customMutation(_ mutation: StructureAwareMutation, _ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    if plainOnly || size == 0 { return LLVMFuzzerMutate(data, size, maxSize) }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let output = mutation.mutate(input, maxSize: maxSize, seed: seed) { bytes, limit in
        let count = bytes.count
        bytes += [UInt8](repeating: 0, count: max(limit - count, 1))
        let size = bytes.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress!, count, $0.count) }
        bytes.removeLast(bytes.count - min(max(size, 0), bytes.count))
    }
    let count = min(output.count, maxSize)
    guard count > 0 else { return LLVMFuzzerMutate(data, size, maxSize) }
    output.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: count) }
    return count
}
