import CWorldHooks
import Foundation
import HeapModule

/// A clock whose time moves only when a seeded world has nothing to run: then it jumps to the earliest
/// sleeper's deadline and wakes it. Hand it to code written against `any Clock<Duration>` or
/// `some Clock<Duration>`; a world's retries, backoffs and timeouts then cost no real time and happen
/// in the same order on every run of a seed.
public struct VirtualClock: ClockWithOrigin, Sendable {
    /// An instant: the virtual time since the world began.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the world began.
        public var offset: Duration

        /// The instant `offset` after the world began.
        @usableFromInline package init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `a` comes before `b`.
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    /// The world's sleepers.
    let timers: Timers

    init(timers: Timers) { self.timers = timers }

    /// The world's virtual time.
    public var now: Instant { Instant(offset: timers.now) }
    package var sinceOrigin: Duration { timers.now }
    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the world's time reaches `deadline` (at once when it has); throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await timers.sleep(until: deadline.offset)
    }
}

/// The sleepers of a world, earliest deadline first (then first come), and its virtual time: those of
/// its `VirtualClock` (continuations) and those of `Task.sleep` and the system clocks (jobs the process's
/// executors hand the world). The time is also what the world's thread reads from `clock_gettime`.
final class Timers: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Duration.zero
    private var sleepers = Heap<Sleeper>()
    private var nextNumber = 0
    /// Where a woken job goes (the world's executor) and where the time is published (its thread's hooks).
    private let wake: ((UnownedJob, Bool) -> Void)?
    private let published: UnsafeMutablePointer<world_hooks_state>?

    /// Ordered by deadline, then by the order they slept in.
    private struct Sleeper: Comparable {
        var deadline: Duration
        var number: Int
        var waiter: Waiter

        static func < (a: Sleeper, b: Sleeper) -> Bool { (a.deadline, a.number) < (b.deadline, b.number) }
        static func == (a: Sleeper, b: Sleeper) -> Bool { a.number == b.number }
    }

    private enum Waiter {
        case continuation(CheckedContinuation<Void, any Error>)
        case job(UnownedJob, main: Bool)
    }

    /// Timers of a world whose woken jobs go to `wake` and whose time `published` shows its thread.
    init(wake: ((UnownedJob, Bool) -> Void)? = nil, publishing published: UnsafeMutablePointer<world_hooks_state>? = nil) {
        self.wake = wake
        self.published = published
    }

    /// A job that runs once the time has moved on by `delay`.
    func schedule(_ job: UnownedJob, main: Bool, after delay: Duration) {
        lock.withLock {
            nextNumber += 1
            sleepers.insert(Sleeper(deadline: time + max(.zero, delay), number: nextNumber, waiter: .job(job, main: main)))
        }
    }

    /// The world's time.
    var now: Duration { lock.withLock { time } }

    /// Sleepers not yet woken.
    var count: Int { lock.withLock { sleepers.count } }

    func sleep(until deadline: Duration) async throws {
        let number: Int = lock.withLock {
            nextNumber += 1
            return nextNumber
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                lock.lock()
                guard deadline > time, !Task.isCancelled else {
                    lock.unlock()
                    return Task.isCancelled ? continuation.resume(throwing: CancellationError()) : continuation.resume()
                }
                sleepers.insert(Sleeper(deadline: deadline, number: number, waiter: .continuation(continuation)))
                lock.unlock()
            }
        } onCancel: {
            let woken: Sleeper? = lock.withLock {
                guard let found = sleepers.unordered.first(where: { $0.number == number }) else { return nil }
                sleepers = Heap(sleepers.unordered.filter { $0.number != number })
                return found
            }
            if case .continuation(let continuation) = woken?.waiter { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Moves time to the earliest deadline and wakes every sleeper due then (in the order they slept);
    /// returns the new time, or nil when nobody sleeps.
    func advance() -> Duration? {
        guard let earliest: Duration = lock.withLock({
            guard let first = sleepers.min else { return nil }
            time = first.deadline
            return first.deadline
        }) else { return nil }
        published?.pointee.now_ns = Int64(earliest.components.seconds) * 1_000_000_000 + earliest.components.attoseconds / 1_000_000_000
        while let sleeper: Sleeper = lock.withLock({ sleepers.min?.deadline == earliest ? sleepers.popMin() : nil }) {
            switch sleeper.waiter {
            case .continuation(let continuation): continuation.resume()
            case .job(let job, let main): wake?(job, main)
            }
        }
        return earliest
    }

    /// Wakes every sleeper with `error` (a world that ends or is abandoned leaves no task suspended).
    func abandon(with error: any Error) {
        let all: [Sleeper] = lock.withLock {
            defer { sleepers = Heap() }
            return sleepers.unordered.sorted { $0.number < $1.number }
        }
        for sleeper in all {
            switch sleeper.waiter {
            case .continuation(let continuation): continuation.resume(throwing: error)
            // A sleeping job wakes early: `Task.sleep` sees the cancellation of its task, or returns.
            case .job(let job, let main): wake?(job, main)
            }
        }
    }
}
