import DatasetText
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import SpecKernel
import UserAlgorithms

/// How batches are analyzed; the same for every partition.
struct WorkerSettings: Sendable {
    var algorithm: AlgorithmSettings
    /// The implementations to drive.
    var implementations: Implementations
    /// Time each stream of each batch (the per-batch and per-event histograms).
    var timing: Bool
    /// Format the SPEC output rows.
    var writesOutput: Bool
}

/// One partition's instances of the implementations; a class, so that calling them (which may
/// mutate them) does not overlap the worker's own mutations.
final class AlgorithmInstances {
    var fasting: any FastingAnalyzing
    var steps: any StepAggregating
    var payments: any PaymentProcessing

    init(_ implementations: Implementations, settings: AlgorithmSettings) {
        fasting = implementations.fasting.init(settings: settings)
        steps = implementations.steps.init(settings: settings)
        payments = implementations.payments.init(settings: settings)
    }
}

/// The work of one partition: checks each batch's rows as `analyze` checks the files `generate`
/// writes from the same batches (the simulator's injected faults, duplicates by row identity),
/// hands each user's accepted rows to the implementations (the SPEC reference is `UserKernel`,
/// the one `analyze` calls), and counts what happened.
///
/// A batch holds every row of its users, so each user is analyzed whole within it; the scratch
/// arrays keep their memory from user to user, so the steady state allocates nothing per event.
struct PartitionWorker {
    let settings: WorkerSettings
    private(set) var metrics = RunMetrics()

    private let algorithms: AlgorithmInstances
    private let meals = RowBuffer<Meal>()
    private let samples = RowBuffer<StepSample>()
    private let requests = RowBuffer<PaymentRequest>()
    private let seen = OrdinalSet()
    private var order = PaymentOrdering()
    private var outcomes: [PaymentOutcome?] = []

    init(settings: WorkerSettings, implementations: Implementations? = nil) {
        self.settings = settings
        algorithms = AlgorithmInstances(implementations ?? settings.implementations, settings: settings.algorithm)
    }

    /// Runs every user of `batch`; reports the results to `output` when it is given. Returns the
    /// processing nanoseconds of each stream (meals, steps, payments, all), when timing.
    @discardableResult
    mutating func run<Output: AnalysisObserver>(_ batch: SimulationBatch, output: inout Output?) -> SIMD4<UInt64>? {
        let timing = settings.timing
        let t0 = timing ? Stopwatch.now() : 0
        countUsers(batch)
        runMeals(batch, output: &output)
        let t1 = timing ? Stopwatch.now() : 0
        runSteps(batch, output: &output)
        let t2 = timing ? Stopwatch.now() : 0
        runPayments(batch, output: &output)
        metrics.total.events += batch.eventCount
        guard timing else { return nil }
        let t3 = Stopwatch.now()
        let nanos = SIMD4(t1 &- t0, t2 &- t1, t3 &- t2, t3 &- t0)
        metrics.meals.recordBatch(events: batch.meals.count, nanos: nanos[0])
        metrics.steps.recordBatch(events: batch.steps.count, nanos: nanos[1])
        metrics.payments.recordBatch(events: batch.payments.count, nanos: nanos[2])
        metrics.total.recordBatch(events: batch.eventCount, nanos: nanos[3])
        return nanos
    }

    /// Rows rejected so far, per stream (meals, steps, payments, all).
    var rejectedSoFar: SIMD4<Int> {
        let meals = metrics.meals.rejected.total, steps = metrics.steps.rejected.total, payments = metrics.payments.rejected.total
        return SIMD4(meals, steps, payments, meals + steps + payments)
    }

    /// Records a paced batch's response time and how late its analysis started.
    mutating func recordSchedule(responseNanos: UInt64, behindSeconds: Double) {
        metrics.responseLatency.record((responseNanos + 999) / 1000)
        metrics.behindScheduleSeconds = max(metrics.behindScheduleSeconds, behindSeconds)
    }

