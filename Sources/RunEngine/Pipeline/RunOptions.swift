@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import RunResults
import SpecKernel
import UserAlgorithms

/// How to run a plan.
package struct RunOptions: Sendable {
    /// Partitions, each a child task that generates and analyzes its batches.
    package var tasks: Int
    /// Overrides the scenario's seed.
    package var seed: UInt64?
    /// Run only the users with `index % shardCount == shard`.
    package var shard = 0
    /// The number of shards the users are split into.
    package var shardCount = 1
    /// Time each batch (the latency histograms); off, to measure what timing costs.
    package var timing = true
    /// Write the SPEC output files there, as `analyze` would (fixed load only).
    package var outputDirectory: String?
    /// `min_fast` of SPEC §2, in seconds.
    package var minimumFastSeconds = FastingConfiguration.defaultMinimumFast
    /// `max_attempts` of SPEC §4.
    package var maxAttempts = RetryPolicy.defaultMaxAttempts
    /// Called on a monitoring task every `progressInterval` while the run goes.
    package var onProgress: (@Sendable (RunProgress) -> Void)?
    /// How often `onProgress` is called.
    package var progressInterval = Duration.milliseconds(250)
    /// Sample resident memory and CPU time this often (for `rss_slope_mb_per_min` and the charts
    /// over time); nil: never.
    package var rssSampleInterval: Duration?
    /// The length of an interval of the result's time series (`RunResult.series`).
    package var interval = Duration.seconds(1)
    /// Called by a partition's task after each batch with that batch's events.
    package var onBatch: (@Sendable (Int) -> Void)?
    /// The implementations to load-test (the SPEC reference's by default).
    package var implementations = Implementations.reference
    /// After the timed run, check the implementations against the reference on this share of the
    /// users (0 < share <= 1), outside the timed part; nil: no check.
    package var checkSample: Double?
    /// Generate one pass of batches before the run and replay them, so that the run measures the
    /// algorithms alone (`--replay`).
    package var replay = false
    /// Mismatches the check lists one by one (all of them are counted).
    package var checkListed = 20

    /// Options of a run on `tasks` partitions, the rest at their defaults.
    package init(tasks: Int) {
        self.tasks = tasks
    }
}

/// What a running run has done so far.
package struct RunProgress: Sendable {
    /// Time since the run started.
    package var elapsed: Duration
    /// Events analyzed so far.
    package var events: Int
    /// Users analyzed so far.
    package var users: Int
    /// Users of one pass (the whole run for the fixed model).
    package var usersPerPass: Int
    /// When the run ends by time (nil for the fixed model).
    package var timeLimit: Duration?
}

/// A run that could not go on (an output file could not be written).
package struct RunFailure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    package var message: String
    /// The message.
    package var description: String { message }
}

/// A run that cannot start as asked.
package struct RunConfigurationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What cannot be done, and why.
    package var message: String
    /// The message.
    package var description: String { message }
}
