// Fixed, seeded workloads of the core algorithms, shared by the XCTest performance tests and the
// package-benchmark suite in Benchmarks/, so both measure the same work.
@_spi(Tooling) import HealthCore
import PaymentsCore

/// A regression added on purpose to a workload, to show that the performance gates catch it.
/// Chosen with `SIMHARNESS_INJECT_REGRESSION`: `allocation`, `allocation-per-user`, `slowdown` or
/// `work:N`; `none` otherwise.
@_spi(Tooling) public enum InjectedRegression: Sendable, Equatable {
    case none
    /// One heap allocation (and free) per event.
    case allocation
    /// One heap allocation (and free) per user: the smallest leak of a per-user buffer.
    case allocationPerUser
    /// 48 dependent multiply-xorshift rounds per event: about 75 ns, several times the cost of the
    /// fasting analyzer's work on an event (~10 ns), well past the gates' 2× and 2.5× time tolerances.
    case slowdown
    /// `N` dependent multiply-xorshift rounds every 16 events: a graded slowdown, for showing how small
    /// a regression the instruction-count gate catches (a round is a few instructions).
    case work(rounds: Int)

    /// The regression named by `SIMHARNESS_INJECT_REGRESSION`.
    @_spi(Tooling) public static func fromEnvironment(_ environment: [String: String]) -> InjectedRegression {
        switch environment["SIMHARNESS_INJECT_REGRESSION"] {
        case "allocation": .allocation
        case "allocation-per-user": .allocationPerUser
        case "slowdown": .slowdown
        case let text? where text.hasPrefix("work:"): Int(text.dropFirst(5)).map { .work(rounds: max(0, $0)) } ?? .none
        default: .none
        }
    }

    /// The extra work for the event at `index`; its result feeds the checksum so it cannot be removed.
    /// (Inlinable: a workload in another module, `simharness-workloads pipeline`, pays no call per event.)
    @inlinable @inline(__always) @_spi(Tooling) public func perEvent(_ index: Int) -> UInt64 {
        switch self {
        case .none, .allocationPerUser:
            return 0
        case .allocation:
            return Self.allocation(index)
        case .slowdown:
            return Self.rounds(48, from: UInt64(index))
        case .work(let rounds):
            return index & 15 == 0 ? Self.rounds(rounds, from: UInt64(index)) : 0
        }
    }

    /// The extra work at the start of the user at `index`.
    @inline(__always) package func perUser(_ index: Int) -> UInt64 {
        self == .allocationPerUser ? Self.allocation(index) : 0
    }

    @usableFromInline @inline(__always) static func allocation(_ index: Int) -> UInt64 {
        let block = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        block.storeBytes(of: UInt64(index), as: UInt64.self)
        defer { block.deallocate() }
        return UInt64(UInt(bitPattern: block)) ^ block.load(as: UInt64.self)
    }

    @usableFromInline @inline(__always) static func rounds(_ count: Int, from seed: UInt64) -> UInt64 {
        var x = seed
        for _ in 0..<count { x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9 }
        return x
    }
}

/// Uniform draws from a seeded `SplitMix64`.
struct WorkloadRandom {
    var generator: SplitMix64

    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &generator) }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }

    mutating func utcOffsetMinutes() -> Int32 { Int32(int(-12...14) * 60) }
}

/// Each user's slice of a contiguous event array, with the user's UTC offset.
struct UserSlice: Sendable {
    var events: Range<Int>
    var utcOffsetMinutes: Int32
}

/// Exactly `events` meals of as many users as it takes, `days` days each (3 to 5 meals a day, some
/// overlapping; the last user's history is cut short), each user's sorted by `Meal.precedes`, fed
/// through `FastingAccumulator`.
@_spi(Tooling) public struct FastingWorkload: Sendable {
    /// The first day of the workloads' data.
    package static let firstDay: Int64 = 20_000  // 2024-10-04

    var meals: [Meal] = []
    var users: [UserSlice] = []
    var protocols: [FastingProtocol] = []

