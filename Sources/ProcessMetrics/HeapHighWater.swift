#if MallocInterposer && !Jemalloc
import MallocInterposerSwift
import Synchronization
#endif

/// The high-water mark of the heap's live bytes while a closure runs: the memory metric the
/// performance gate compares tightly, because it does not depend on what the C allocator keeps
/// from earlier work or on the kernel's page accounting, as the resident set (`VmHWM`) does.
///
/// Counted with the malloc interposer (the default `MallocInterposer` trait): the bytes in use when
/// the closure starts (glibc's `mallinfo2`), plus the largest rise of the interposer's
/// `allocated − freed` bytes during the closure, read after every allocation by an allocation hook.
/// The hook costs a lock and a few loads per allocation, so measure in a run of its own, not in a
/// timed one. Process-wide: other threads' allocations in the meantime count too.
public enum HeapHighWater {
    /// Whether this build can measure it (the malloc interposer backend).
    public static var isAvailable: Bool {
        #if MallocInterposer && !Jemalloc
        true
        #else
        false
        #endif
    }

    /// Runs `body` and returns its result with the heap's peak bytes in use during it, `nil` where
    /// the backend cannot tell (see `isAvailable`).
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, peakBytes: Int?) {
        #if MallocInterposer && !Jemalloc
        let start = AllocationStatistics.current()  // also starts the interposer's counting
        let liveAtStart = liveCountedBytes()
        peakLiveCountedBytes.store(liveAtStart, ordering: .relaxed)
        MallocInterposerSwift.setAllocationHook(recordPeak)
        let result: T
        do {
            defer { MallocInterposerSwift.setAllocationHook(nil) }
            result = try body()
        }
        let peakRise = max(0, peakLiveCountedBytes.load(ordering: .relaxed) - liveAtStart)
        return (result, start.bytesInUse.map { $0 + peakRise })
        #else
        return (try body(), nil)
        #endif
    }

    #if MallocInterposer && !Jemalloc
    /// The largest `allocated − freed` count seen by the hook since `measure` started.
    private static let peakLiveCountedBytes = Atomic<Int>(0)

    /// Bytes allocated minus bytes freed since counting started (negative when blocks allocated
    /// before were freed since): only differences mean anything.
    private static func liveCountedBytes() -> Int {
        let statistics = MallocInterposerSwift.getStatistics()
        return statistics.mallocBytesCount - statistics.freeBytesCount
    }

    /// Called inside the allocator after every counted allocation; allocates nothing itself.
    private static let recordPeak: MallocInterposerSwift.AllocationHook = { _ in
        let live = HeapHighWater.liveCountedBytes()
        var peak = HeapHighWater.peakLiveCountedBytes.load(ordering: .relaxed)
        while live > peak {
            let (exchanged, original) = HeapHighWater.peakLiveCountedBytes.compareExchange(
                expected: peak, desired: live, ordering: .relaxed
            )
            if exchanged { break }
            peak = original
        }
    }
    #endif
}
