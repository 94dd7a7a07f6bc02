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

    /// The exit status of one run with mutant `id` active (0: none; 128 + N: killed by signal N);
    /// `log` (a file it creates) receives its output, else it is dropped. (posix_spawn and waitpid: Foundation's `Process` can miss the end
    /// of a child waited for off the main thread.)
    public func status(ofMutant id: Int, log: String? = nil) throws -> Int32 {
        let arguments = ["/usr/bin/timeout", "-s", "KILL", "\(timeoutSeconds)", executable] + self.arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SIMHARNESS_MUTANT"] = String(id)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let log {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)  // never created or truncated
        }
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, envp)
        guard spawned == 0 else { throw MutationError("could not start \(executable): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw MutationError("waitpid failed: errno \(errno)") }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Runs every mutant of `mutants`, `jobs` at a time; a survivor listed in `equivalents` is equivalent, one listed
    /// in `open` is a known open survivor; `progress` is told each result as it comes.
    public func run(_ mutants: [Mutant], equivalents: Equivalents, open: Equivalents, progress: @Sendable (MutantResult) -> Void) -> [MutantResult] {
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
                    status == 0 ? Self.survivor(mutant, equivalents: equivalents, open: open) : status == 137 || status == 124 ? .timedOut : .killed
                let result = MutantResult(mutant: mutant, verdict: verdict, status: status)
                progress(result)
                results.withLock { $0[index] = result }
            }
        }
        return results.withLock { all in (0..<mutants.count).compactMap { all[$0] } }
    }

    /// The verdict of a mutant whose run passed: equivalent, known open, or a survivor (which fails the gate).
    public static func survivor(_ mutant: Mutant, equivalents: Equivalents, open: Equivalents) -> Verdict {
        equivalents.contains(mutant) ? .equivalent : open.contains(mutant) ? .open : .survived
    }
}
