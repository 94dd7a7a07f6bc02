/// The world's scheduler: a priority queue of `(order, slot)` pairs, smallest order first. It
/// keeps two binary heaps: most events are due within milliseconds (steps, messages) and are
/// popped soon after they are pushed, while timeouts wait for seconds, many of them stale by then.
/// Keeping the far ones apart keeps the heap that most pops touch small (a single heap's cost:
/// docs/performance.md, "Figures behind choices in the code").
struct EventQueue {
    struct Entry {
        /// What orders entries (smallest first).
        var order: UInt64
        /// Where the entry's event waits.
        var slot: Int
    }

    /// Entries due this far ahead (in units of `order`) or more go to the far heap.
    private let farAhead: UInt64
    private var near = BinaryHeap()
    private var far = BinaryHeap()

    /// A queue that keeps entries due `farAhead` or more after the last popped one apart.
    init(farAhead: UInt64) { self.farAhead = farAhead }

    /// Adds an entry; `now` is the order of the entry being handled.
    mutating func insert(_ entry: Entry, now: UInt64) {
        if entry.order >= now &+ farAhead { far.insert(entry) } else { near.insert(entry) }
    }

    /// Removes and returns the entry of the smallest order, nil when empty.
    mutating func popMin() -> Entry? {
        switch (near.minimum, far.minimum) {
        case (nil, nil): nil
        case (_?, nil): near.popMin()
        case (nil, _?): far.popMin()
        case (let a?, let b?): a.order <= b.order ? near.popMin() : far.popMin()
        }
    }
}

/// A binary min-heap of entries by `order`.
private struct BinaryHeap {
    private var entries: [EventQueue.Entry] = []

    var minimum: EventQueue.Entry? { entries.first }

    // The sifts index within `0..<count` by construction; they run on the buffer to skip the
    // array's bounds and uniqueness checks on every step.
    mutating func insert(_ entry: EventQueue.Entry) {
        entries.append(entry)
        entries.withUnsafeMutableBufferPointer { heap in
            var index = heap.count - 1
            while index > 0 {
                let parent = (index - 1) / 2
                guard entry.order < heap[parent].order else { break }
                heap[index] = heap[parent]
                index = parent
            }
            heap[index] = entry
        }
    }

    mutating func popMin() -> EventQueue.Entry? {
        guard let last = entries.popLast() else { return nil }
        guard let first = entries.first else { return last }
        entries.withUnsafeMutableBufferPointer { heap in
            var index = 0
            while true {
                var child = 2 * index + 1
                guard child < heap.count else { break }
                if child + 1 < heap.count, heap[child + 1].order < heap[child].order { child += 1 }
                guard heap[child].order < last.order else { break }
                heap[index] = heap[child]
                index = child
            }
            heap[index] = last
        }
        return first
    }
}
