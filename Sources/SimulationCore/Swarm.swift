import Dispatch
import Synchronization

/// Many worlds of one simulator: the seeds `from`, `from + 1`, … (`count` of them, or one shard's slice of
/// them), run `tasks` at a time, each alone on a thread while it runs, and their reports folded in seed
/// order as they come. What a swarm finds is the same whatever `tasks` is, and the reports that wait for
/// an earlier seed's are few, whatever the number of worlds: memory stays flat.
@_spi(Tooling) public struct Swarm: Sendable {
    /// The first seed.
    @_spi(Tooling) public var from: UInt64
    /// How many seeds, from `from` on.
    @_spi(Tooling) public var count: Int
    /// Of the seed `from + i`, only those with `i % shard.count == shard.index` run (`--shard k/n`).
    @_spi(Tooling) public var shard: (index: Int, count: Int)
    /// Worlds run side by side (`--tasks`).
    @_spi(Tooling) public var tasks: Int

    /// The `count` seeds from `from`, or shard `shard.index` of `shard.count` of them, `tasks` at a time.
    @_spi(Tooling) public init(from: UInt64, count: Int, shard: (index: Int, count: Int) = (0, 1), tasks: Int) {
        self.from = from
        self.count = count
        self.shard = shard
        self.tasks = max(1, tasks)
    }

    /// The seeds the swarm runs, in order.
    @_spi(Tooling) public var seeds: [UInt64] {
        Swift.stride(from: shard.index, to: count, by: max(1, shard.count)).map { from &+ UInt64($0) }
    }

    /// A worker's events: `starting` hears its number and the seed before the world runs, `finished` its
    /// number after, both on its thread (what names the worlds in progress when the process traps).
    @_spi(Tooling) public struct Watch: Sendable {
        let starting: @Sendable (Int, UInt64) -> Void
        let finished: @Sendable (Int) -> Void

        /// A watch that hears each world's start and end.
        @_spi(Tooling) public init(starting: @escaping @Sendable (Int, UInt64) -> Void, finished: @escaping @Sendable (Int) -> Void) {
            self.starting = starting
            self.finished = finished
        }

        /// A watch that hears nothing.
        @_spi(Tooling) public static let none = Watch(starting: { _, _ in }, finished: { _ in })
    }

    /// Runs the world of each seed (`world`), folding its report into `summary` in seed order; `fold`
    /// returns false to stop, and then no later world is folded and none not yet started starts.
    /// `proceed` is asked before a world starts: once it says no, neither that world nor any later one is
    /// folded. A world that throws stops the swarm, and its error is thrown once the earlier worlds are folded.
    @_spi(Tooling) public func run<Configuration: Sendable, Counts: WorldCounts, Summary: Sendable, Failure: Error>(
        _ world: @escaping @Sendable (UInt64) throws(Failure) -> WorldReport<Configuration, Counts>,
        into summary: Summary,
        fold: @escaping @Sendable (inout Summary, WorldReport<Configuration, Counts>) -> Bool,
        proceed: @escaping @Sendable () -> Bool = { true },
        watch: Watch = .none
    ) throws(Failure) -> Summary {
        let seeds = seeds
        let folding = Mutex(SeedOrder<WorldReport<Configuration, Counts>, Summary, Failure>(summary: summary))
        DispatchQueue.concurrentPerform(iterations: min(tasks, max(1, seeds.count))) { worker in
            for slot in Swift.stride(from: worker, to: seeds.count, by: tasks) {
                guard folding.withLock({ !$0.stopped(before: slot) }) else { return }
                guard proceed() else { return folding.withLock { $0.add(.refused, at: slot, fold) } }
                watch.starting(worker, seeds[slot])
                let outcome = Result { () throws(Failure) in try world(seeds[slot]) }
                watch.finished(worker)
                folding.withLock { $0.add(.ran(outcome), at: slot, fold) }
            }
        }
        let (result, error) = folding.withLock { ($0.summary, $0.error) }
        if let error { throw error }
        return result
    }
}

/// A swarm's reports folded in seed order as they come: the reports folded so far, and those that wait
/// for an earlier seed's.
struct SeedOrder<Report, Summary, Failure: Error> {
    /// What became of a world: its report or its error, or it was not started (`proceed` said no).
    enum Outcome {
        case ran(Result<Report, Failure>)
        case refused
    }

    /// The reports folded so far.
    var summary: Summary
    /// The slot folded next.
    var next = 0
    /// Outcomes that came before an earlier slot's.
    var waiting: [Int: Outcome] = [:]
    /// The slot the swarm stopped at, once it did: later slots are neither run nor folded.
    var stop: Int?
    /// The error of the world the swarm stopped at, if it threw.
    var error: Failure?

    /// Whether `slot` comes after the swarm stopped.
    func stopped(before slot: Int) -> Bool { stop.map { slot > $0 } ?? false }

    /// `slot`'s outcome; it and those that waited for it are folded once every earlier one is.
    mutating func add(_ outcome: Outcome, at slot: Int, _ fold: (inout Summary, Report) -> Bool) {
        guard !stopped(before: slot) else { return }
        waiting[slot] = outcome
        while stop == nil, let outcome = waiting.removeValue(forKey: next) {
            switch outcome {
            case .refused: stop = next
            case .ran(.failure(let failure)): (error, stop) = (failure, next)
            case .ran(.success(let report)): if !fold(&summary, report) { stop = next }
            }
            next += 1
        }
        if stop != nil { waiting.removeAll() }
    }
}
