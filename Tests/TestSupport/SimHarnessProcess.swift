import Foundation

/// Runs the built `simharness` executable as a child process, with this process's environment
/// (so a coverage build's children write their profiles too) and `NO_COLOR` set.
public enum SimHarnessProcess {
    /// The executable beside the test bundle.
    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("simharness")
    }

    /// The environment children run with.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// Runs `simharness` with `arguments` to its end, with `extraEnvironment` added to the environment.
    public static func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { _, extra in extra }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}
