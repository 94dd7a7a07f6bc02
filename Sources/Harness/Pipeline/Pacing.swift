import Simulation
import Synchronization

/// The wall clock of a run: the only place a run reads real time (its duration, time limits,
/// the pace of arrival-rate loads, memory sampling). Tests inject a fake that never sleeps.
public protocol HarnessClock: Sendable {
    /// Time since the clock's origin.
    func now() -> Duration
    /// Returns once `now() >= deadline`; throws `CancellationError` when the task is cancelled.
    func wait(until deadline: Duration) async throws
}

/// The real clock: `ContinuousClock` from the moment this value was made.
public struct SystemClock: HarnessClock {
    private let origin = ContinuousClock.now

    /// A clock whose time 0 is now.
    public init() {}

    /// Time since this clock was made.
    public func now() -> Duration { ContinuousClock.now - origin }

    /// Sleeps until `deadline` (time since this clock was made).
    public func wait(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin + deadline)
    }
}

/// Releases batches at the pace of an arrival schedule shared by every producer: a batch goes out
/// when its last event is due, so the events of all partitions together follow the schedule.
final class Pacer: Sendable {
    private let schedule: ArrivalSchedule
    private let clock: any HarnessClock
    private let start: Duration
    private let scheduled = Mutex(0.0)

    init(schedule: ArrivalSchedule, clock: any HarnessClock, start: Duration) {
        self.schedule = schedule
        self.clock = clock
        self.start = start
    }

    /// Waits until a batch of `events` is due; returns when it was due (seconds from the start),
    /// nil when the schedule ends before it.
    func admit(events: Int) async throws -> Double? {
        let due = scheduled.withLock { total -> Double? in
            guard let due = schedule.dueSeconds(afterEvents: total + Double(events)) else { return nil }
            total += Double(events)
            return due
        }
        guard let due else { return nil }
        try await clock.wait(until: start + .seconds(due))
        return due
    }
}
