/// The two small tables of a `StepAccumulator` (the open days' totals and the open phone samples),
/// in memory of their own behind one reference and written through pointers, so that a write costs
/// no uniqueness check (an `Array` in a struct pays one at each write in a loop). The accumulator
/// copies them on write: once per call that writes (`makeUnique`), not once per write.
///
/// The counts live in the accumulator; a table grows by moving to a new `StepTables`.
@usableFromInline final class StepTables: @unchecked Sendable {
    /// The totals of the open days, with whether a sample touched them.
    @usableFromInline typealias Day = (steps: Double, touched: Bool)
    /// An open phone sample: its end, its count and its length in seconds.
    @usableFromInline typealias Phone = (end: Int64, count: Double, seconds: Int64)

    @usableFromInline let days: UnsafeMutablePointer<Day>
    @usableFromInline let dayCapacity: Int
    @usableFromInline let phones: UnsafeMutablePointer<Phone>
    @usableFromInline let phoneCapacity: Int
    /// One allocation for both tables: the days, then the phones.
    private let memory: UnsafeMutableRawPointer

    /// Shared by every accumulator before its first write, so that making one allocates nothing.
    @usableFromInline static let empty = StepTables(dayCapacity: 0, phoneCapacity: 0)

    private init(dayCapacity: Int, phoneCapacity: Int) {
        self.dayCapacity = dayCapacity
        self.phoneCapacity = phoneCapacity
        let dayBytes = dayCapacity * MemoryLayout<Day>.stride
        memory = .allocate(
            byteCount: dayBytes + phoneCapacity * MemoryLayout<Phone>.stride,
            alignment: max(MemoryLayout<Day>.alignment, MemoryLayout<Phone>.alignment)
        )
        days = memory.bindMemory(to: Day.self, capacity: dayCapacity)
        phones = (memory + dayBytes).bindMemory(to: Phone.self, capacity: phoneCapacity)
    }

    deinit { memory.deallocate() }

    /// New tables holding the first `dayCount` days and `phoneCount` phones of these, with room for
    /// at least `days` days and `phones` phones (at first 4 and 2: a user's samples, in order, keep
    /// about three days and one phone open).
    @usableFromInline func copy(dayCount: Int, phoneCount: Int, days: Int = 0, phones: Int = 0) -> StepTables {
        let copy = StepTables(dayCapacity: max(4, days, dayCount), phoneCapacity: max(2, phones, phoneCount))
        copy.days.initialize(from: self.days, count: dayCount)
        copy.phones.initialize(from: self.phones, count: phoneCount)
        return copy
    }
}