    /// Records the time the generator took for `batch`.
    mutating func recordGeneration(of batch: SimulationBatch, nanos: UInt64?) {
        metrics.generation.events += batch.eventCount
        if let nanos { metrics.generation.recordBatch(events: batch.eventCount, nanos: nanos) }
    }

    private mutating func countUsers(_ batch: SimulationBatch) {
        metrics.users += batch.users.count
        for user in batch.users {
            metrics.userRows += 1
            switch user.fault {
            case .malformed?: metrics.userRejections.add(at: 0)
            case .duplicate?:
                metrics.userRows += 1
                metrics.userRejections.add(at: 1)
            case nil: break
            }
        }
    }

    private mutating func runMeals<Output: AnalysisObserver>(_ batch: SimulationBatch, output: inout Output?) {
        metrics.meals.events += batch.meals.count
        for (i, user) in batch.users.enumerated() {
            let accepted = user.isAccepted
            let rows = batch.meals(ofUserAt: i)
            let room = meals.room(for: rows.count)
            var kept = 0
            var seen = seen.nextUser()
            var rejectedOfUser = 0
            // Through a buffer pointer: iterating the `ArraySlice` checked its bounds at every row.
            rows.withUnsafeBufferPointer { rows in
                for row in rows {
                    var reason = row.textRejection(userAccepted: accepted)
                        ?? MealRejection.check(start: row.start, end: row.end, hasNegativeValue: row.hasNegativeValue)
                    if reason == nil, !seen.insert(row.ordinal) { reason = .duplicate }
                    guard let reason else {
                        (room + kept).initialize(to: row.meal)
                        kept += 1
                        continue
                    }
                    metrics.meals.rejected.add(at: MealRejection.allCases.firstIndex(of: reason)!)
                    if accepted, reason != .unknownUser { rejectedOfUser += 1 }
                }
            }
            guard accepted else { continue }
            var hash = DigestHasher(user: user.index, stream: 1)
            var all = UserMeals(user: user.analyzed, rows: UnsafeMutableBufferPointer(start: room, count: kept))
            let summary = algorithms.fasting.analyze(&all) { day in
                hash.add(day.day.index)
                hash.add(Int64(day.episodes))
                hash.add(day.kcalMicros)
                hash.add(day.eatingWindowSeconds)
                hash.add(Int64(day.fastsEnded))
                hash.add(day.longestFastEndedSeconds)
                hash.add(day.compliant.map { $0 ? 1 : 0 } ?? -1)
                output?.fastingDay(user: user.index, day)
            }
            hash.add(Int64(summary.meals))
            hash.add(Int64(rejectedOfUser))
            hash.add(Int64(summary.episodes))
            hash.add(Int64(summary.fasts))
            hash.add(Int64(summary.evaluatedDays))
            hash.add(Int64(summary.compliantDays))
            hash.add(summary.totalFastSeconds)
            hash.add(summary.longestFastSeconds)
            metrics.digest &+= hash.value
            output?.fastingSummary(user: user.index, summary, rejected: rejectedOfUser)
        }
    }

    private mutating func runSteps<Output: AnalysisObserver>(_ batch: SimulationBatch, output: inout Output?) {
        metrics.steps.events += batch.steps.count
        for (i, user) in batch.users.enumerated() {
            let accepted = user.isAccepted
            let rows = batch.steps(ofUserAt: i)
            let room = samples.room(for: rows.count)
            var kept = 0
            var seen = seen.nextUser()
            rows.withUnsafeBufferPointer { rows in
                for row in rows {
                    let sample = row.sample
                    var reason = row.textRejection(userAccepted: accepted)
                        ?? StepRejection.check(start: sample.start, end: sample.end, count: sample.count)
                    if reason == nil, !seen.insert(row.ordinal) { reason = .duplicate }
                    guard let reason else {
                        (room + kept).initialize(to: sample)
                        kept += 1
                        continue
                    }
                    metrics.steps.rejected.add(at: StepRejection.allCases.firstIndex(of: reason)!)
                }
            }
            guard accepted, kept > 0 else { continue }
            var hash = DigestHasher(user: user.index, stream: 2)
            var all = UserSteps(user: user.analyzed, rows: UnsafeMutableBufferPointer(start: room, count: kept))
            algorithms.steps.aggregate(&all) { day in
                hash.add(day.day.index)
                hash.add(Int64((day.steps * 1000).rounded()))
                hash.add(Int64((day.average7 * 1000).rounded()))
                output?.stepDay(user: user.index, day)
            }
            metrics.digest &+= hash.value
        }
    }

