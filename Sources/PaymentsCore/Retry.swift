/// How the processor retries: attempts, exponential backoff with jitter, simulated latencies.
/// All times are simulated milliseconds; nothing here ever sleeps.
public struct RetryPolicy: Hashable, Sendable {
    /// `max_attempts` of SPEC §4 unless told otherwise.
    @usableFromInline package static let defaultMaxAttempts = 3

    /// Gateway attempts per payment, 1...32.
    public var maxAttempts: Int
    /// Backoff after the first timeout; doubles with each attempt.
    public var baseDelayMillis: Int64
    /// The longest backoff.
    public var maxDelayMillis: Int64
    /// Simulated time the gateway takes to answer `A` or `D`.
    public var responseMillis: Int64
    /// Simulated time the client waits before giving up on an attempt (`T`, `L`).
    public var timeoutMillis: Int64

    /// A policy; `maxAttempts` must be in 1...32.
    public init(
        maxAttempts: Int = defaultMaxAttempts, baseDelayMillis: Int64 = 100, maxDelayMillis: Int64 = 5_000,
        responseMillis: Int64 = 40, timeoutMillis: Int64 = 1_000
    ) {
        precondition((1...GatewayScript.capacity).contains(maxAttempts), "maxAttempts must be in 1...\(GatewayScript.capacity)")
        self.maxAttempts = maxAttempts
        self.baseDelayMillis = baseDelayMillis
        self.maxDelayMillis = maxDelayMillis
        self.responseMillis = responseMillis
        self.timeoutMillis = timeoutMillis
    }

    /// The wait after failed attempt `attempt` (0-based): half of `base × 2^attempt` (capped)
    /// plus a uniformly random share of the other half ("equal jitter").
    @inlinable public func backoffMillis(afterAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Int64 {
        let exponential = min(maxDelayMillis, baseDelayMillis << Int64(min(attempt, 30)))
        let half = exponential / 2
        return half + Int64.random(in: 0...(exponential - half), using: &random)
    }
}

/// A clock of simulated time that only moves when told to.
@usableFromInline package protocol SimulatedClock {
    /// Simulated milliseconds since the clock started.
    var nowMillis: Int64 { get }
    /// Moves the clock on by `byMillis` simulated milliseconds.
    mutating func advance(byMillis: Int64)
}

/// A `SimulatedClock` that starts at a given instant.
@usableFromInline package struct ManualClock: SimulatedClock, Sendable {
    /// Simulated milliseconds since the clock started.
    @usableFromInline package private(set) var nowMillis: Int64

    /// A clock that reads `nowMillis`.
    @usableFromInline package init(nowMillis: Int64 = 0) { self.nowMillis = nowMillis }

    /// Moves the clock on.
    @usableFromInline package mutating func advance(byMillis: Int64) { nowMillis += byMillis }
}

/// SplitMix64: a tiny seeded generator, used to derive independent streams and for jitter.
@usableFromInline package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state.
    @usableFromInline package var state: UInt64

    /// A generator that starts from `seed`.
    @usableFromInline package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
