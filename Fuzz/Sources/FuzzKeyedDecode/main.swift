// libFuzzer target for the .keyedDecode oracle of FuzzChecks (Specs/fuzzing.md).
@_spi(Fuzzing) import FuzzChecks
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.keyedDecode, start, count)
}

runLibFuzzer(fuzzOneInput)
