import Foundation

/// The repository root (for `Scenarios/` and `Sources/Scenarios/EmbeddedScenarios.swift`).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
