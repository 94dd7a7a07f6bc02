#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Nanoseconds of the monotonic clock, for timing batches (never for deciding anything).
enum Stopwatch {
    @inline(__always) static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
