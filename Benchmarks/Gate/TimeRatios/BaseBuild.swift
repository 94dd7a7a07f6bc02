import Foundation

/// Another build of this tool, the base commit's (`scripts/perf-gate.sh` builds it), serving rounds of the same
/// workloads on this machine (`TimeRatios serve`), one at a time, so that each round of this build has a round
/// of the base build beside it. The host's speed and its neighbours then weigh on both sides alike, which ratios
/// recorded on another day cannot promise: on the same model of processor, a week apart, unchanged core
/// workloads read +17 % to +84 % over their recorded ratios (docs/performance.md).
final class BaseBuild {
    private let process = Process()
    private let requests = Pipe()
    private let answers = Pipe()
    private var buffered = Data()

    /// Starts `executable serve` (without an injected regression: that is this build's alone).
    init(executable: String) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["SIMHARNESS_INJECT_REGRESSION"] = nil
        process.environment = environment
        process.standardInput = requests
        process.standardOutput = answers
        try process.run()
    }

    deinit {
        try? requests.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One round of the workload `name` in the base build; nil when it has no such workload.
    func round(of name: String, referenceFirst: Bool) throws -> Round? {
        try requests.fileHandleForWriting.write(contentsOf: Data("\(name) \(referenceFirst ? 1 : 0)\n".utf8))
        let fields = try answer().split(separator: " ").compactMap { Double($0) }
        guard fields.count == 3 else { return nil }
        return Round(cpuRatio: fields[0], wallRatio: fields[1], referenceSpeed: fields[2])
    }

    private func answer() throws -> String {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffered.removeSubrange(...end) }
                return String(decoding: buffered[..<end], as: UTF8.self)
            }
            let more = answers.fileHandleForReading.availableData  // what the pipe holds, once it holds something
            guard !more.isEmpty else {
                throw BaseBuildFailed(executable: process.executableURL!.path)
            }
            buffered += more
        }
    }
}

/// The base build ended before it answered.
struct BaseBuildFailed: Error, CustomStringConvertible {
    var executable: String
    var description: String { "the base build \(executable) ended without answering (is it a TimeRatios with `serve`?)" }
}

/// `TimeRatios serve`: reads `WORKLOAD REFERENCE_FIRST` lines, runs one round of each, and answers
/// `CPU_RATIO WALL_RATIO REFERENCE_SPEED`, or `unknown` for a workload it does not have, until its input ends.
func serve(_ workloads: [(name: String, run: @Sendable () throws -> UInt64)]) throws {
    var timers: [String: RoundTimer] = [:]
    while let line = readLine() {
        let fields = line.split(separator: " ")
        guard fields.count == 2, let workload = workloads.first(where: { $0.name == fields[0] }) else {
            FileHandle.standardOutput.write(Data("unknown\n".utf8))
            continue
        }
        var timer = timers[workload.name] ?? RoundTimer(injected: InjectedTime(), run: workload.run)
        let round = try timer.round(referenceFirst: fields[1] == "1")
        timers[workload.name] = timer
        FileHandle.standardOutput.write(Data("\(round.cpuRatio) \(round.wallRatio) \(round.referenceSpeed)\n".utf8))
    }
}
