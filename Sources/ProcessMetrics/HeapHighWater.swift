#if MallocInterposer && !Jemalloc
import CAllocationCounter
#endif

/// The high-water mark of the heap's live bytes while a closure runs: the memory metric the
/// performance gate compares tightly, because it does not depend on what the C allocator keeps
/// from earlier work or on the kernel's page accounting, as the resident set (`VmHWM`) does.
///
/// Counted by the package's malloc family (the default `MallocInterposer` trait): the bytes in use
/// when the closure starts (glibc's `mallinfo2`), plus the largest rise of live bytes (usable sizes
/// allocated − freed) during the closure, followed on every allocation and free. That costs a few
/// atomic operations per call, so measure in a run of its own, not in a timed one. Process-wide:
/// other threads' allocations in the meantime count too; one measurement runs at a time (a second
/// one waits).
@_spi(Tooling) public enum HeapHighWater {
    /// Whether this build can measure it (the malloc interposer backend).
    package static var isAvailable: Bool {
        #if MallocInterposer && !Jemalloc
        allocation_counter_is_installed()
        #else
        false
        #endif
    }

    /// Runs `body` and returns its result with the heap's peak bytes in use during it, `nil` where
    /// the backend cannot tell (see `isAvailable`).
    @_spi(Tooling) public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, peakBytes: Int?) {
        #if MallocInterposer && !Jemalloc
        guard isAvailable else { return (try body(), nil) }
        let start = AllocationStatistics.current()
        allocation_counter_begin_peak()
        let result: T
        var peakRise = 0
        do {
            defer { peakRise = Int(allocation_counter_end_peak()) }
            result = try body()
        }
        return (result, start.bytesInUse.map { $0 + peakRise })
        #else
        return (try body(), nil)
        #endif
    }
}
