import Foundation

/// How one mutant's run ended.
public enum Verdict: String, Sendable {
    /// The run failed (the check found a mismatch, a threshold failed, or it crashed): killed.
    case killed
    /// The run passed: the mutant survived.
    case survived
    /// The run passed, and the mutant is listed as equivalent.
    case equivalent
    /// The run did not end in time: killed.
    case timedOut = "timed out"
}

/// A mutant's run: its verdict and the run's exit status.
public struct MutantResult: Sendable {
    public var mutant: Mutant
    public var verdict: Verdict
    public var status: Int32

    public init(mutant: Mutant, verdict: Verdict, status: Int32) {
        self.mutant = mutant
        self.verdict = verdict
        self.status = status
    }
}

/// The score of a set of mutant runs.
public struct Score: Sendable {
    public var results: [MutantResult]
    public var seconds: Double

    public init(results: [MutantResult], seconds: Double) {
        self.results = results
        self.seconds = seconds
    }

    public var killed: Int { results.count { $0.verdict == .killed || $0.verdict == .timedOut } }
    public var survivors: [MutantResult] { results.filter { $0.verdict == .survived } }
    public var equivalent: Int { results.count { $0.verdict == .equivalent } }
    public var timedOut: Int { results.count { $0.verdict == .timedOut } }

    /// The report: the figures, then each survivor with `file:line` and its change.
    public var report: String {
        let judged = results.count - equivalent
        let percent = judged == 0 ? 100 : 100 * Double(killed) / Double(judged)
        var lines = [
            String(
                format: "mutation score: %d mutants, %d killed (%d of them timed out), %d survived, %d equivalent (%.1f %% of the non-equivalent killed), %.1f minutes",
                results.count, killed, timedOut, survivors.count, equivalent, percent, seconds / 60
            )
        ]
        if !survivors.isEmpty {
            lines.append("survivors (kill each with a better workload, or list it in Mutation/equivalent-mutants.txt with a reason):")
            lines += survivors.map { "  \($0.mutant.description)" }
        }
        return lines.joined(separator: "\n")
    }
}
