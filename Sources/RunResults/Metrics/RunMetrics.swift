@_spi(Tooling) import HealthCore
import PaymentsCore

/// Rows rejected per reason, in the reasons' SPEC order.
@_spi(Tooling) public struct RejectionCounts: Sendable, Equatable {
    /// The reasons of the file, in SPEC order.
    @_spi(Tooling) public let reasons: [String]
    /// The count of each reason, in the order of `reasons`.
    @_spi(Tooling) public var counts: [Int] { tally }
    /// `counts`' storage, which the engine's `add(at:)` inlines.
    @usableFromInline package var tally: [Int]

    /// Zero counts of `reasons`.
    @_spi(Tooling) public init(reasons: [String]) {
        self.reasons = reasons
        tally = [Int](repeating: 0, count: reasons.count)
    }

    /// Counts `n` rows of reason `index` (inlined into the engine's loop over rows).
    @inlinable package mutating func add(at index: Int, _ n: Int = 1) { tally[index] += n }

    /// Sets the count of `reason`; false when the reason is not one of `reasons`.
    mutating func set(_ reason: String, to count: Int) -> Bool {
        guard let index = reasons.firstIndex(of: reason) else { return false }
        tally[index] = count
        return true
    }

    /// Rejected rows, all reasons together.
    @_spi(Tooling) public var total: Int { counts.reduce(0, +) }

    /// The count of `reason`, 0 for a reason of another file.
    @_spi(Tooling) public subscript(reason: String) -> Int {
        reasons.firstIndex(of: reason).map { counts[$0] } ?? 0
    }

    /// The reasons that occurred, with their counts, in SPEC order.
    @_spi(Tooling) public var nonZero: [(reason: String, count: Int)] {
        zip(reasons, counts).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
    }

    package mutating func merge(_ other: RejectionCounts) {
        for i in tally.indices { tally[i] += other.tally[i] }
    }
}

/// What one stream (meals, steps, payments), or the generator, or all streams together went through.
@_spi(Tooling) public struct StreamMetrics: Sendable, Equatable {
    /// Rows (events) read.
    @_spi(Tooling) public var events = 0
    /// Batches timed.
    @_spi(Tooling) public var batches = 0
    /// Time spent processing the stream, in nanoseconds (0 when timing is off).
    @_spi(Tooling) public var busyNanos: Int64 = 0
    /// Rejected rows per reason.
    @_spi(Tooling) public var rejected: RejectionCounts
    /// Processing time per batch, in microseconds.
    @_spi(Tooling) public var batchLatency = LatencyHistogram()
    /// Processing time per event within each batch, in nanoseconds (one value per event).
    @_spi(Tooling) public var eventLatency = LatencyHistogram()
    /// Events a paced load made due before the run ended that were never analyzed.
    @_spi(Tooling) public var dropped = 0

    /// Empty metrics of a stream whose rows may be rejected for `reasons`.
    @_spi(Tooling) public init(reasons: [String] = []) {
        rejected = RejectionCounts(reasons: reasons)
    }

    /// Events less the rejected ones.
    @_spi(Tooling) public var accepted: Int { events - rejected.total }

    /// Records one batch of `events` that took `nanos`.
    package mutating func recordBatch(events: Int, nanos: UInt64) {
        batches += 1
        busyNanos += Int64(nanos)
        batchLatency.record((nanos + 999) / 1000)
        if events > 0 { eventLatency.record((nanos + UInt64(events) / 2) / UInt64(events), count: UInt64(events)) }
    }

    package mutating func merge(_ other: StreamMetrics) {
        events += other.events
        batches += other.batches
        dropped += other.dropped
        busyNanos += other.busyNanos
        rejected.merge(other.rejected)
        batchLatency.merge(other.batchLatency)
        eventLatency.merge(other.eventLatency)
    }
}

/// The counters and histograms of a run, or of one partition of it: they merge by adding.
@_spi(Tooling) public struct RunMetrics: Sendable, Equatable {
    /// The most invariant messages kept.
    @_spi(Tooling) public static let messageLimit = 20

