// swift-tools-version:6.1
//
// ActivityCodec: strict, fast codecs for Handoff activity payloads
// (binary and XML property lists, NSKeyedArchiver archives of userInfo values).
//
// Layers, each depending only on the ones below (see Specs/README.md):
//   PropertyList ← PropertyListXML ← KeyedArchive ← ActivityPayload ← plistkit (CLI)
// FuzzChecks holds the round-trip oracles of the fuzz package in Fuzz/.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ActivityCodec",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "PropertyListXML", targets: ["PropertyListXML"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "ActivityPayload", targets: ["ActivityPayload"]),
        .executable(name: "plistkit", targets: ["plistkit"]),
        // The round-trip oracles of the fuzz targets (Fuzz/), shared with the
        // regression replay tests. Not API for applications.
        .library(name: "FuzzChecks", targets: ["FuzzChecks"]),
        // The benchmark protocol's ActivityCodec side (Benchmarks/README.md).
        .executable(name: "plistkit-bench", targets: ["plistkit-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "PropertyList",
            swiftSettings: strictSettings
        ),
        // libxml2, through pkg-config: its compiler and linker flags, for the
        // bridge below. No Swift module imports it (see CLibXML2Bridge).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // The one C file that calls libxml2, behind a header of plain C types:
        // libxml2's headers include the system ICU's where libxml2 is built with
        // ICU, and those clash with Foundation's ICU module in any Swift module
        // that sees both, so no Swift module (ours or a client's) may load them.
        .target(
            name: "CLibXML2Bridge",
            dependencies: ["CLibXML2"]
        ),
        .target(
            name: "PropertyListXML",
            dependencies: ["PropertyList", "CLibXML2Bridge"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "KeyedArchive",
            dependencies: [
                "PropertyList",
                "PropertyListXML",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ActivityPayload",
            dependencies: ["KeyedArchive", "PropertyList"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FuzzChecks",
            dependencies: ["PropertyList", "PropertyListXML", "KeyedArchive", "ActivityPayload"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plistkit",
            dependencies: [
                "PropertyList",
                "PropertyListXML",
                "KeyedArchive",
                "ActivityPayload",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plistkit-bench",
            dependencies: ["PropertyList", "PropertyListXML", "KeyedArchive"],
            swiftSettings: strictSettings
        ),
        // A peer for the tests: Linux Foundation's reader, in its own process
        // because Foundation traps on some inputs.
        .executableTarget(
            name: "foundation-peer",
            path: "Tests/PeerTools/FoundationPeer"
        ),
        // Helpers shared by the test targets: paths, peers, typed JSON, value generators.
        .target(
            name: "TestSupport",
            dependencies: [
                "PropertyList",
                "KeyedArchive",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "PropertyListTests",
            dependencies: [
                "PropertyList",
                "TestSupport",
                "foundation-peer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PropertyListXMLTests",
            dependencies: [
                "PropertyListXML",
                "PropertyList",
                "TestSupport",
                "foundation-peer",
                "plistkit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: [
                "KeyedArchive",
                "PropertyList",
                "TestSupport",
                "foundation-peer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ActivityPayloadTests",
            dependencies: [
                "ActivityPayload", "KeyedArchive", "PropertyList", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzChecks", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlistkitTests",
            dependencies: [
                "PropertyList", "PropertyListXML", "KeyedArchive", "TestSupport", "plistkit", "foundation-peer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
