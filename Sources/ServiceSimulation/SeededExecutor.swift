import CWorldHooks
import Foundation
import PaymentsCore
import WorldExecutors

/// How a seeded world chooses the next job among the runnable ones.
public enum ScheduleStrategy: Sendable, Hashable, CustomStringConvertible {
    /// Uniformly at random.
    case random
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): every task gets a random
    /// priority, the runnable job of the highest priority runs, and at `changePoints` random steps the
    /// running task drops below every other. A bug that needs `changePoints + 1` ordering constraints
    /// is found with a probability bounded below, where uniform choice can make it vanishingly rare.
    case pct(changePoints: Int)

    /// `random` or `pct:D`, as `--schedule` reads it.
    public var description: String {
        switch self {
        case .random: "random"
        case .pct(let d): "pct:\(d)"
        }
    }

    /// Reads `random`, `pct` (3 change points) or `pct:D`.
    public init?(_ text: String) {
        switch text {
        case "random": self = .random
        case "pct": self = .pct(changePoints: 3)
        case let text where text.hasPrefix("pct:"):
            guard let d = Int(text.dropFirst(4)), (0...64).contains(d) else { return nil }
            self = .pct(changePoints: d)
        default: return nil
        }
    }
}

/// The one-thread executor of a seeded world: every job of the world is queued here, and the world's
/// thread runs them one at a time, in the order the seed chooses. That is every job enqueued on the world's
/// thread: its structured tasks (their executor preference), `Task {}` and `Task.detached`, default actors
/// and the main actor (the process's executors route them here, `WorldExecutors`). A job of the world
/// enqueued from any other thread is nondeterminism escaping the world: it is kept (never run), the thread
/// is named, and the world fails. The queue is the world thread's alone, so the hot path takes no lock.
final class SeededExecutor: TaskExecutor, WorldJobs, @unchecked Sendable {
    private var runnable: [Runnable] = []
    /// The world thread's hooks: its clocks, random bytes and escapes, and the jobs this world queued (a
    /// job enqueued from outside is the world's when it is there). Held from the executor's start to its end.
    let hooks: UnsafeMutablePointer<world_hooks_state>
    /// This world's generation of `hooks` (an escape noted after the world ended is dropped).
    private let generation: UInt64
    private var generator: SplitMix64
    private let strategy: ScheduleStrategy
    private let thread: pthread_t
    /// Sleeping jobs (`Task.sleep`) go to the world's timers.
    var timers: Timers?
    /// PCT: each task's priority (by the runtime's task id), and the steps at which the running task is demoted.
    private var priorities: [UInt64: Int] = [:]
    private var changeSteps: [Int] = []
    private var nextLowPriority = 0
    /// Jobs run so far.
    private(set) var steps = 0
    /// A hash of every choice made: the same seed gives the same hash, run after run.
    private(set) var traceHash: UInt64 = 0xCBF2_9CE4_8422_2325

    private struct Runnable {
        var job: UnownedJob
        /// The task it belongs to (the runtime's task id, never reused; 0 for an actor's own job): PCT's
        /// priorities are keyed by it, drawn in the order tasks are first seen, so the same in every run.
        var task: UInt64
        /// A main-actor job: it runs isolated to the main actor.
        var main: Bool
    }

    /// An executor for the world running on the calling thread.
    init(seed: UInt64, strategy: ScheduleStrategy, expectedSteps: Int) {
        generator = SplitMix64(seed: seed)
        self.strategy = strategy
        thread = pthread_self()
        hooks = world_hooks_acquire(seed ^ 0x5EED_0F00_0000_0000)
        generation = world_hooks_generation(hooks)
        runnable.reserveCapacity(64)
        if case .pct(let d) = strategy {
            changeSteps = (0..<d).map { _ in 1 + Int(generator.next() % UInt64(max(1, expectedSteps))) }.sorted()
            nextLowPriority = -1
        }
    }

    deinit { world_hooks_release(hooks) }

    /// A job of a task whose executor preference is this world's.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        guard pthread_equal(thread, pthread_self()) != 0 else {
            let task = taskID(of: unowned) == 0 ? nil : UnsafeRawPointer(bitPattern: unsafeBitCast(unowned, to: Int.self))
            return _ = world_hooks_note_foreign_job(hooks, generation, task)
        }
        enqueue(unowned, main: false)
    }

    /// A job enqueued on the world's thread through the process's executors.
    func enqueue(_ job: UnownedJob, main: Bool) {
        let task = taskID(of: job)
        world_hooks_note_job(hooks, UInt(bitPattern: unsafeBitCast(job, to: Int.self)), task)
        runnable.append(Runnable(job: job, task: task, main: main))
    }

    /// A sleeping job: the world's timers wake it.
    func enqueue(_ job: UnownedJob, main: Bool, after delay: Duration) {
        guard let timers else { return enqueue(job, main: main) }
        timers.schedule(job, main: main, after: delay)
    }

    /// Escapes so far: jobs of the world enqueued from outside, work its thread handed out.
    var escapes: Int { Int(world_hooks_escapes(hooks)) }

    /// The first escape: what it was, and its kind (`WORLD_HOOKS_CALLED_OUT`, `_RESUMED_FROM`, `_CALLED_FROM`).
    var firstEscape: (what: String, kind: Int32) {
        var text = [CChar](repeating: 0, count: Int(WORLD_HOOKS_ESCAPE_TEXT))
        let kind = world_hooks_first_escape(hooks, &text, text.count)
        return (String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), kind)
    }

    /// Whether a job is waiting to run.
    var hasRunnable: Bool { !runnable.isEmpty }

    /// Runs the job the seed chooses; false when none is runnable.
    func runNext() -> Bool {
        guard !runnable.isEmpty else { return false }
        let index = choose()
        let chosen = runnable[index]
        runnable[index] = runnable[runnable.count - 1]
        runnable.removeLast()
        steps += 1
        mix(UInt64(index) &+ UInt64(truncatingIfNeeded: steps) << 32)
        if chosen.main {
            chosen.job.runSynchronously(isolatedTo: ProcessExecutors.mainActorExecutor, taskExecutor: asUnownedTaskExecutor())
        } else {
            chosen.job.runSynchronously(on: asUnownedTaskExecutor())
        }
        return true
    }

    /// Adds `value` to the trace hash (the clock adds each jump of virtual time).
    func mix(_ value: UInt64) {
        traceHash = (traceHash ^ value) &* 0x0000_0100_0000_01B3
    }

    /// The index of the next job.
    private func choose() -> Int {
        switch strategy {
        case .random:
            return Int(generator.next() % UInt64(runnable.count))
        case .pct:
            var best = 0
            var bestPriority = Int.min
            for (index, entry) in runnable.enumerated() {
                let priority = priority(of: entry.task)
                if priority > bestPriority { (best, bestPriority) = (index, priority) }
            }
            if let next = changeSteps.first, steps + 1 >= next {
                changeSteps.removeFirst()
                priorities[runnable[best].task] = nextLowPriority
                nextLowPriority -= 1
            }
            return best
        }
    }

    /// A task's PCT priority, drawn when it is first seen (an actor's own job gets a fresh one each time).
    private func priority(of task: UInt64) -> Int {
        if let known = priorities[task] { return known }
        let drawn = Int(generator.next() >> 2)
        if task != 0 { priorities[task] = drawn }
        return drawn
    }
}