    /// About `events` meals over `days` days per user, from `seed`.
    @_spi(Tooling) public init(events: Int, days: Int, seed: UInt64) {
        var random = WorkloadRandom(seed: seed)
        meals.reserveCapacity(events + days * 5)
        var user = 0
        while meals.count < events {
            let offset = random.utcOffsetMinutes()
            let start = meals.count
            var dayMeals: [Meal] = []
            for day in 0..<Int64(days) {
                let midnight = LocalDay(index: Self.firstDay + day).startInstant(utcOffsetMinutes: offset)
                dayMeals.removeAll(keepingCapacity: true)
                for hour in [8, 13, 19] as [Int64] {
                    let start = midnight + hour * 3600 + random.int(-5400...5400)
                    dayMeals.append(Meal(start: start, end: start + random.int(300...3600), kcalMicros: random.int(100...900) * 1_000_000))
                }
                for _ in 0..<random.int(0...2) {
                    let start = midnight + random.int(6...23) * 3600
                    dayMeals.append(Meal(start: start, end: start + random.int(0...900), kcalMicros: random.int(50...300) * 1_000_000))
                }
                dayMeals.sort(by: Meal.precedes)
                meals.append(contentsOf: dayMeals)
            }
            meals.removeLast(max(0, meals.count - events))
            users.append(UserSlice(events: start..<meals.count, utcOffsetMinutes: offset))
            protocols.append(FastingProtocol.allCases[user % FastingProtocol.allCases.count])
            user += 1
        }
    }

    /// Meals in the workload.
    @_spi(Tooling) public var eventCount: Int { meals.count }

    /// Analyzes every user; returns a checksum of the days and summaries.
    @_spi(Tooling) public func run(injecting regression: InjectedRegression) -> UInt64 {
        var checksum: UInt64 = 0
        meals.withUnsafeBufferPointer { meals in
            for (index, user) in users.enumerated() {
                checksum &+= regression.perUser(index)
                let configuration = FastingConfiguration(utcOffsetMinutes: user.utcOffsetMinutes, fastingProtocol: protocols[index])
                var accumulator = FastingAccumulator(configuration: configuration)
                for event in user.events {
                    accumulator.add(meals[event]) { checksum &+= UInt64(bitPattern: $0.eatingWindowSeconds) }
                    checksum &+= regression.perEvent(event)
                }
                let summary = accumulator.finish { checksum &+= UInt64(bitPattern: $0.eatingWindowSeconds) }
                checksum &+= UInt64(bitPattern: summary.totalFastSeconds)
            }
        }
        return checksum
    }
}

/// Exactly `events` step samples of as many users as it takes, `days` days each: a watch worn through
/// the day in 5–15 minute samples with gaps, and a phone reporting overlapping 30–90 minute samples,
/// each user's sorted by `StepSample.precedes`, fed through `StepAccumulator`.
@_spi(Tooling) public struct StepWorkload: Sendable {
    var samples: [StepSample] = []
    var users: [UserSlice] = []

    /// About `events` samples over `days` days per user, from `seed`.
    @_spi(Tooling) public init(events: Int, days: Int, seed: UInt64) {
        var random = WorkloadRandom(seed: seed)
        var daySamples: [StepSample] = []
        samples.reserveCapacity(events + days * 100)
        while samples.count < events {
            let offset = random.utcOffsetMinutes()
            let start = samples.count
            for day in 0..<Int64(days) {
                let midnight = LocalDay(index: FastingWorkload.firstDay + day).startInstant(utcOffsetMinutes: offset)
                daySamples.removeAll(keepingCapacity: true)
                var t = midnight + 7 * 3600 + random.int(0...3600)
                while t < midnight + 22 * 3600 {
                    let end = t + random.int(300...900)
                    if random.chance(70) {
                        daySamples.append(StepSample(start: t, end: end, count: Double(random.int(0...1500)), source: .watch))
                    }
                    t = end + random.int(0...600)
                }
                t = midnight + 6 * 3600 + random.int(0...7200)
                while t < midnight + 24 * 3600 {
                    let end = t + random.int(1800...5400)
                    daySamples.append(StepSample(start: t, end: end, count: Double(random.int(0...6000)), source: .phone))
                    t = end + random.int(0...3600)
                }
                daySamples.sort(by: StepSample.precedes)
                samples.append(contentsOf: daySamples)
            }
            samples.removeLast(max(0, samples.count - events))
            users.append(UserSlice(events: start..<samples.count, utcOffsetMinutes: offset))
        }
    }

