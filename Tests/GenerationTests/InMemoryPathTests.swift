@_spi(Tooling) @testable import Export
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

/// The in-memory path of the harness: batches go straight to the core algorithms, and the rows
/// each rejects are exactly the injected faults.
@Suite("In-memory batches")
struct InMemoryPathTests {
    private let simulator = Simulator(scenario: ScenarioBuilder(users: 400, days: 7, seed: 31).with {
        $0.faults.defaultRate = 0.01
        $0.faults.users = [.malformed: 0, .duplicate: 0.01]
        $0.payments.perUserPerDay = 2
        $0.payments.refundRate = 0.3
        $0.payments.retryRate = 0.1
        $0.payments.timeoutRate = 0.1
        $0.payments.lostRate = 0.05
    }.build())

    @Test("meal rejections per reason equal the injected meal faults")
    func meals() {
        // Given batches of 64 users
        var rejected: [MealRejection: Int] = [:]
        var tally = FaultTally()
        var days = 0
        // When each user's meals go through the SPEC checks and the fasting analyzer
        simulator.forEachBatch(simulator.allUsers, usersPerBatch: 64) { batch in
            tally.add(batch)
            for (i, user) in batch.users.enumerated() {
                var seen = Set<UInt64>()
                var accepted: [Meal] = []
                for row in batch.meals(ofUserAt: i) {
                    let reason = row.textRejection(userAccepted: user.isAccepted)
                        ?? MealRejection.check(start: row.start, end: row.end, hasNegativeValue: row.hasNegativeValue)
                        ?? (seen.insert(row.idKey).inserted ? nil : .duplicate)
                    if let reason { rejected[reason, default: 0] += 1 } else { accepted.append(row.meal) }
                }
                days += FastingAnalyzer.analyze(accepted, configuration: user.fastingConfiguration()).days.count
            }
        }
        // Then every injected fault is rejected with its reason, and nothing else is
        #expect(rejected == tally.meals)
        #expect(tally.meals.count == MealRejection.allCases.count)
        #expect(days > 400 * 6)
    }

    @Test("step rejections per reason equal the injected step faults")
    func steps() {
        var rejected: [StepRejection: Int] = [:]
        var tally = FaultTally()
        simulator.forEachBatch(simulator.allUsers, usersPerBatch: 64) { batch in
            tally.add(batch)
            for (i, user) in batch.users.enumerated() {
                var seen = Set<UInt64>()
                var accepted: [StepSample] = []
                for row in batch.steps(ofUserAt: i) {
                    let sample = row.sample
                    let reason = row.textRejection(userAccepted: user.isAccepted)
                        ?? StepRejection.check(start: sample.start, end: sample.end, count: sample.count)
                        ?? (seen.insert(row.idKey).inserted ? nil : .duplicate)
                    if let reason { rejected[reason, default: 0] += 1 } else { accepted.append(sample) }
                }
                _ = StepAggregator.aggregate(accepted, utcOffsetMinutes: user.utcOffsetMinutes)
            }
        }
        #expect(rejected == tally.steps)
        #expect(tally.steps.count == StepRejection.allCases.count)
    }

    @Test("payment rejections per reason equal the injected payment faults, and the invariants hold")
    func payments() {
        // Given the processor of SPEC §4
        var sut = PaymentProcessor()
        var rejected: [PaymentRejection: Int] = [:]
        var states: [PaymentState: Int] = [:]
        var violations: [String] = []
        var tally = FaultTally()
        // When each user's payments are processed in (created_at, payment_id) order
        simulator.forEachBatch(simulator.allUsers, usersPerBatch: 64) { batch in
            tally.add(batch)
            for (i, user) in batch.users.enumerated() {
                sut.startUser()
                let rows = batch.payments(ofUserAt: i).sorted {
                    PaymentRequest.precedes($0.request, $1.request, idRank: { $0 })
                }
                var results: [(request: PaymentRequest, outcome: PaymentOutcome?)] = []
                for row in rows {
                    if let reason = row.textRejection(userAccepted: user.isAccepted) {
                        rejected[reason, default: 0] += 1
                        continue
                    }
                    let outcome = sut.process(row.request)
                    if let reason = outcome.reason { rejected[reason, default: 0] += 1 }
                    states[outcome.state, default: 0] += 1
                    results.append((row.request, outcome))
                }
                violations += PaymentInvariants.violations(payments: results, ledger: sut.ledger, gateway: sut.gateway)
            }
        }
        // Then the rejections are exactly the injected faults, retries are deduplicated, and no
        // invariant is broken
        #expect(rejected == tally.payments)
        #expect(tally.payments.count == PaymentRejection.allCases.count)
        #expect(states[.deduplicated, default: 0] == tally.retries)
        #expect(states[.refunded, default: 0] > 0 && states[.failed, default: 0] > 0 && states[.declined, default: 0] > 0)
        #expect(violations.isEmpty)
    }
}
