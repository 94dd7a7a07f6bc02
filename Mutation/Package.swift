// swift-tools-version: 6.1
// The mutation tool (docs/mutation.md), a package of its own so that the main package and its users
// never build swift-syntax. Run from the repository root: `scripts/mutation-gate.sh` or
// `swift run --package-path Mutation simharness-mutate --help`.
import PackageDescription

let package = Package(
    name: "SimHarnessMutation",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .target(
            name: "MutationKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftOperators", package: "swift-syntax"),
            ]
        ),
        .executableTarget(name: "simharness-mutate", dependencies: ["MutationKit"]),
        .testTarget(name: "MutationKitTests", dependencies: ["MutationKit"]),
    ],
    swiftLanguageModes: [.v6]
)
