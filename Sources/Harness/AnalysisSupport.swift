#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PaymentsCore

/// Nanoseconds of the monotonic clock, for timing batches (never for deciding anything).
enum Stopwatch {
    @inline(__always) static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// The ordinals of one user's rows seen so far: a stamp per ordinal, so starting the next user
/// costs nothing and nothing is allocated once the table has grown.
final class OrdinalSet {
    private var stamps = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 1024)
    private var current: UInt32 = 1

    init() { stamps.initialize(repeating: 0) }

    deinit { stamps.deallocate() }

    /// Forgets every ordinal.
    func reset() {
        current &+= 1
        if current == 0 {
            stamps.update(repeating: 0)
            current = 1
        }
    }

    /// Adds `ordinal`; false when it was already there.
    @inline(__always) func insert(_ ordinal: UInt32) -> Bool {
        let i = Int(ordinal)
        if i >= stamps.count { grow(to: i + 1) }
        if stamps[i] == current { return false }
        stamps[i] = current
        return true
    }

    private func grow(to count: Int) {
        let larger = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(count, 2 * stamps.count))
        larger.initialize(repeating: 0)
        _ = larger.update(fromContentsOf: stamps)
        stamps.deallocate()
        stamps = larger
    }
}

/// Reusable room for one user's rows, written and read through a pointer: no per-row
/// bookkeeping, and no allocation once it has grown to the largest user. Holds plain values
/// (no references), so rows are overwritten without being deinitialized.
final class RowBuffer<Element> {
    private var base = UnsafeMutablePointer<Element>.allocate(capacity: 256)
    private var capacity = 256

    init() { precondition(_isPOD(Element.self), "RowBuffer holds plain values only") }

    deinit { base.deallocate() }

    /// Room for `count` elements (what was there before is not kept).
    @inline(__always) func room(for count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            base.deallocate()
            capacity = max(count, 2 * capacity)
            base = .allocate(capacity: capacity)
        }
        return base
    }
}

/// The seeded backoff jitter of the payment processor, reseeded for each user so that a user's
/// simulated latencies depend on the user only, not on which task or batch processes them.
final class JitterSource {
    var state = SplitMix64(seed: 0)
}

/// A random number generator that draws from a shared `JitterSource`.
struct UserJitter: RandomNumberGenerator {
    let source: JitterSource

    @inline(__always) mutating func next() -> UInt64 { source.state.next() }
}

/// Folds a user's results into one 64-bit value; the run's digest is the wrapping sum over users,
/// so it is the same for any split into tasks, batches or shards.
struct DigestHasher {
    private var state: UInt64

    init(user: UInt32, stream: UInt64) {
        state = 0xCBF2_9CE4_8422_2325 ^ (UInt64(user) << 8 | stream)
    }

    @inline(__always) mutating func add(_ value: Int64) {
        state = (state ^ UInt64(bitPattern: value)) &* 0x0000_0100_0000_01B3
        state ^= state >> 29
    }

    var value: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Sorts rows that are almost in order, as a user's generated rows are (a few late or
/// interleaved ones): insertion sort, linear in the rows plus the inversions and allocation-free;
/// falls back to the standard sort when the rows turn out to be far from sorted. The result is the
/// order `precedes` defines; equal elements are interchangeable (they are equal values).
@inline(__always)
func sortNearlySorted<T>(_ rows: UnsafeMutableBufferPointer<T>, by precedes: (T, T) -> Bool) {
    guard rows.count > 1 else { return }
    var budget = 16 * rows.count
    for i in 1..<rows.count {
        let row = rows[i]
        var j = i
        while j > 0, precedes(row, rows[j - 1]) {
            rows[j] = rows[j - 1]
            j -= 1
        }
        rows[j] = row
        budget -= i - j
        if budget < 0 {
            var all = rows
            all.sort(by: precedes)
            return
        }
    }
}
