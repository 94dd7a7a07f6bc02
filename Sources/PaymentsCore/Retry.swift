/// How the processor retries: attempts, exponential backoff with jitter, simulated latencies.
/// All times are simulated milliseconds; nothing here ever sleeps.
public struct RetryPolicy: Hashable, Sendable {
    public static let defaultMaxAttempts = 3

    public var maxAttempts: Int
    public var baseDelayMillis: Int64
    public var maxDelayMillis: Int64
    /// Simulated time the gateway takes to answer `A` or `D`.
    public var responseMillis: Int64
    /// Simulated time the client waits before giving up on an attempt (`T`, `L`).
    public var timeoutMillis: Int64

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
    public func backoffMillis(afterAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Int64 {
        let exponential = min(maxDelayMillis, baseDelayMillis << Int64(min(attempt, 30)))
        let half = exponential / 2
        return half + Int64.random(in: 0...(exponential - half), using: &random)
    }
}

/// A clock of simulated time that only moves when told to.
public protocol SimulatedClock {
    var nowMillis: Int64 { get }
    mutating func advance(byMillis: Int64)
}

/// A `SimulatedClock` that starts at a given instant.
public struct ManualClock: SimulatedClock, Sendable {
    public private(set) var nowMillis: Int64

    public init(nowMillis: Int64 = 0) { self.nowMillis = nowMillis }

    public mutating func advance(byMillis: Int64) { nowMillis += byMillis }
}

/// SplitMix64: a tiny seeded generator, used to derive independent streams and for jitter.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
