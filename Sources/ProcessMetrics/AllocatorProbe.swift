#if Jemalloc
import CJemalloc
#elseif MallocInterposer
import CAllocationCounter
#endif
#if os(Linux) && canImport(CGlibcMalloc)
import CGlibcMalloc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the statistics of the allocator selected by the package traits.
enum AllocatorProbe {
    static func read() -> AllocationStatistics {
        #if Jemalloc
        flushThreadCache()
        // Writing `epoch` makes jemalloc refresh the statistics that `stats.*` read.
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        let all = "stats.arenas.\(MALLCTL_ARENAS_ALL)"
        // `nrequests`, not `nmalloc`: with thread caches on, `nmalloc` counts bin refills (about one
        // per 1,000 small allocations), while `nrequests` counts the calls.
        let small: UInt64? = value("\(all).small.nrequests")
        let large: UInt64? = value("\(all).large.nrequests")
        let allocated: Int? = value("stats.allocated")
        let active: Int? = value("stats.active")
        let resident: Int? = value("stats.resident")
        let allocations = small.flatMap { s in large.map { Int(s + $0) } }
        return AllocationStatistics(
            allocations: allocations, bytesInUse: allocated, activeBytes: active, residentBytes: resident
        )
        #elseif MallocInterposer
        guard allocation_counter_is_installed() else { return AllocationStatistics(bytesInUse: libcBytesInUse()) }
        _ = countingStarted
        let counted = allocation_counter_read()
        return AllocationStatistics(
            allocations: Int(counted.allocations), allocatedBytes: Int(counted.requestedBytes), bytesInUse: libcBytesInUse()
        )
        #else
        return AllocationStatistics(bytesInUse: libcBytesInUse())
        #endif
    }

    static func flushThreadCache() {
        #if Jemalloc
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        #endif
    }

    #if Jemalloc
    private static func value<T: FixedWidthInteger>(_ name: String) -> T? {
        var result: T = 0
        var size = MemoryLayout<T>.size
        return mallctl(name, &result, &size, nil, 0) == 0 ? result : nil
    }
    #endif

    #if MallocInterposer && !Jemalloc
    /// Counting starts with the first snapshot and stays on: two atomic adds per malloc call.
    private static let countingStarted: Void = allocation_counter_start()
    #endif

    #if !Jemalloc
    /// Bytes in live allocations according to the C library: glibc's `mallinfo2` (`uordblks` for the
    /// heap plus `hblkhd` for `mmap`ed chunks), Darwin's `malloc_zone_statistics` over every zone
    /// (`size_in_use`); `nil` elsewhere.
    private static func libcBytesInUse() -> Int? {
        #if os(Linux) && canImport(CGlibcMalloc)
        let info = mallinfo2()
        return Int(info.uordblks + info.hblkhd)
        #elseif canImport(Darwin)
        var statistics = malloc_statistics_t()
        malloc_zone_statistics(nil, &statistics)
        return Int(statistics.size_in_use)
        #else
        return nil
        #endif
    }
    #endif
}
