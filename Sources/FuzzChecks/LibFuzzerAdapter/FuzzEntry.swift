// The C side of a fuzz target: libFuzzer hands each input as a pointer and
// a length, made into bytes here.

extension FuzzChecks {
    /// The body of a libFuzzer `LLVMFuzzerTestOneInput`: runs the oracle and
    /// traps on a finding, so libFuzzer stops and keeps the input.
    @_spi(Fuzzing) public static func fuzz(_ entryPoint: FuzzEntryPoint, _ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let input = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
        do {
            try check(entryPoint, input)
        } catch {
            fatalError("finding: \(error)")
        }
        return 0
    }
}
