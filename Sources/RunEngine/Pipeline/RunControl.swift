@_spi(Tooling) import RunResults
import Synchronization

/// What the tasks of a run share: the stop request and the partitions' latest figures.
final class RunControl: Sendable {
    private let stopped = Atomic(false)
    private let state: Mutex<(reason: String?, failure: String?, snapshots: [RunMetrics?])>

    init(partitions: Int) {
        state = Mutex((nil, nil, [RunMetrics?](repeating: nil, count: partitions)))
    }

    /// Why the run could not go on (an internal error), if it could not.
    var failure: String? { state.withLock { $0.failure } }

    /// Stops the run because of an error.
    func fail(_ message: String) {
        state.withLock { s in
            if s.failure == nil { s.failure = message }
        }
        stopped.store(true, ordering: .relaxed)
    }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }

    var stopReason: String? { state.withLock { $0.reason } }

    /// Asks every task to stop after its current batch.
    func stop(because reason: String) {
        state.withLock { s in
            if s.reason == nil { s.reason = reason }
        }
        stopped.store(true, ordering: .relaxed)
    }

    func publish(_ metrics: RunMetrics, partition: Int) {
        state.withLock { $0.snapshots[partition] = metrics }
    }

    /// The partitions' latest figures, merged.
    func snapshot() -> RunMetrics {
        let parts = state.withLock { $0.snapshots }
        var merged = RunMetrics()
        for part in parts.compactMap({ $0 }) { merged.merge(part) }
        return merged
    }
}
