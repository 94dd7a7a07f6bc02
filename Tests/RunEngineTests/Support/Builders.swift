import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import Synchronization
import TestSupport

func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

extension RunOptions {
    /// Options for tests: `tasks` partitions, no monitoring.
    static func test(tasks: Int, out: String? = nil, timing: Bool = true) -> RunOptions {
        var options = RunOptions(tasks: tasks)
        options.outputDirectory = out
        options.timing = timing
        return options
    }
}

/// A clock that never sleeps: `wait(until:)` moves its time to the deadline at once (never
/// back) and records the deadline; each reading of `now()` moves it on by `step`.
final class FakeClock: HarnessClock {
    private let state = Mutex((now: Duration.zero, deadlines: [Duration]()))
    private let step: Duration

    init(step: Duration = .zero) { self.step = step }

    func now() -> Duration {
        state.withLock { s in
            defer { s.now += step }
            return s.now
        }
    }

    func wait(until deadline: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { s in
            s.deadlines.append(deadline)
            s.now = max(s.now, deadline)
        }
        await Task.yield()
    }

    /// Every deadline slept until, in order.
    var deadlines: [Duration] { state.withLock { $0.deadlines } }

    /// Moves the time forward by `duration`, as a stalled task would see it.
    func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }
}

extension ScenarioBuilder {
    func plan(load: LoadModel = .fixed, thresholds: [Threshold] = [], batchUsers: Int? = 8) -> RunPlan {
        RunPlan(scenario: build(), load: load, thresholds: thresholds, batchUsers: batchUsers)
    }
}