    /// Samples in the workload.
    @_spi(Tooling) public var eventCount: Int { samples.count }

    /// Aggregates every user; returns a checksum of the daily totals.
    @_spi(Tooling) public func run(injecting regression: InjectedRegression) -> UInt64 {
        var checksum: UInt64 = 0
        samples.withUnsafeBufferPointer { samples in
            for (index, user) in users.enumerated() {
                checksum &+= regression.perUser(index)
                var accumulator = StepAccumulator(utcOffsetMinutes: user.utcOffsetMinutes)
                accumulator.add(contentsOf: UnsafeBufferPointer(rebasing: samples[user.events])) { checksum &+= UInt64($0.steps) }
                accumulator.finish { checksum &+= UInt64($0.steps) }
                for event in user.events { checksum &+= regression.perEvent(event) }
            }
        }
        return checksum
    }
}

/// Exactly `events` payments, `perUser` for each user, in processing order: mostly charges that the gateway
/// approves at once, some declined, timed out, lost or failing every attempt, client retries (same
/// key and values), idempotency conflicts and refunds of earlier charges. Fed through one
/// `PaymentProcessor`, restarted for each user.
@_spi(Tooling) public struct PaymentWorkload: Sendable {
    var payments: [PaymentRequest] = []
    var users: [Range<Int>] = []

    /// About `events` payments, `perUser` per user, from `seed`.
    @_spi(Tooling) public init(events: Int, perUser: Int, seed: UInt64) {
        var random = WorkloadRandom(seed: seed)
        let scripts: [GatewayScript] = [
            GatewayScript([.declined]), GatewayScript([.timedOut, .approved]), GatewayScript([.lost]),
            GatewayScript([.timedOut, .timedOut, .timedOut]),
        ]
        var nextID: UInt32 = 0
        payments.reserveCapacity(events)
        while payments.count < events {
            let start = payments.count
            var createdAt: Int64 = 1_700_000_000
            for _ in 0..<min(perUser, events - start) {
                createdAt += random.int(1...86_400)
                nextID += 1
                let previous = payments.count > start ? payments[Int(random.int(Int64(start)...Int64(payments.count - 1)))] : nil
                var payment = PaymentRequest(
                    id: nextID, key: nextID, keyLength: 16, kind: .charge, amountMinor: random.int(100...100_000),
                    currency: Currency.allCases[Int(random.int(0...11))], createdAt: createdAt, refundOf: nil,
                    script: random.chance(85) ? GatewayScript([.approved]) : scripts[Int(random.int(0...3))]
                )
                if let previous, random.chance(10) {
                    // A client retry: same key and values under a new payment id.
                    payment.key = previous.key
                    payment.kind = previous.kind
                    payment.amountMinor = previous.amountMinor
                    payment.currency = previous.currency
                    payment.refundOf = previous.refundOf
                    if random.chance(10) { payment.amountMinor! += 1 }  // an idempotency conflict
                } else if let previous, previous.kind == .charge, random.chance(20) {
                    payment.kind = .refund
                    payment.refundOf = previous.id
                    payment.currency = previous.currency
                    payment.amountMinor = previous.amountMinor.map { max(1, $0 / Int64(random.int(1...4))) }
                }
                payments.append(payment)
            }
            users.append(start..<payments.count)
        }
    }

    /// Payments in the workload.
    @_spi(Tooling) public var eventCount: Int { payments.count }

    /// Processes every user's payments; returns a checksum of the outcomes.
    @_spi(Tooling) public func run(injecting regression: InjectedRegression) -> UInt64 {
        var processor = PaymentProcessor(seed: 7)
        var checksum: UInt64 = 0
        payments.withUnsafeBufferPointer { payments in
            for (index, user) in users.enumerated() {
                checksum &+= regression.perUser(index)
                processor.startUser()
                for event in user {
                    let outcome = processor.process(payments[event])
                    checksum &+= UInt64(outcome.attempts) &+ UInt64(bitPattern: outcome.latencyMillis)
                    checksum &+= regression.perEvent(event)
                }
            }
        }
        return checksum
    }
}