    /// Users generated (one per `users` row, duplicated rows counted once).
    @_spi(Tooling) public var users = 0
    /// `users` rows as `analyze` would read them (a duplicated row twice).
    @_spi(Tooling) public var userRows = 0
    /// Rejected `users` rows: `malformed` and `duplicate`.
    @_spi(Tooling) public var userRejections = RejectionCounts(reasons: ["malformed", "duplicate"])
    /// The meal stream.
    @_spi(Tooling) public var meals = StreamMetrics(reasons: MealRejection.allCases.map(\.rawValue))
    /// The step stream.
    @_spi(Tooling) public var steps = StreamMetrics(reasons: StepRejection.allCases.map(\.rawValue))
    /// The payment stream.
    @_spi(Tooling) public var payments = StreamMetrics(reasons: PaymentRejection.allCases.map(\.rawValue))
    /// Final payment states, in `PaymentState.allCases` order.
    @_spi(Tooling) public var paymentStates = [Int](repeating: 0, count: PaymentState.allCases.count)
    /// Simulated time from submission to final answer of each payment that reached the gateway
    /// (retries and backoff included), in milliseconds.
    @_spi(Tooling) public var paymentLatency = LatencyHistogram()
    /// Time from when each batch of a paced load was due to when its analysis ended, in
    /// microseconds: the service time plus any wait behind earlier batches (the coordinated-omission
    /// correction). Empty for unpaced loads.
    @_spi(Tooling) public var responseLatency = LatencyHistogram()
    /// The most any batch of a paced load started after it was due, in seconds.
    @_spi(Tooling) public var behindScheduleSeconds = 0.0
    /// Generating the batches.
    @_spi(Tooling) public var generation = StreamMetrics()
    /// Analyzing whole batches, all three streams.
    @_spi(Tooling) public var total = StreamMetrics()
    /// Broken SPEC §4 invariants (always 0 unless the processor has a bug).
    @_spi(Tooling) public var invariantViolations = 0
    /// The first violations found.
    @_spi(Tooling) public var invariantMessages: [String] = []
    /// A sum over users of a hash of their results: equal digests, equal outputs.
    @_spi(Tooling) public var digest: UInt64 = 0

    /// Metrics of nothing yet.
    @_spi(Tooling) public init() {}

    /// Events of the three streams.
    @_spi(Tooling) public var events: Int { meals.events + steps.events + payments.events }

    /// The count of `state`.
    @_spi(Tooling) public func count(of state: PaymentState) -> Int {
        paymentStates[state.position]
    }

    package mutating func addViolations(_ messages: [String]) {
        invariantViolations += messages.count
        for message in messages where invariantMessages.count < Self.messageLimit { invariantMessages.append(message) }
    }

    /// Adds `other`'s counts and histograms (the digest too: it is a sum over users).
    @_spi(Tooling) public mutating func merge(_ other: RunMetrics) {
        users += other.users
        userRows += other.userRows
        userRejections.merge(other.userRejections)
        meals.merge(other.meals)
        steps.merge(other.steps)
        payments.merge(other.payments)
        for i in paymentStates.indices { paymentStates[i] += other.paymentStates[i] }
        paymentLatency.merge(other.paymentLatency)
        responseLatency.merge(other.responseLatency)
        behindScheduleSeconds = max(behindScheduleSeconds, other.behindScheduleSeconds)
        generation.merge(other.generation)
        total.merge(other.total)
        invariantViolations += other.invariantViolations
        for message in other.invariantMessages where invariantMessages.count < Self.messageLimit { invariantMessages.append(message) }
        digest &+= other.digest
    }
}

extension PaymentState {
    /// The state's place in `allCases`, which indexes `RunMetrics.paymentStates` and the digest: a
    /// switch, where `allCases.firstIndex(of:)` builds the array and searches it for every payment.
    @inlinable package var position: Int {
        switch self {
        case .captured: 0
        case .refunded: 1
        case .declined: 2
        case .failed: 3
        case .deduplicated: 4
        case .rejected: 5
        }
    }
}
