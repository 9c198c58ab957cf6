// swift-tools-version:6.1
//
// libFuzzer targets for ActivityCodec, in their own package so that `swift build`
// and `swift test` of the main package never build them. Build with Fuzz/build.sh
// (it adds -sanitize=fuzzer,address); see Fuzz/README.md.
import PackageDescription

func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency] = ["FuzzChecks"]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzDriver"], path: "Sources/\(name)")
}

/// The round-trip oracles (Sources/FuzzChecks of the main package, which has
/// it as a target of its regression tests but offers no product of it): the
/// same folder through a symbolic link, `Sources/FuzzChecks`. The oracles
/// call the library's `package` declarations, which only a module of the same
/// package name sees: SwiftPM names a package after its folder, lowercased, as
/// a C identifier (`activitycodec` in OSS-Fuzz's `$SRC/activitycodec`), so
/// this target takes that name instead of its own. A name that does not match
/// fails the build, naming the declarations it cannot see.
let mainPackageName: String = {
    let folder = Context.packageDirectory.split(separator: "/").dropLast().last.map { $0.lowercased() } ?? ""
    let name = String(folder.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    return name.first?.isNumber == true ? "_" + name : name
}()

let fuzzChecks: Target = .target(
    name: "FuzzChecks",
    dependencies: ["PropertyList", "PropertyListXML", "PropertyListOpenStep", "UserInfo", "TypedJSON", "KeyedArchive",
                   "MPUserInfo", "ActivityContainer", "DocumentFormats", "Handoff"].map { .product(name: $0, package: "ActivityCodec") },
    path: "Sources/FuzzChecks",
    packageAccess: false,
    swiftSettings: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableExperimentalFeature("Lifetimes"),
        .unsafeFlags(["-package-name", mainPackageName]),
    ]
)

let package = Package(
    name: "ActivityCodecFuzz",
    dependencies: [.package(name: "ActivityCodec", path: "..")],
    targets: [
        fuzzChecks,
        .target(name: "FuzzDriver", dependencies: ["FuzzChecks"]),
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
