// libFuzzer target for the .openStepRead oracle of FuzzChecks (Specs/fuzzing.md).
@_spi(Fuzzing) import FuzzChecks
@_spi(Fuzzing) import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.openStepRead, start, count)
}

// Structure-aware mutation of the OpenStep text inside (Specs/fuzzing.md, "Structure-aware mutation").
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    customMutation(.openStep, data, size, maxSize, seed)
}

runLibFuzzer(fuzzOneInput)
