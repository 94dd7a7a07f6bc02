/// Memory for a day's rows, reused from day to day: a generator writes a day's rows by index
/// (`RowWriter`) and appends them to the batch's array in one copy, so its inner loop does no
/// per-row array bookkeeping (the uniqueness and capacity checks of `Array.append`). For rows of
/// plain values (no references). It pays for the step stream (~40 rows a day), not for the meal
/// stream (~4 rows a day), which does not use it (figures: docs/performance.md, "Figures behind
/// choices in the code"). A day's bout and payment times use one too, sorted where they are written
/// (`written`).
struct DayRows<Row>: Sendable {
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<Row>
        let capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage?

    /// A writer with room for `room` rows; valid until the next call.
    mutating func writer(room: Int) -> RowWriter<Row> {
        let capacity = storage?.capacity ?? 0
        if capacity >= room, isKnownUniquelyReferenced(&storage), let storage {
            return RowWriter(base: storage.base, room: room)
        }
        let grown = Storage(capacity: max(64, room, 2 * capacity))
        storage = grown
        return RowWriter(base: grown.base, room: room)
    }
}

/// Writes rows one after another into the room a `DayRows` gave it.
struct RowWriter<Row> {
    private let base: UnsafeMutablePointer<Row>
    private let room: Int
    /// The rows written so far.
    private(set) var count = 0

    fileprivate init(base: UnsafeMutablePointer<Row>, room: Int) {
        self.base = base
        self.room = room
    }

    /// Writes `row` after the others.
    @inline(__always) mutating func append(_ row: Row) {
        precondition(count < room, "a day wrote more rows than the room it asked for")
        (base + count).initialize(to: row)
        count += 1
    }

    /// The rows written so far, to sort or read in place; valid while the writer is.
    var written: UnsafeMutableBufferPointer<Row> { UnsafeMutableBufferPointer(start: base, count: count) }

    /// Appends the rows written to `rows`.
    func append(to rows: inout [Row]) {
        rows.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }
}
