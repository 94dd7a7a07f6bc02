// swift-tools-version: 6.1
import PackageDescription

// An app's own async payment service (an actor behind repository and gateway protocols, as the Swift
// testing guides shape it), put under SimHarness's deterministic simulation with nine planted bugs.
let package = Package(
    name: "PaymentServiceUnderTest",
    platforms: [.macOS(.v15)],
    dependencies: [
        // In your app: .package(url: "https://github.com/OWNER/SimHarness", from: "…")
        .package(name: "SimHarness", path: "../.."),
    ],
    targets: [
        // Your own code: no SimHarness import.
        .target(name: "PaymentServiceCore"),
        // The adapters to the simulated gateway and store, and `simulate`.
        .executableTarget(name: "payment-sim", dependencies: ["PaymentServiceCore", .product(name: "SimHarnessKit", package: "SimHarness")]),
    ],
    swiftLanguageModes: [.v6]
)
