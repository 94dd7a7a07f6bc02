import CWorldHooks
import Foundation
import WorldExecutors
import Synchronization

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
    /// Jobs that arrived from another thread (atomic: written there, read by the world's thread).
    private let escapedJobs = Atomic<Int>(0)
    /// The thread the first escaped job came from.
    private let firstEscapeThread = Mutex<String?>(nil)
    /// The world thread's hooks (its clocks, random bytes and escapes), and where the jobs this world
    /// queued are noted by address: a job enqueued from outside is the world's when its address is there.
    /// Owned here, so a thread that found this world among the live ones can still read them.
    let hooks: UnsafeMutablePointer<world_hooks_state>
    private var generator: SplitMix
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
        /// The task it belongs to (PCT only: the runtime's task id; 0 for an actor's own job).
        var task: UInt64
        /// A main-actor job: it runs isolated to the main actor.
        var main: Bool
    }

    /// An executor for the world running on the calling thread.
    init(seed: UInt64, strategy: ScheduleStrategy, expectedSteps: Int) {
        generator = SplitMix(seed: seed)
        self.strategy = strategy
        thread = pthread_self()
        hooks = .allocate(capacity: 1)
        hooks.initialize(to: world_hooks_state())
        hooks.pointee.random = seed ^ 0x5EED_0F00_0000_0000
        runnable.reserveCapacity(64)
        if case .pct(let d) = strategy {
            changeSteps = (0..<d).map { _ in 1 + Int(generator.next() % UInt64(max(1, expectedSteps))) }.sorted()
            nextLowPriority = -1
        }
    }

    deinit { hooks.deallocate() }

    /// A job of a task whose executor preference is this world's.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        guard pthread_equal(thread, pthread_self()) != 0 else {
            return escape(from: ProcessExecutors.currentThreadName())
        }
        enqueue(unowned, main: false)
    }

    /// A job enqueued on the world's thread through the process's executors.
    func enqueue(_ job: UnownedJob, main: Bool) {
        let task = strategy == .random ? 0 : Self.taskID(of: job)
        world_hooks_note_job(hooks, UInt(bitPattern: unsafeBitCast(job, to: Int.self)))
        runnable.append(Runnable(job: job, task: task, main: main))
    }

    /// A sleeping job: the world's timers wake it.
    func enqueue(_ job: UnownedJob, main: Bool, after delay: Duration) {
        guard let timers else { return enqueue(job, main: main) }
        timers.schedule(job, main: main, after: delay)
    }

    func adoptEscaped(_ job: UnownedJob, from thread: String) -> Bool {
        guard world_hooks_knows_job(hooks, UInt(bitPattern: unsafeBitCast(job, to: Int.self))) != 0 else { return false }
        escape(from: thread)
        return true
    }

    private func escape(from thread: String) {
        firstEscapeThread.withLock { first in if first == nil { first = thread } }
        escapedJobs.add(1, ordering: .releasing)
    }

    /// Jobs enqueued from outside the world's thread so far.
    var escaped: Int { escapedJobs.load(ordering: .acquiring) }

    /// The thread (or dispatch queue) the first escaped job came from.
    var firstEscape: String? { firstEscapeThread.withLock { $0 } }

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

    /// The runtime's id of the task a job resumes (`ExecutorJob(id: 5)`), 0 for an actor's own job. Task ids
    /// are never reused, so a priority drawn on first sight is the same in every run of the seed.
    private static func taskID(of job: UnownedJob) -> UInt64 {
        let text = job.description
        guard let open = text.firstIndex(of: ":"), let close = text.lastIndex(of: ")") else { return 0 }
        return UInt64(text[text.index(after: open)..<close].trimmingCharacters(in: .whitespaces)) ?? 0
    }
}

/// SplitMix64: the seeded generator of the world's choices.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
