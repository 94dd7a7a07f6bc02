import Foundation
import Synchronization

/// Runs the generated executable once per mutant and judges each run.
public struct MutantRunner: Sendable {
    /// The built `simharness-mutants`.
    public var executable: String
    /// The `run` command's arguments (`run --scenario edges …`).
    public var arguments: [String]
    /// Runs at once.
    public var jobs: Int
    /// A run longer than this is killed, and so is its mutant.
    public var timeoutSeconds: Int

    public init(executable: String, arguments: [String], jobs: Int, timeoutSeconds: Int) {
        self.executable = executable
        self.arguments = arguments
        self.jobs = jobs
        self.timeoutSeconds = timeoutSeconds
    }

    /// The exit status of one run with mutant `id` active (0: none); `log` receives its output.
    public func status(ofMutant id: Int, log: String = "/dev/null") throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "\(timeoutSeconds)", executable] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SIMHARNESS_MUTANT"] = String(id)
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Runs every mutant of `mutants`, `jobs` at a time; `progress` is told each result as it comes.
    public func run(_ mutants: [Mutant], equivalents: Equivalents, progress: @Sendable (MutantResult) -> Void) -> [MutantResult] {
        let results = Mutex<[Int: MutantResult]>([:])
        let next = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, mutants.count))) { _ in
            while true {
                let index = next.withLock { value -> Int in
                    defer { value += 1 }
                    return value
                }
                guard index < mutants.count else { return }
                let mutant = mutants[index]
                let status = (try? status(ofMutant: mutant.id)) ?? -1
                let verdict: Verdict =
                    status == 0 ? (equivalents.contains(mutant) ? .equivalent : .survived) : status == 137 || status == 124 ? .timedOut : .killed
                let result = MutantResult(mutant: mutant, verdict: verdict, status: status)
                progress(result)
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { all in (0..<mutants.count).compactMap { all[$0] } }
    }
}
