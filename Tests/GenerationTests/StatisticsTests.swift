@_spi(Tooling) @testable import Export
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

/// Generated rates and distributions match the scenario within stated tolerances (fixed seeds).
@Suite("Statistics")
struct StatisticsTests {
    @Test("the protocol mix matches the scenario within 1.5 points (20,000 users)")
    func protocolMix() {
        // Given the default population
        let sut = Simulator(scenario: ScenarioBuilder(users: 20_000, seed: 3).build())
        // When the profiles are drawn
        var counts: [FastingProtocol: Int] = [:]
        for i in 0..<20_000 { counts[sut.user(i).fastingProtocol, default: 0] += 1 }
        // Then each share is within 0.015 of its weight (16:8 40%, 18:6 15%, 20:4 8%, omad 5%, none 32%)
        let expected: [FastingProtocol: Double] = [.sixteenEight: 0.40, .eighteenSix: 0.15, .twentyFour: 0.08, .omad: 0.05, .none: 0.32]
        for (value, share) in expected { #expect(abs(Double(counts[value, default: 0]) / 20_000 - share) < 0.015, "\(value)") }
    }

    @Test("mean daily kcal is the energy need within 3% (1,000 users, 14 days, no faults)")
    func kcalFollowsEnergyNeed() {
        // Given clean data
        let sut = Simulator(scenario: ScenarioBuilder(users: 1000, days: 14, seed: 4).clean().build())
        var batch = SimulationBatch()
        // When all meals are generated
        sut.fill(&batch, with: sut.allUsers)
        // Then the ratio of all kcal eaten to the sum of the users' daily needs over the days is 1 ± 0.03
        var eaten = 0.0
        var needed = 0.0
        for (i, user) in batch.users.enumerated() {
            needed += user.energyNeedKcal * 14
            for meal in batch.meals(ofUserAt: i) { eaten += Double(meal.kcalMilli) / 1000 }
        }
        #expect(abs(eaten / needed - 1) < 0.03)
    }

    @Test("the currency mix of payments matches the scenario within 3 points (5,000 users, 7 days)")
    func currencyMix() {
        // Given the default currency weights (USD 35%, EUR 25%, INR 10%, GBP 8%, …) and no faults
        let sut = Simulator(scenario: ScenarioBuilder(users: 5000, days: 7, seed: 5).clean().build())
        var batch = SimulationBatch()
        // When the payments are generated
        sut.fill(&batch, with: sut.allUsers)
        // Then each currency's share of the charges is within 0.03 of its weight
        let charges = batch.payments.filter { $0.kind == .charge }
        var counts: [Currency: Int] = [:]
        for charge in charges { counts[charge.currency, default: 0] += 1 }
        let model = sut.scenario.payments.currencies
        for (currency, share) in zip(model.values, model.probabilities) {
            #expect(abs(Double(counts[currency, default: 0]) / Double(charges.count) - share) < 0.03, "\(currency)")
        }
        #expect(charges.count > 15_000)
    }

    @Test("the share of phone samples under a watch sample is watch_share × (1 − watch_off_rate) within 3 points")
    func watchOverlap() {
        // Given 45% watch owners who take the watch off in 15% of the bouts (expected 0.45 × 0.85 = 0.3825)
        let sut = Simulator(scenario: ScenarioBuilder(users: 3000, days: 5, seed: 6).clean().build())
        var batch = SimulationBatch()
        // When the samples are generated
        sut.fill(&batch, with: sut.allUsers)
        // Then the share of phone samples overlapping a watch sample of the same user is 0.3825 ± 0.03
        var phones = 0
        var covered = 0
        for i in batch.users.indices {
            let samples = batch.steps(ofUserAt: i)
            let watches = samples.filter { $0.source == .watch }
            for phone in samples where phone.source == .phone {
                phones += 1
                if watches.contains(where: { $0.start < phone.end && phone.start < $0.end }) { covered += 1 }
            }
        }
        #expect(abs(Double(covered) / Double(phones) - 0.3825) < 0.03)
    }

    @Test("meal and step fault rates are the scenario's within 15% (rate 1% each)")
    func rowFaultRates() {
        // Given every fault at 1% of the rows
        let sut = Simulator(scenario: ScenarioBuilder(users: 3000, days: 7, seed: 7).with {
            $0.faults.defaultRate = 0.01
            $0.faults.users[.malformed] = 0
        }.build())
        var tally = FaultTally()
        var meals = 0
        var steps = 0
        // When the rows are generated
        sut.forEachBatch(sut.allUsers) { batch in
            tally.add(batch)
            meals += batch.meals.count
            steps += batch.steps.count
        }
        // Then each reason's share of the rows is 0.01 ± 0.0015 (out-of-order counts rows moved)
        for reason in MealRejection.allCases {
            #expect(abs(Double(tally.meals[reason, default: 0]) / Double(meals) - 0.01) < 0.0015, "meals \(reason)")
        }
        for reason in StepRejection.allCases {
            #expect(abs(Double(tally.steps[reason, default: 0]) / Double(steps) - 0.01) < 0.0015, "steps \(reason)")
        }
        #expect(abs(Double(tally.mealsLate) / Double(meals) - 0.01) < 0.002)
    }

    @Test("payment fault rates per charge are the scenario's within 20% (rate 2% each)")
    func paymentFaultRates() {
        // Given every payment fault at 2% of the charges, and gateway outcomes as in the faults scenario
        let sut = Simulator(scenario: ScenarioBuilder(users: 4000, days: 7, seed: 8).with {
            $0.faults.defaultRate = 0.02
            $0.payments.perUserPerDay = 2
        }.build())
        var batch = SimulationBatch()
        // When the payments are generated
        sut.fill(&batch, with: sut.allUsers)
        var tally = FaultTally()
        tally.add(batch)
        let charges = Double(batch.payments.filter { $0.kind == .charge }.count)
        // Then each reason that changes a charge is at 0.02 ± 0.004 of the charges, and a refund
        // fault row exists for each kind
        for reason: PaymentRejection in [.malformed, .unknownUser, .missingKey, .unsupportedCurrency, .invalidAmount, .overLimit,
                                         .idempotencyConflict, .unknownCharge] {
            #expect(abs(Double(tally.payments[reason, default: 0]) / charges - 0.02) < 0.004, "\(reason)")
        }
        #expect(tally.payments[.currencyMismatch, default: 0] > 0)
        #expect(tally.payments[.refundExceeds, default: 0] > 0)
    }

    @Test("gateway scripts start with T, L and D at the scenario's rates within 15%")
    func gatewayRates() {
        // Given timeouts 10%, lost responses 5% and declines 10% per attempt
        let sut = Simulator(scenario: ScenarioBuilder(users: 3000, days: 7, seed: 9).clean().with {
            $0.payments.perUserPerDay = 2
            $0.payments.timeoutRate = 0.1
            $0.payments.lostRate = 0.05
            $0.payments.declineRate = 0.1
        }.build())
        var batch = SimulationBatch()
        // When the payments are generated
        sut.fill(&batch, with: sut.allUsers)
        // Then the first responses of the scripts are T 10%, L 5%, D 10% (±15% relative)
        var first: [GatewayResponse: Int] = [:]
        for payment in batch.payments { first[payment.script.response(at: 0), default: 0] += 1 }
        let n = Double(batch.payments.count)
        #expect(abs(Double(first[.timedOut, default: 0]) / n - 0.10) < 0.015)
        #expect(abs(Double(first[.lost, default: 0]) / n - 0.05) < 0.0075)
        #expect(abs(Double(first[.declined, default: 0]) / n - 0.10) < 0.015)
    }
}
