// libFuzzer target for the .diff oracle of FuzzChecks (Specs/fuzzing.md):
// a document against a second value derived from it by edits.
@_spi(Fuzzing) import FuzzChecks
@_spi(Fuzzing) import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.diff, start, count)
}

// Structure-aware mutation of the bplist (Specs/fuzzing.md, "Structure-aware mutation").
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    customMutation(.binaryPlist, data, size, maxSize, seed)
}

runLibFuzzer(fuzzOneInput)
