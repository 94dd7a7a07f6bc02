/// The worlds of one simulator, as what both simulators share sees them: a configuration runs to a report
/// (`WorldReport`), and a configuration has smaller ones. The sans-I/O worlds of `simharness simulate` and
/// the seeded worlds of a user's service are the two runners.
@_spi(Tooling) public protocol WorldRunner {
    /// What a world is made from: its seed and its shape.
    associatedtype Configuration: Sendable
    /// What the runner counts in a world besides its steps and crashes.
    associatedtype Counts: WorldCounts

    /// Runs the world of `configuration`; nil when it cannot run at all.
    func run(_ configuration: Configuration) -> WorldReport<Configuration, Counts>?
    /// Worlds smaller than `configuration`, the one most likely to keep a failure first.
    func smaller(than configuration: Configuration) -> [Configuration]
}

extension WorldRunner {
    /// The smallest world found that still breaks the invariant `failing`'s world broke: the first smaller
    /// world that still breaks it is taken and shrunk in turn, until none does or `budget` worlds have run.
    /// A passing world is returned as it is.
    @_spi(Tooling) public func shrink(_ failing: WorldReport<Configuration, Counts>, budget: Int = 400) -> WorldReport<Configuration, Counts> {
        guard let broken = failing.violation?.invariant else { return failing }
        var best = failing, tried = 0, improved = true
        while improved, tried < budget {
            improved = false
            for candidate in smaller(than: best.configuration) where tried < budget {
                tried += 1
                guard let report = run(candidate), report.violation?.invariant == broken else { continue }
                best = report
                improved = true
                break
            }
        }
        return best
    }
}
