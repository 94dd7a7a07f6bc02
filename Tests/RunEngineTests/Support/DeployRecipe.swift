import Foundation
import TestSupport

/// What the tests of the recipes in `deploy/` share: where they are, and a shell that runs their
/// commands as a pod or a CI runner would, with the built `simharness` first on the PATH.
enum DeployRecipe {
    /// The `deploy/` folder.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../deploy").standardized

    /// Runs `script` with `/bin/sh -c` in `directory`, `simharness` first on the PATH.
    static func shell(_ script: String, environment: [String: String], in directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var all = SimHarnessProcess.environment.merging(environment) { _, new in new }
        all["PATH"] = SimHarnessProcess.executable.deletingLastPathComponent().path + ":" + (all["PATH"] ?? "/usr/bin:/bin")
        process.environment = all
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
