// swift-tools-version:6.1
//
// libFuzzer targets for ActivityCodec, in their own package so that `swift build`
// and `swift test` of the main package never build them. Build with Fuzz/build.sh
// (it adds -sanitize=fuzzer,address); see Fuzz/README.md.
import PackageDescription

func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency] = [.product(name: "FuzzChecks", package: "ActivityCodec")]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzDriver"], path: "Sources/\(name)")
}

let package = Package(
    name: "ActivityCodecFuzz",
    dependencies: [.package(name: "ActivityCodec", path: "..")],
    targets: [
        .target(name: "FuzzDriver", dependencies: [.product(name: "FuzzChecks", package: "ActivityCodec")]),
        fuzzTarget("FuzzBinaryDecode"),
        fuzzTarget("FuzzXMLDecode"),
        fuzzTarget("FuzzKeyedDecode"),
        fuzzTarget("FuzzPayloadDecode"),
        fuzzTarget("FuzzTypedJSONRead"),
        fuzzTarget("FuzzMPDecode"),
        fuzzTarget("FuzzContainerDecode"),
        fuzzTarget("FuzzOpenStepRead"),
        fuzzTarget("FuzzErrorPacket"),
        fuzzTarget("FuzzDiff"),
        fuzzTarget("FuzzDifferentialFoundation", [
            .product(name: "PropertyList", package: "ActivityCodec"),
            .product(name: "PropertyListXML", package: "ActivityCodec"),
        ]),
        // libplist (Debian libplist-dev), a test peer of the differential
        // target only: the library never links it (Specs/fuzzing.md).
        .systemLibrary(
            name: "CLibplist",
            pkgConfig: "libplist-2.0",
            providers: [.apt(["libplist-dev"])]
        ),
        fuzzTarget("FuzzDifferentialLibplist", [
            .product(name: "PropertyList", package: "ActivityCodec"),
            .product(name: "PropertyListXML", package: "ActivityCodec"),
            "CLibplist",
        ]),
    ]
)
