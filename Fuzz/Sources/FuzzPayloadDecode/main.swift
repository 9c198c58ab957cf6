// libFuzzer target for the .payloadDecode oracle of FuzzChecks (Specs/fuzzing.md).
@_spi(Fuzzing) import FuzzChecks
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzChecks.fuzz(.payloadDecode, start, count)
}

runLibFuzzer(fuzzOneInput)
