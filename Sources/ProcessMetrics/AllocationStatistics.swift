#if MallocInterposer && !Jemalloc
import CAllocationCounter
#endif

/// Where allocation statistics come from, fixed at build time by the package traits:
/// `Jemalloc` (jemalloc's own statistics), `MallocInterposer` (the default: malloc calls counted by
/// the package's own malloc family over glibc's; not under a sanitizer), or neither (the C library's
/// heap counters only).
@_spi(Tooling) public enum AllocationBackend: String, Sendable, Codable {
    case jemalloc
    case mallocInterposer
    case libc

    /// The backend this build uses; with both traits enabled jemalloc wins.
    @_spi(Tooling) public static var current: AllocationBackend {
        #if Jemalloc
        .jemalloc
        #elseif MallocInterposer
        allocation_counter_is_installed() ? .mallocInterposer : .libc
        #else
        .libc
        #endif
    }

    /// Whether `AllocationStatistics.allocations` is available.
    package var countsAllocations: Bool { self != .libc }
}

/// A snapshot of the allocator's statistics; a field the backend cannot provide is `nil`.
///
/// | field | jemalloc | interposer (glibc) | libc: glibc | libc: Darwin |
/// | --- | --- | --- | --- | --- |
/// | `allocations` | `small.nrequests + large.nrequests` | malloc calls | — | — |
/// | `allocatedBytes` | — | bytes requested | — | — |
/// | `bytesInUse` | `stats.allocated` | `mallinfo2` | `mallinfo2` | `malloc_zone_statistics` |
/// | `activeBytes`, `residentBytes` | `stats.active`, `stats.resident` | — | — | — |
///
/// On Darwin the interposer is not installed (it replaces glibc's entry points), so a default build
/// reports the `libc` backend there.
@_spi(Tooling) public struct AllocationStatistics: Hashable, Sendable, Codable {
    /// Allocation calls counted so far (cumulative; only differences between snapshots mean anything).
    package var allocations: Int?
    /// Bytes requested by those calls (cumulative).
    package var allocatedBytes: Int?
    /// Bytes in live allocations now.
    package var bytesInUse: Int?
    /// Bytes in pages the allocator has in use for live allocations (jemalloc `stats.active`).
    package var activeBytes: Int?
    /// Bytes of allocator memory that is resident (jemalloc `stats.resident`).
    package var residentBytes: Int?

    /// Statistics of all their parts.
    package init(
        allocations: Int? = nil, allocatedBytes: Int? = nil, bytesInUse: Int? = nil,
        activeBytes: Int? = nil, residentBytes: Int? = nil
    ) {
        self.allocations = allocations
        self.allocatedBytes = allocatedBytes
        self.bytesInUse = bytesInUse
        self.activeBytes = activeBytes
        self.residentBytes = residentBytes
    }

    /// The statistics now. With jemalloc this first flushes the calling thread's cache so that its
    /// requests are counted; other threads' counts arrive when their caches flush, so a multi-threaded
    /// caller should have each worker call `AllocationStatistics.publishCurrentThread()` when it is done.
    @_spi(Tooling) public static func current() -> AllocationStatistics {
        AllocatorProbe.read()
    }

    /// Makes the calling thread's pending allocation counts visible to `current()` (jemalloc's
    /// per-thread cache); a no-op with the other backends, which count every call as it happens.
    package static func publishCurrentThread() {
        AllocatorProbe.flushThreadCache()
    }

    /// What happened between `earlier` and this snapshot.
    @_spi(Tooling) public func delta(since earlier: AllocationStatistics) -> AllocationDelta {
        AllocationDelta(
            allocations: difference(allocations, earlier.allocations),
            allocatedBytes: difference(allocatedBytes, earlier.allocatedBytes),
            bytesInUseChange: difference(bytesInUse, earlier.bytesInUse)
        )
    }

    private func difference(_ later: Int?, _ earlier: Int?) -> Int? {
        guard let later, let earlier else { return nil }
        return later - earlier
    }
}

/// Allocation activity over an interval; `nil` where the backend cannot tell.
@_spi(Tooling) public struct AllocationDelta: Hashable, Sendable, Codable {
    /// Allocation calls in the interval, when the backend counts them.
    @_spi(Tooling) public var allocations: Int?
    /// Bytes requested in the interval, when the backend counts them.
    @_spi(Tooling) public var allocatedBytes: Int?
    /// Live bytes at the end minus live bytes at the start (negative when memory was freed).
    package var bytesInUseChange: Int?

    /// A change of the counters.
    @_spi(Tooling) public init(allocations: Int? = nil, allocatedBytes: Int? = nil, bytesInUseChange: Int? = nil) {
        self.allocations = allocations
        self.allocatedBytes = allocatedBytes
        self.bytesInUseChange = bytesInUseChange
    }

    /// Runs `body` and reports its allocations (those of other threads in the meantime included).
    package static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, delta: AllocationDelta) {
        let before = AllocationStatistics.current()
        let result = try body()
        let after = AllocationStatistics.current()
        return (result, after.delta(since: before))
    }
}
