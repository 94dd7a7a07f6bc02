// swift-tools-version: 6.1
import PackageDescription

// An app's own fasting analyzer, load-tested and checked against the SPEC reference by SimHarness.
let package = Package(
    name: "CustomAnalyzer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your app: .package(url: "https://github.com/OWNER/SimHarness", from: "…")
        .package(name: "SimHarness", path: "../.."),
    ],
    targets: [
        .target(name: "WindowFasting", dependencies: [.product(name: "SimHarnessKit", package: "SimHarness")]),
        .executableTarget(name: "load-window", dependencies: ["WindowFasting", .product(name: "SimHarnessKit", package: "SimHarness")]),
        .executableTarget(name: "load-window-buggy", dependencies: ["WindowFasting", .product(name: "SimHarnessKit", package: "SimHarness")]),
    ],
    swiftLanguageModes: [.v6]
)
