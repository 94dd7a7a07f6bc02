import Testing
import Foundation
@_spi(Tooling) import Generation

func read(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

func lines(_ path: String) -> [Substring] {
    String(decoding: read(path), as: UTF8.self).split(separator: "\n")
}

/// The repository root (for `Scenarios/` and the golden files).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

/// The committed file `Tests/GenerationTests/Golden/<name>`, to compare `actual` with. With
/// `SIMHARNESS_RECORD=1` in the environment, `actual` is written first and the test fails with a
/// note to run it again: recording never makes a test pass.
func golden(_ name: String, _ actual: String) -> String {
    let path = repositoryRoot + "/Tests/GenerationTests/Golden/" + name
    if ProcessInfo.processInfo.environment["SIMHARNESS_RECORD"] == "1" {
        try? actual.write(toFile: path, atomically: true, encoding: .utf8)
        Issue.record("recorded Golden/\(name): run the tests again without SIMHARNESS_RECORD to check it")
    }
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<missing golden file \(name)>"
}
