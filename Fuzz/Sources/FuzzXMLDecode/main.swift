// libFuzzer target for the .xmlDecode oracle of FuzzChecks (Specs/fuzzing.md).
@_spi(Fuzzing) import FuzzChecks
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.xmlDecode, start, count)
}

runLibFuzzer(fuzzOneInput)
