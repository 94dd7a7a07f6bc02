import CWorldHooks
#if canImport(CWorldInterposers)
// Linked (the default trait WorldInterposers), it gives a world its clocks and randomness.
import CWorldInterposers
#endif
import Foundation
@_spi(Tooling) import SimulationCore
import WorldExecutors

/// What a seeded world ended with.
public struct SeededRun<Value: Sendable>: Sendable {
    /// What the world's body returned or threw.
    public var value: Result<Value, any Error>
    /// Jobs run: each is one stretch of a task between two suspension points.
    public var steps: Int
    /// A hash of every scheduling choice and every jump of virtual time: the same seed gives the same
    /// hash on every run, whatever else the machine does.
    public var traceHash: UInt64
    /// The world's virtual time at its end.
    public var virtualTime: Duration
}

/// Why a seeded world could not be run to its end.
public enum SeededWorldFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// A job reached the world's executor from another thread: something ran outside the world.
    case escaped(String)
    /// Nothing can run, nobody sleeps, and the world's body has not returned.
    case deadlock(String)
    /// More jobs than the limit: a task that never stops yielding.
    case stepLimit(Int)

    /// The failure in words, named as the simulators' catalogue names it: `nondeterminism-escaped: …`,
    /// `deadlock: …` or `step-limit: …`.
    public var description: String { "\(invariant.rawValue): \(detail)" }
}

/// Runs async code under a seeded schedule: one thread, one job at a time, the next job chosen among the
/// runnable ones by the seed, and a virtual clock. Every child task the body starts (task groups, `async let`)
/// and every default actor they call runs on the world's executor, so each seed gives one
/// interleaving, the same on every run: an actor that reads, awaits and writes back loses an update
/// under some seeds and not under others, and always the same ones.
///
/// The world owns every job enqueued on its thread (the process's executors are SimHarness's, installed
/// before `main`): `Task {}`, `Task.detached`, `@MainActor`, `Task.sleep`, the system clocks, `Date()`,
/// `UUID()` and `SystemRandomNumberGenerator` are the world's. What it cannot run fails it as `escaped`,
/// named, in every world that does it: work handed to a `DispatchQueue` or a new thread, a task resumed
/// from a thread the world does not own, the world's gateway or store called from one, a blocking sleep.
/// A world blocks its caller's thread: Swift Testing's parallel tests each run their worlds side by side,
/// one thread each, and the tests waiting on them hold threads of the cooperative pool meanwhile.
public enum SeededWorld {
    /// Runs `body` on a new thread under `seed`'s schedule and waits for its end.
    /// - Parameters:
    ///   - schedule: how the next job is chosen.
    ///   - stepLimit: the most jobs a world may run.
    ///   - expectedSteps: PCT's horizon for its change points (about the jobs a world runs).
    ///   - escapeGrace: how long (real time) an idle world waits for a job from outside before it calls
    ///     the wait a deadlock.
    ///   - onStep: called on the world's thread after each job with the jobs run so far (a fault injector's hook).
    public static func run<Value: Sendable>(
        seed: UInt64, schedule: ScheduleStrategy = .random, stepLimit: Int = 10_000_000, expectedSteps: Int = 2_000,
        escapeGrace: Duration = .milliseconds(100), onStep: (@Sendable (Int) -> Void)? = nil,
        _ body: @escaping @Sendable (VirtualClock) async throws -> Value
    ) throws(SeededWorldFailure) -> SeededRun<Value> {
        let outcome = Outcome<Value>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.result = Driver(
                seed: seed, schedule: schedule, stepLimit: stepLimit, expectedSteps: expectedSteps, escapeGrace: escapeGrace, onStep: onStep
            ).run(body)
            done.signal()
        }
        thread.name = "seeded world"
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return try outcome.result!.get()
    }
}

/// The world thread's hand-over of its result.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    var result: Result<SeededRun<Value>, SeededWorldFailure>?
}

/// The body's value, set by its task on the world's thread (`done` is what the driver's loop reads at each
/// job: a Bool, not a test of the generic optional).
private final class BodyResult<Value: Sendable>: @unchecked Sendable {
    private(set) var done = false
    var value: Result<Value, any Error>? {
        didSet { done = value != nil }
    }
}

/// Runs one world on the current thread.
private struct Driver {
    var seed: UInt64
    var schedule: ScheduleStrategy
    var stepLimit: Int
    var expectedSteps: Int
    var escapeGrace: Duration
    var onStep: (@Sendable (Int) -> Void)?

