// The one module that touches Swift 6.3's experimental executor SPI (`_createExecutors`, `ExecutorFactory`,
// `MainExecutor`, `SchedulingExecutor`): ExecutorSPIShapeTests fails when its shape changes.
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
import CWorldHooks

/// A seeded world's queue of jobs, as the process's default and main executors see it.
package protocol WorldJobs: AnyObject, Sendable {
    /// A job enqueued on the world's thread; `main` when it is the main actor's.
    func enqueue(_ job: UnownedJob, main: Bool)
    /// A job to run once the world's time has moved on by `delay` (`Task.sleep`, a clock's sleep).
    func enqueue(_ job: UnownedJob, main: Bool, after delay: Duration)
}

/// The runtime's id of `job`'s task (0 for a job that is not a task's): ids are never reused.
@_silgen_name("swift_task_getJobTaskId")
package func taskID(of job: UnownedJob) -> UInt64

/// The process's default and main executors, installed before `main` runs (by a constructor of
/// `CWorldHooks`): a job enqueued on a world's thread joins that world's queue, a job of a world enqueued
/// from any other thread is an escape the world reports, and every other job goes to the platform's
/// executors as if nothing were installed (the harness's own work).
package enum ProcessExecutors {
    /// Whether the process's executors are these (false when something else installed its own first).
    package static var installed: Bool { Task.defaultExecutor === DefaultRouter.shared }

    /// The main actor's executor: a world runs a main-actor job isolated to it.
    package static var mainActorExecutor: UnownedSerialExecutor { MainRouter.shared.asUnownedSerialExecutor() }

    /// Makes the calling thread a world's: its jobs, clocks and randomness are `state`'s until `leave`.
    package static func enter(_ state: UnsafeMutablePointer<world_hooks_state>, jobs: any WorldJobs) {
        state.pointee.world = Unmanaged.passRetained(WorldPort(jobs)).toOpaque()
        world_hooks_enter(state)
    }

    /// The calling thread leaves its world.
    package static func leave(_ state: UnsafeMutablePointer<world_hooks_state>) {
        world_hooks_enter(nil)
        if let port = state.pointee.world { Unmanaged<WorldPort>.fromOpaque(port).release() }
        state.pointee.world = nil
    }

    /// Where the calling thread's jobs go: its world's queue, or nil off a world.
    @inline(__always) static var currentWorld: WorldPort? {
        guard let port = world_hooks_current()?.pointee.world else { return nil }
        return Unmanaged<WorldPort>.fromOpaque(port).takeUnretainedValue()
    }
}

/// The world behind a thread (a class, so the hot path reads one pointer and makes one protocol call).
final class WorldPort {
    let jobs: any WorldJobs
    init(_ jobs: any WorldJobs) { self.jobs = jobs }
}

/// The delay from now to `instant` on `clock` (read on the world's thread: its virtual time).
private func delay<C: Clock>(to instant: C.Instant, on clock: C) -> Duration {
    let remaining = clock.now.duration(to: instant)
    return (remaining as? Duration) ?? .zero
}

/// Where a job goes: its world's queue on a world's thread; kept by its world as an escape when a world
/// queued it before; else the platform's executor (`main` tells the main actor's jobs apart).
private func route(_ job: consuming ExecutorJob, main: Bool, to platform: any Executor) {
    if let world = ProcessExecutors.currentWorld { return world.jobs.enqueue(UnownedJob(job), main: main) }
    let unowned = UnownedJob(job)
    // A job of a live world enqueued from a thread no world owns: the world keeps it as an escape.
    if world_hooks_any_live() != 0, world_hooks_adopt_foreign(UInt(bitPattern: unsafeBitCast(unowned, to: Int.self)), taskID(of: unowned)) != 0 {
        return
    }
    platform.enqueue(ExecutorJob(unowned))
}

/// The same for a job that sleeps until `instant` on `clock`.
private func route<C: Clock>(_ job: consuming ExecutorJob, main: Bool, at instant: C.Instant, tolerance: C.Duration?, clock: C, to platform: any Executor) {
    if let world = ProcessExecutors.currentWorld { return world.jobs.enqueue(UnownedJob(job), main: main, after: delay(to: instant, on: clock)) }
    (platform as! any SchedulingExecutor).enqueue(job, at: instant, tolerance: tolerance, clock: clock)
}

/// The same for a job that sleeps for `delay` on `clock`.
private func route<C: Clock>(_ job: consuming ExecutorJob, main: Bool, after delay: C.Duration, tolerance: C.Duration?, clock: C, to platform: any Executor) {
    if let world = ProcessExecutors.currentWorld { return world.jobs.enqueue(UnownedJob(job), main: main, after: (delay as? Duration) ?? .zero) }
    (platform as! any SchedulingExecutor).enqueue(job, after: delay, tolerance: tolerance, clock: clock)
}

/// The process's default executor.
final class DefaultRouter: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    static let shared = DefaultRouter()
    private let platform = PlatformExecutorFactory.defaultExecutor

    func enqueue(_ job: consuming ExecutorJob) { route(job, main: false, to: platform) }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        route(job, main: false, at: instant, tolerance: tolerance, clock: clock, to: platform)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        route(job, main: false, after: delay, tolerance: tolerance, clock: clock, to: platform)
    }
}

/// The process's main executor.
final class MainRouter: MainExecutor, SchedulingExecutor, @unchecked Sendable {
    static let shared = MainRouter()
    private let platform = PlatformExecutorFactory.mainExecutor

    func enqueue(_ job: consuming ExecutorJob) { route(job, main: true, to: platform) }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        route(job, main: true, at: instant, tolerance: tolerance, clock: clock, to: platform)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        route(job, main: true, after: delay, tolerance: tolerance, clock: clock, to: platform)
    }

    func run() throws { try platform.run() }
    func stop() { platform.stop() }
    /// On a world's thread the world runs main-actor jobs one at a time, so its thread holds the main actor.
    func checkIsolated() {
        if ProcessExecutors.currentWorld == nil { platform.checkIsolated() }
    }
    var isMainExecutor: Bool { true }
}

/// The factory `_createExecutors` installs.
struct RoutingExecutors: ExecutorFactory {
    static var mainExecutor: any MainExecutor { MainRouter.shared }
    static var defaultExecutor: any TaskExecutor { DefaultRouter.shared }
}

/// Called by `CWorldHooks`' constructor, before `main` and before any task exists.
@_cdecl("simharness_install_world_executors")
func installWorldExecutors() {
    _createExecutors(factory: RoutingExecutors.self)
}
