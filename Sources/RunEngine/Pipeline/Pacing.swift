@_spi(Tooling) import Scenarios
import Synchronization

/// The wall clock of a run: the only place a run reads real time (its duration, time limits,
/// the pace of arrival-rate loads, memory sampling). Tests inject a fake that never sleeps.
package protocol HarnessClock: Sendable {
    /// Time since the clock's origin.
    func now() -> Duration
    /// Returns once `now() >= deadline`; throws `CancellationError` when the task is cancelled.
    func wait(until deadline: Duration) async throws
}

/// The real clock: `ContinuousClock` from the moment this value was made.
package struct SystemClock: HarnessClock {
    private let origin = ContinuousClock.now

    /// A clock whose time 0 is now.
    package init() {}

    /// Time since this clock was made.
    package func now() -> Duration { ContinuousClock.now - origin }

    /// Sleeps until `deadline` (time since this clock was made).
    package func wait(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin + deadline)
    }
}

/// Releases batches at the pace of an arrival schedule shared by every producer: a batch goes out
/// when its last event is due, so the events of all partitions together follow the schedule.
final class Pacer: Sendable {
    private let schedule: ArrivalSchedule
    private let clock: any HarnessClock
    private let start: Duration
    private let state = Mutex(State())

    private struct State {
        /// Events of the batches admitted so far.
        var scheduled = 0.0
        /// The largest batch refused because its last event would come after the schedule's end.
        var largestRefused = 0.0
    }

    init(schedule: ArrivalSchedule, clock: any HarnessClock, start: Duration) {
        self.schedule = schedule
        self.clock = clock
        self.start = start
    }

    /// Waits until a batch of `events` is due; returns when it was due (seconds from the start),
    /// nil when the schedule ends before it.
    func admit(events: Int) async throws -> Double? {
        let due = state.withLock { state -> Double? in
            guard let due = schedule.dueSeconds(afterEvents: state.scheduled + Double(events)) else {
                state.largestRefused = max(state.largestRefused, Double(events))
                return nil
            }
            state.scheduled += Double(events)
            return due
        }
        guard let due else { return nil }
        try await clock.wait(until: start + .seconds(due))
        return due
    }

    /// The schedule's last events that no batch could carry: fewer than a refused batch, they were
    /// never due as a batch (a batch goes out when its last event is due), so they are not dropped.
    /// 0 until a batch is refused at the schedule's end.
    var unsentTail: Double {
        state.withLock { state in
            min(state.largestRefused, max(0, schedule.events(bySeconds: schedule.totalSeconds) - state.scheduled))
        }
    }
}
