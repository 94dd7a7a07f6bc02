import Synchronization

/// A bounded queue between one producing task and one consuming task. `send` waits while
/// `capacity` items are queued (backpressure) and `receive` while none is; cancelling either task
/// ends its side at once (`send` returns false, `receive` nil). Waiting allocates nothing (unsafe
/// continuations, each resumed exactly once under the lock's protocol below).
final class BatchChannel<Item: Sendable>: Sendable {
    private struct State {
        var queue: [Item] = []
        var closed = false
        var sender: UnsafeContinuation<Void, Never>?
        var receiver: UnsafeContinuation<Void, Never>?
    }

    private enum Side { case sender, receiver }

    let capacity: Int
    private let state: Mutex<State>

    /// A channel holding up to `capacity` items, starting with `items` queued.
    init(capacity: Int, holding items: [Item] = []) {
        precondition(capacity >= 1 && items.count <= capacity, "a channel holds at least one item, and its initial items")
        self.capacity = capacity
        var initial = State()
        initial.queue.reserveCapacity(capacity)
        initial.queue.append(contentsOf: items)
        state = Mutex(initial)
    }

    /// Queues `item`, waiting for room; false when the channel was closed or the task cancelled.
    func send(_ item: Item) async -> Bool {
        while !Task.isCancelled {
            let (accepted, wake) = state.withLock { s -> (Bool?, UnsafeContinuation<Void, Never>?) in
                if s.closed { return (false, nil) }
                guard s.queue.count < capacity else { return (nil, nil) }
                s.queue.append(item)
                return (true, s.receiver.take())
            }
            wake?.resume()
            if let accepted { return accepted }
            await wait(as: .sender)
        }
        return false
    }

    /// The next item, waiting for one; nil once the channel is closed and empty, or the task cancelled.
    func receive() async -> Item? {
        while !Task.isCancelled {
            let (item, finished, wake) = state.withLock { s -> (Item?, Bool, UnsafeContinuation<Void, Never>?) in
                if !s.queue.isEmpty { return (s.queue.removeFirst(), false, s.sender.take()) }
                return (nil, s.closed, nil)
            }
            wake?.resume()
            if let item { return item }
            if finished { return nil }
            await wait(as: .receiver)
        }
        return nil
    }

    /// No more items will be sent; the receiver gets what is queued, then nil.
    func close() {
        let (sender, receiver) = state.withLock { s in
            s.closed = true
            return (s.sender.take(), s.receiver.take())
        }
        sender?.resume()
        receiver?.resume()
    }

    /// Suspends until the other side may have changed what `side` waits for, or the task is cancelled.
    private func wait(as side: Side) async {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                let ready = state.withLock { s -> Bool in
                    let satisfied = side == .sender ? s.queue.count < capacity : !s.queue.isEmpty
                    if Task.isCancelled || s.closed || satisfied { return true }
                    if side == .sender { s.sender = continuation } else { s.receiver = continuation }
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiting = state.withLock { s in side == .sender ? s.sender.take() : s.receiver.take() }
            waiting?.resume()
        }
    }
}
