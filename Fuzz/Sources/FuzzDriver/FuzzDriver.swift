#if canImport(Glibc)
import Glibc
#endif
// Starts libFuzzer from an ordinary Swift `main`.
//
// SwiftPM links an executable target's entry point as `main` (`--defsym
// main=<Module>_main`), so the usual `-parse-as-library` build, which leaves
// `main` to libFuzzer, no longer links (swift-package-manager#8731). Each target
// therefore keeps a `main.swift` whose top-level code hands libFuzzer's own
// driver the same `LLVMFuzzerTestOneInput` it exports for other drivers
// (OSS-Fuzz, replay tools).

/// The C signature of `LLVMFuzzerTestOneInput`.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzCallback
) -> CInt

/// Runs libFuzzer with the process's arguments and `callback`, and exits with its status.
public func runLibFuzzer(_ callback: FuzzCallback) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv, callback)
    exit(status)
}
