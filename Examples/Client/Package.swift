// swift-tools-version:6.1
//
// A client of ActivityCodec, as an application would be: it imports Foundation
// together with every public module and calls each. CI builds it in debug and
// release and runs it (Specs/architecture.md, "Clients"): a module that makes a
// client's build depend on the machine's headers (libxml2 built with ICU
// against Foundation's own ICU) fails here first. Like the main package, it
// declares no platform: Linux is what builds and is tested (README.md says so
// under its first commands).
import PackageDescription

let package = Package(
    name: "Client",
    dependencies: [
        .package(name: "ActivityCodec", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Client",
            dependencies: [
                .product(name: "PropertyList", package: "ActivityCodec"),
                .product(name: "PropertyListXML", package: "ActivityCodec"),
                .product(name: "PropertyListOpenStep", package: "ActivityCodec"),
                .product(name: "UserInfo", package: "ActivityCodec"),
                .product(name: "TypedJSON", package: "ActivityCodec"),
                .product(name: "KeyedArchive", package: "ActivityCodec"),
                .product(name: "MPUserInfo", package: "ActivityCodec"),
                .product(name: "ActivityContainer", package: "ActivityCodec"),
                .product(name: "DocumentFormats", package: "ActivityCodec"),
                .product(name: "Handoff", package: "ActivityCodec"),
            ]
        ),
    ]
)
