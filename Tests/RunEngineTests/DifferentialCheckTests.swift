import Foundation
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) @testable import Generation
import SpecKernel
import TestSupport
import UserAlgorithms

@Suite("Checking an implementation against the reference", .budget(minutes: 2))
struct DifferentialCheckTests {
    private func checkedRun(_ implementations: Implementations, sample: Double = 1, users: Int = 60) async throws -> RunResult {
        var options = RunOptions.test(tasks: 2)
        options.implementations = implementations
        options.checkSample = sample
        return try await ScenarioRunner.run(ScenarioBuilder(users: users, days: 4, seed: 7).faulty().plan(), options: options)
    }

    private func implementations(fasting: any FastingAnalyzing.Type = UserKernel.self, payments: any PaymentProcessing.Type = UserKernel.self) -> Implementations {
        Implementations(fasting: fasting, steps: UserKernel.self, payments: payments)
    }

    @Test("a different but correct analyzer agrees with the reference on every row, and the run passes")
    func correctImplementation() async throws {
        // Given an analyzer written differently from the reference
        // When a run checks it on every user
        let sut = try await checkedRun(implementations(fasting: ListFastingAnalyzer<NoFlaw>.self))
        // Then no field differs, every user was checked, and the implicit threshold holds
        let check = try #require(sut.check)
        #expect(check.mismatches == 0)
        #expect(check.users == 60)
        #expect(check.implementations == ["fasting ListFastingAnalyzer<NoFlaw>"])
        #expect(sut.thresholds.contains { $0.threshold.metric == "mismatches" && $0.passed })
        #expect(sut.passed)
    }

    @Test("planted bugs are caught and named by their field", arguments: [
        (Implementations(fasting: ListFastingAnalyzer<LostFastAcrossMidnight>.self, steps: UserKernel.self, payments: UserKernel.self),
         "fasting_daily.fasts_ended"),
        (Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: DoubleCountedRefundProcessor.self),
         "payments_ledger.refunded_minor"),
    ])
    func plantedBugs(implementations: Implementations, field: String) async throws {
        // Given an implementation with a planted bug
        // When a run checks it
        let sut = try await checkedRun(implementations)
        // Then the mismatches are counted by field, the first ones listed with both values, and the run fails
        let check = try #require(sut.check)
        #expect(check.byField[field, default: 0] > 0)
        #expect(check.listed.contains { $0.field == field && $0.value != $0.reference })
        #expect(check.mismatches == check.byField.values.reduce(0, +))
        #expect(!sut.passed)
        #expect(Summary.render(sut, style: TextStyle(enabled: false)).contains(field))
    }

    @Test("each listed mismatch carries its user's UTC offset and protocol, as generated")
    func mismatchesNameTheUsersProfile() async throws {
        // Given a payments processor with a planted bug
        // When a run checks it
        let sut = try #require(try await checkedRun(implementations(payments: DoubleCountedRefundProcessor.self)).check)
        // Then every listed mismatch names the offset and protocol of its user's users.csv row
        let simulator = Simulator(scenario: ScenarioBuilder(users: 60, days: 4, seed: 7).faulty().build())
        #expect(!sut.listed.isEmpty)
        for mismatch in sut.listed {
            let profile = simulator.user(try #require(mismatch.userIndex))
            #expect(mismatch.utcOffsetMinutes == Int(profile.utcOffsetMinutes))
            #expect(mismatch.fastingProtocol == profile.fastingProtocol.name)
            #expect(mismatch.text.hasPrefix("\(mismatch.user) (UTC offset \(profile.utcOffsetMinutes < 0 ? "" : "+")\(profile.utcOffsetMinutes) min, protocol "))
        }
    }

    @Test("an off-by-one at the day boundary puts a meal at local midnight on the day before, and the check names that day")
    func dayBoundaryOffByOne() throws {
        // Given one user whose only meal starts at local midnight of day 20000 (2024-10-04)
        let simulator = Simulator(scenario: ScenarioBuilder(users: 1, days: 1, seed: 3).build())
        var batch = SimulationBatch()
        simulator.generate(user: 0, into: &batch)
        let user = batch.users[0]
        let midnight = LocalDay(index: 20_000).startInstant(utcOffsetMinutes: user.utcOffsetMinutes)
        var meal = batch.meals[0]
        (meal.start, meal.end, meal.fault, meal.ordinal) = (midnight, midnight + 600, nil, 0)
        batch.meals = [meal]
        batch.mealEnds = [1]
        let settings = WorkerSettings(algorithm: AlgorithmSettings(), implementations: implementations(fasting: ListFastingAnalyzer<DayBoundaryOffByOne>.self),
                                      timing: false, writesOutput: false)
        let sut = DifferentialCheck(simulator: simulator, settings: settings, sample: 1, listed: 10)
        // When the buggy analyzer is compared with the reference on it
        let comparison = sut.checked(batch).0
        // Then the reference's day has no row of the analyzer's, and the analyzer's day none of the reference's
        #expect(comparison.byField == ["fasting_daily": 2])
        #expect(comparison.listedInUserOrder.map(\.row).sorted() == ["day 2024-10-03", "day 2024-10-04"])
    }

    @Test("the sample depends on the seed and user only, and checks about its share of the users")
    func sampling() async throws {
        // Given a check of a tenth of the users
        let simulator = Simulator(scenario: ScenarioBuilder(users: 2_000, days: 1, seed: 11).build())
        let settings = WorkerSettings(algorithm: AlgorithmSettings(), implementations: .reference, timing: false, writesOutput: false)
        let sut = DifferentialCheck(simulator: simulator, settings: settings, sample: 0.1, listed: 10)
        // When users are drawn
        let drawn = (0..<2_000).filter(sut.isSampled)
        // Then about a tenth are, the same ones every time
        #expect((150...250).contains(drawn.count))
        #expect((0..<2_000).filter(sut.isSampled) == drawn)
        // And a run checks exactly those
        let run = try await checkedRun(implementations(fasting: ListFastingAnalyzer<NoFlaw>.self), sample: 0.1, users: 2_000)
        #expect(run.check?.users == (0..<2_000).filter(DifferentialCheck(simulator: Simulator(scenario: ScenarioBuilder(users: 2_000, days: 4, seed: 7).faulty().build()),
                                                                            settings: settings, sample: 0.1, listed: 1).isSampled).count)
    }

    @Test("the check survives the JSON result and merging shards")
    func jsonAndMerge() async throws {
        // Given a checked run with mismatches
        let sut = try await checkedRun(implementations(payments: DoubleCountedRefundProcessor.self))
        // When it is written and read back, and merged with a copy from another shard
        let decoded = try ResultJSON.decode(try ResultJSON.encode(sut))
        var other = decoded
        other.shards = ["1/2"]
        let merged = try RunResult.merged([decoded, other])
        // Then the report is kept, and the merge adds the counts
        #expect(decoded.check == sut.check)
        #expect(merged.check?.mismatches == 2 * (sut.check?.mismatches ?? 0))
        #expect(merged.check?.users == 2 * (sut.check?.users ?? 0))
        #expect(MetricCatalog.value(of: "mismatches", in: merged) == Double(2 * (sut.check?.mismatches ?? 0)))
    }
}