    private mutating func runPayments<Output: AnalysisObserver>(_ batch: SimulationBatch, output: inout Output?) {
        metrics.payments.events += batch.payments.count
        for (i, user) in batch.users.enumerated() {
            let rows = batch.payments(ofUserAt: i)
            guard !rows.isEmpty else { continue }
            let accepted = user.isAccepted
            var hash = DigestHasher(user: user.index, stream: 3)
            var slots = 0
            for row in rows { slots = max(slots, Int(row.ordinal) + 1) }
            outcomes.removeAll(keepingCapacity: true)
            outcomes.append(contentsOf: repeatElement(nil, count: slots))
            order.removeAll()
            for (k, row) in zip(rows.indices, rows) {
                if let reason = row.textRejection(userAccepted: accepted) {
                    outcomes[Int(row.ordinal)] = .rejected(reason)
                } else {
                    order.add(createdAt: row.createdAt, idRank: row.ordinal, row: Int32(k))
                }
            }
            let ledger = order.count > 0 ? process(rows, of: user) : nil
            var present = 0
            for (ordinal, outcome) in outcomes.enumerated() {
                guard let outcome else { continue }
                present += 1
                let state = outcome.state.position
                metrics.paymentStates[state] += 1
                let reason = outcome.reason.map { PaymentRejection.allCases.firstIndex(of: $0)! }
                if let reason { metrics.payments.rejected.add(at: reason) }
                hash.add(Int64(ordinal))
                hash.add(Int64(state))
                hash.add(Int64(reason ?? -1))
                hash.add(Int64(outcome.attempts))
                output?.outcome(user: user.index, ordinal: UInt32(ordinal), outcome)
            }
            if present != rows.count {
                metrics.addViolations(["user \(Ids.user(user.index)): \(rows.count - present) payments share a payment_id with another row"])
            }
            if let ledger {
                ledger.forEachEntry { entry in
                    hash.add(Int64(entry.currency.rawValue))
                    hash.add(entry.capturedMinor)
                    hash.add(entry.refundedMinor)
                    output?.ledgerEntry(user: user.index, entry)
                }
            }
            metrics.digest &+= hash.value
        }
    }

    /// Runs the user's valid rows through the payment processor in SPEC §4 order, records the
    /// outcomes and broken invariants, and returns the user's ledger.
    private mutating func process(_ rows: ArraySlice<PaymentRow>, of user: UserRow) -> UserLedger {
        order.sort()
        let room = requests.room(for: order.count)
        for i in 0..<order.count { (room + i).initialize(to: rows[Int(order[i])].request) }
        let payments = UserPayments(user: user.analyzed, rows: UnsafeMutableBufferPointer(start: room, count: order.count))
        let ledger = algorithms.payments.process(payments) { position, outcome in
            outcomes[Int(rows[Int(order[position])].ordinal)] = outcome
            if outcome.attempts > 0 { metrics.paymentLatency.record(UInt64(max(0, outcome.latencyMillis))) }
        }
        let problems = algorithms.payments.invariantViolations
        if !problems.isEmpty { metrics.addViolations(problems.map { "user \(Ids.user(user.index)): \($0)" }) }
        return ledger
    }
}

extension UserRow {
    /// What the algorithms need to know about the user.
    var analyzed: AnalyzedUser { AnalyzedUser(index: index, utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol) }
}
