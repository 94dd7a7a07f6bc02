#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak resident memory of this process, from `getrusage(RUSAGE_SELF)`.
@_spi(Tooling) public struct ResourceUsage: Hashable, Sendable, Codable {
    /// CPU time spent in user mode.
    @_spi(Tooling) public var userCPU: Duration
    /// CPU time spent in the kernel on the process's behalf.
    @_spi(Tooling) public var systemCPU: Duration
    /// `ru_maxrss` in bytes: the process's peak resident set size since it started.
    @_spi(Tooling) public var maxResidentBytes: Int

    /// Usage of all its parts.
    package init(userCPU: Duration, systemCPU: Duration, maxResidentBytes: Int) {
        self.userCPU = userCPU
        self.systemCPU = systemCPU
        self.maxResidentBytes = maxResidentBytes
    }

    /// The usage so far.
    @_spi(Tooling) public static func current() -> ResourceUsage {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        let maxRSS = Int(usage.ru_maxrss)  // bytes on Darwin
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let maxRSS = Int(usage.ru_maxrss) * 1024  // KiB on Linux
        #endif
        return ResourceUsage(
            userCPU: Duration(usage.ru_utime), systemCPU: Duration(usage.ru_stime), maxResidentBytes: maxRSS
        )
    }

    /// User plus system time.
    @_spi(Tooling) public var totalCPU: Duration { userCPU + systemCPU }

    /// CPU time consumed by the calling thread (`CLOCK_THREAD_CPUTIME_ID`): unlike wall-clock time,
    /// it does not grow while other processes hold the cores.
    package static func currentThreadCPU() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}

extension Duration {
    init(_ time: timeval) {
        self = .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
    }

    /// The duration in seconds, as a `Double`.
    @_spi(Tooling) public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
