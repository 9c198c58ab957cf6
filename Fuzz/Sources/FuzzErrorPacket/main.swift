// libFuzzer target for the .errorPacket oracle of FuzzChecks (Specs/fuzzing.md):
// a keyed archive, framed as an activity container's error packet.
@_spi(Fuzzing) import FuzzChecks
@_spi(Fuzzing) import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.errorPacket, start, count)
}

// Structure-aware mutation of the archive's bplist (Specs/fuzzing.md, "Structure-aware mutation").
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    customMutation(.binaryPlist, data, size, maxSize, seed)
}

runLibFuzzer(fuzzOneInput)
