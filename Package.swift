// swift-tools-version:6.1
//
// ActivityCodec: strict, fast codecs for Handoff activity payloads
// (binary and XML property lists, NSKeyedArchiver archives of userInfo values).
//
// One module per layer (Specs/architecture.md draws the graph, and
// ArchitectureTests checks its table against the targets below):
//   PropertyList          values, limits, errors, the binary codec, the byte kit, strict JSON
//   PropertyListXML       the XML codec (libxml2, through CLibXML2Bridge)
//   PropertyListOpenStep  OpenStep text, .strings files and Xcode projects
//   UserInfo              the ten-type userInfo model, Codable
//   TypedJSON             typed JSON, plain JSON
//   KeyedArchive          NSKeyedArchiver archives, profiles
//   MPUserInfo            Apple's "MP" MessagePack userInfo
//   ActivityContainer     Apple's activity container (bzip2 through CBZip2)
//   DocumentFormats       the format layer: detects, reads and writes every format
//   Handoff               activity payloads: container, URLs, versions, budgets
//   plistkit              the command line tool (the BuildInfo plugin: its commit)
// FuzzChecks holds the round-trip oracles of the fuzz package in Fuzz/ and of
// the regression tests; it is no product (Fuzz/Package.swift builds the same
// folder as its own target).
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // ~Escapable readers over RawSpan (the byte kit, Sources/PropertyList/Memory).
    .enableExperimentalFeature("Lifetimes"),
]

let package = Package(
    name: "ActivityCodec",
    products: [
        .library(name: "PropertyList", targets: ["PropertyList"]),
        .library(name: "PropertyListXML", targets: ["PropertyListXML"]),
        .library(name: "PropertyListOpenStep", targets: ["PropertyListOpenStep"]),
        .library(name: "UserInfo", targets: ["UserInfo"]),
        .library(name: "TypedJSON", targets: ["TypedJSON"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .library(name: "MPUserInfo", targets: ["MPUserInfo"]),
        .library(name: "ActivityContainer", targets: ["ActivityContainer"]),
        .library(name: "DocumentFormats", targets: ["DocumentFormats"]),
        .library(name: "Handoff", targets: ["Handoff"]),
        .executable(name: "plistkit", targets: ["plistkit"]),
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
            name: "PropertyListOpenStep",
            dependencies: ["PropertyList"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "UserInfo",
            dependencies: [
                "PropertyList",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TypedJSON",
            dependencies: ["PropertyList", "UserInfo"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "KeyedArchive",
            dependencies: ["PropertyList", "UserInfo"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "MPUserInfo",
            dependencies: ["PropertyList", "UserInfo"],
            swiftSettings: strictSettings
        ),
        // The system libbz2 (Debian's libbz2-dev has no pkg-config file): its
        // header through a module map, linked as `bz2`.
        .systemLibrary(
            name: "CBZip2",
            providers: [.apt(["libbz2-dev"])]
        ),
        .target(
            name: "ActivityContainer",
            dependencies: ["PropertyList", "CBZip2"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DocumentFormats",
            dependencies: ["PropertyList", "PropertyListXML", "PropertyListOpenStep", "UserInfo", "TypedJSON", "KeyedArchive", "MPUserInfo", "ActivityContainer"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "Handoff",
            // The value models, the container's types, and the format layer for every byte read or written.
            dependencies: ["PropertyList", "UserInfo", "ActivityContainer", "DocumentFormats"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "FuzzChecks",
            dependencies: ["PropertyList", "PropertyListXML", "PropertyListOpenStep", "UserInfo", "TypedJSON", "KeyedArchive", "MPUserInfo", "ActivityContainer", "DocumentFormats", "Handoff"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "plistkit",
            // The value models, the format layer and the payload layer: no codec.
            dependencies: [
                "PropertyList",
                "UserInfo",
                "DocumentFormats",
                "Handoff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings,
            plugins: ["BuildInfo"]
        ),
        // The commit `plistkit --version` names, written before each build
        // (asks git; says so when the sources are not a git checkout).
        .plugin(
            name: "BuildInfo",
            capability: .buildTool()
        ),
        .executableTarget(
            name: "plistkit-bench",
            dependencies: ["PropertyList", "UserInfo", "KeyedArchive", "MPUserInfo", "DocumentFormats"],
            swiftSettings: strictSettings
        ),
        // A Handoff app's own path (Codable state ↔ wire bytes), ours beside
        // Foundation's coders in one process (Benchmarks/README.md, "Codable").
        .executableTarget(
            name: "codable-bench",
            dependencies: ["UserInfo", "KeyedArchive", "MPUserInfo", "Handoff"],
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
                "UserInfo",
                "TypedJSON",
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
            name: "UserInfoTests",
            dependencies: ["UserInfo", "KeyedArchive", "PropertyList", "TestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "TypedJSONTests",
            dependencies: ["TypedJSON", "UserInfo", "PropertyList", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "KeyedArchiveTests",
            dependencies: [
                "KeyedArchive",
                "UserInfo",
                "TypedJSON",
                "PropertyList",
                "TestSupport",
                "foundation-peer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // Repository checks: Specs/errors.md against the errors files and the tests.
        .testTarget(
            name: "SpecsTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DocumentFormatsTests",
            dependencies: [
                "DocumentFormats", "KeyedArchive", "UserInfo", "PropertyList", "PropertyListXML", "PropertyListOpenStep", "TypedJSON", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PropertyListOpenStepTests",
            dependencies: ["PropertyListOpenStep", "PropertyList", "TestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "MPUserInfoTests",
            dependencies: ["MPUserInfo", "KeyedArchive", "UserInfo", "TypedJSON", "PropertyList", "TestSupport", "FuzzChecks",
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ActivityContainerTests",
            dependencies: ["ActivityContainer", "PropertyList", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HandoffTests",
            dependencies: [
                "Handoff", "DocumentFormats", "KeyedArchive", "MPUserInfo", "ActivityContainer", "UserInfo", "TypedJSON", "PropertyList", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzChecks", "DocumentFormats", "PropertyList", "PropertyListXML", "PropertyListOpenStep", "UserInfo", "MPUserInfo", "ActivityContainer", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "RealWorldTests",
            dependencies: [
                "PropertyList", "PropertyListXML", "PropertyListOpenStep", "KeyedArchive", "DocumentFormats", "TestSupport",
                "plistkit", "foundation-peer",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "PlistkitTests",
            dependencies: [
                "PropertyList", "PropertyListXML", "UserInfo", "TypedJSON", "KeyedArchive", "DocumentFormats",
                "TestSupport", "plistkit", "foundation-peer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
