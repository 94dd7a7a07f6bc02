import Synchronization

extension OrderedParallel {
    /// `run`'s ordered window for results that tasks of their own hand in (long-lived workers, not
    /// child tasks of one group): results numbered 0, 1, 2, … are consumed in that order whichever task
    /// submits them, and a task more than `window` results ahead of the next one consumed waits (bounded
    /// memory). The consumer (a writer, say) lives behind the window's lock.
    package final class Window<Result: Sendable, Consumer>: Sendable {
        private struct State {
            var consumer: Consumer
            var next = 0
            var ready: [Int: Result] = [:]
            var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        }

        private let window: Int
        private let consume: @Sendable (inout Consumer, Result) throws -> Void
        private let state: Mutex<State>

        /// A window of `window` (at least 1) results ahead of the next consumed; `consume` gets each
        /// result in order, under the lock.
        package init(window: Int, consumer: sending Consumer, consume: @escaping @Sendable (inout Consumer, Result) throws -> Void) {
            self.window = max(1, window)
            self.consume = consume
            state = Mutex(State(consumer: consumer))
        }

        /// Hands in result `index`: waits while it is `window` or more ahead of the next consumed, then
        /// consumes it and every result after it that is ready. Throws `consume`'s error, or
        /// `CancellationError` when the task is cancelled while it waits.
        package func submit(_ index: Int, _ result: Result) async throws {
            while true {
                try Task.checkCancellation()
                let (accepted, wake) = try state.withLock { s throws -> (Bool, [CheckedContinuation<Void, Never>]) in
                    guard index < s.next + window else { return (false, []) }
                    s.ready[index] = result
                    while let ready = s.ready.removeValue(forKey: s.next) {
                        try consume(&s.consumer, ready)
                        s.next += 1
                    }
                    let limit = s.next + window
                    let due = s.waiting.keys.filter { $0 < limit }
                    return (true, due.compactMap { s.waiting.removeValue(forKey: $0) })
                }
                for continuation in wake { continuation.resume() }
                if accepted { return }
                await waitTurn(index)
            }
        }

        /// Runs `body` on the consumer under the lock (to finish or discard what it wrote).
        package func withConsumer(_ body: (inout Consumer) throws -> Void) rethrows {
            try state.withLock { s in try body(&s.consumer) }
        }

        private func waitTurn(_ index: Int) async {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { s -> Bool in
                        if Task.isCancelled || index < s.next + window { return true }
                        s.waiting[index] = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                state.withLock { $0.waiting.removeValue(forKey: index) }?.resume()
            }
        }
    }
}