    func run<Value: Sendable>(_ body: @escaping @Sendable (VirtualClock) async throws -> Value) -> Result<SeededRun<Value>, SeededWorldFailure> {
        let executor = SeededExecutor(seed: seed, strategy: schedule, expectedSteps: expectedSteps)
        // The thread's clocks and randomness: virtual time 0, random bytes from the seed.
        let hooks = executor.hooks
        let timers = Timers(wake: { [unowned executor] job, main in executor.enqueue(job, main: main) }, publishing: hooks)
        executor.timers = timers
        ProcessExecutors.enter(hooks, jobs: executor)
        defer { ProcessExecutors.leave(hooks) }
        let clock = VirtualClock(timers: timers)
        let result = BodyResult<Value>()
        Task(executorPreference: executor) {
            do { result.value = .success(try await body(clock)) } catch { result.value = .failure(error) }
        }
        defer { drain(executor, timers) }
        while !result.done {
            if executor.escapes > 0 { return .failure(escaped(executor, timers)) }
            if executor.runNext() {
                if executor.steps >= stepLimit { return .failure(.stepLimit(executor.steps)) }
                onStep?(executor.steps)
                continue
            }
            if let time = timers.advance() {
                executor.mix(UInt64(time.components.seconds) &* 1_000_000_000 &+ UInt64(time.components.attoseconds / 1_000_000_000))
                continue
            }
            // Idle: a job from outside may still be on its way (a real sleep, a detached task).
            if waitForJob(executor) { return .failure(escaped(executor, timers)) }
            return .failure(.deadlock(
                "no job to run and no sleeper after \(executor.steps) jobs at virtual time \(timers.now), while the world's task waits: "
                    + "on a continuation nobody resumes, or on work outside the world that did not answer within \(escapeGrace) of real time "
                    + "(a DispatchQueue.asyncAfter, a Timer, another thread)"))
        }
        // Work handed out of the world may have answered before the body's task ever waited for it.
        if executor.escapes > 0 { return .failure(escaped(executor, timers)) }
        return .success(SeededRun(value: result.value!, steps: executor.steps, traceHash: executor.traceHash, virtualTime: timers.now))
    }

    /// Waits up to `escapeGrace` of real time (the thread's own clocks read the world's frozen time) for a
    /// job to arrive from outside; true when one did.
    private func waitForJob(_ executor: SeededExecutor) -> Bool {
        let grace = escapeGrace.components
        let until = world_hooks_real_monotonic_ns() + grace.seconds * 1_000_000_000 + grace.attoseconds / 1_000_000_000
        while world_hooks_real_monotonic_ns() < until {
            if executor.escapes > 0 { return true }
            world_hooks_real_sleep_us(1_000)
        }
        return executor.escapes > 0
    }

    private func escaped(_ executor: SeededExecutor, _ timers: Timers) -> SeededWorldFailure {
        let at = "after \(executor.steps) jobs at virtual time \(timers.now)"
        let first = executor.firstEscape
        switch first.kind {
        case Int32(WORLD_HOOKS_CALLED_OUT):
            return .escaped("\(first.what), called from the world's thread \(at): that work runs outside the world, on a thread it does not own")
        case Int32(WORLD_HOOKS_CALLED_FROM):
            return .escaped("\(first.what) \(at): the world's gateway, store and disk answer its own tasks only; that call failed")
        default:
            return .escaped("a task of the world was resumed from \(first.what) \(at): a continuation resumed there, or an actor with its own executor")
        }
    }

    /// Leaves no task of the world suspended on its clock: sleepers are cancelled and what can still run
    /// runs (bounded), so an abandoned world frees its tasks.
    private func drain(_ executor: SeededExecutor, _ timers: Timers) {
        timers.abandon(with: CancellationError())
        var left = stepLimit
        while left > 0, executor.runNext() {
            left -= 1
            if !executor.hasRunnable { timers.abandon(with: CancellationError()) }
        }
    }
}

extension SeededWorld {
    /// Starts this program again, once, with the iteration order of `Set` and `Dictionary` fixed
    /// (`SWIFT_DETERMINISTIC_HASHING=1`, which the runtime reads only at start) and address randomization
    /// off, so that code iterating a set or a dictionary inside a world takes the same path on every run of
    /// a seed. Returns at once when the order is already fixed, or when the program cannot be started again.
    package static func fixHashingOrder() {
        _ = world_hooks_reexec_deterministic(CommandLine.unsafeArgv)
    }
}
