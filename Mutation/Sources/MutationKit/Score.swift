import Foundation

/// How one mutant's run ended.
public enum Verdict: String, Sendable {
    /// The run failed (the check found a mismatch, a threshold failed, or it crashed): killed.
    case killed
    /// The run passed: the mutant survived.
    case survived
    /// The run passed, and the mutant is listed as equivalent.
    case equivalent
    /// The run passed, and the mutant is listed as a known open survivor (a workload gap, not equivalent):
    /// reported loudly, but it does not fail the gate.
    case open
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
    /// Survivors listed as known open (Mutation/open-survivors.txt).
    public var open: [MutantResult] { results.filter { $0.verdict == .open } }
    public var timedOut: Int { results.count { $0.verdict == .timedOut } }

    /// The report: the figures, then each survivor with `file:line` and its change.
    public var report: String {
        let judged = results.count - equivalent
        let percent = judged == 0 ? 100 : 100 * Double(killed) / Double(judged)
        var lines = [
            String(
                format: "mutation score: %d mutants, %d killed (%d of them timed out), %d survived, %d equivalent, %d known open (%.1f %% of the non-equivalent killed), %.1f minutes",
                results.count, killed, timedOut, survivors.count, equivalent, open.count, percent, seconds / 60
            )
        ]
        if !open.isEmpty {
            lines.append("KNOWN OPEN survivors (listed in Mutation/open-survivors.txt; each needs a better workload):")
            lines += open.map { "  OPEN \($0.mutant.description)" }
        }
        if !survivors.isEmpty {
            lines.append("survivors (kill each with a better workload, or list it in Mutation/equivalent-mutants.txt with a reason); they fail the gate:")
            lines += survivors.map { "  \($0.mutant.description)" }
        }
        return lines.joined(separator: "\n")
    }
}
