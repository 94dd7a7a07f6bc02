import Foundation
@_spi(Tooling) @testable import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
import PaymentsCore
@_spi(Tooling) @testable import Generation
import SpecKernel
import TestSupport
import UserAlgorithms

/// The idempotency fingerprint `(kind, amount_minor, currency, refund_of)` (SPEC §4 step 2): the
/// boundary users retry a charge's key and refunds' keys with one field changed alone, so a
/// processor that compares only some of the fields fails every check.
@Suite("SPEC boundaries: one field of the idempotency fingerprint differs alone", .budget(minutes: 2))
struct FingerprintBoundaryTests {
    /// Every blind spot a retry row of the boundary users exposes: each field, for a charge's key and a refund's.
    static let blindSpots: [any FingerprintBlindSpot.Type] = [
        ChargeKindBlind.self, RefundKindBlind.self, ChargeAmountBlind.self, RefundAmountBlind.self,
        ChargeCurrencyBlind.self, RefundCurrencyBlind.self, RefundOfBlind.self,
    ]

    /// A checked one-pass run of a shipped scenario.
    private func checkedRun(_ name: String, _ implementations: Implementations) async throws -> RunResult {
        var options = RunOptions.test(tasks: 2, timing: false)
        options.implementations = implementations
        options.checkSample = 1
        let scenario = try ScenarioCatalog.load(name, currentDirectory: "/nonexistent")
        return try await ScenarioRunner.run(RunPlan(scenario: scenario), options: options)
    }

    /// The mismatches of smoke's own 300 users under `implementations`, without the boundary population.
    private func smokeOwnUsers(_ implementations: Implementations) throws -> RowComparison {
        let simulator = Simulator(scenario: try ScenarioCatalog.load("smoke", currentDirectory: "/nonexistent"))
        var batch = SimulationBatch()
        simulator.fill(&batch, with: simulator.allUsers)
        let settings = WorkerSettings(algorithm: AlgorithmSettings(), implementations: implementations, timing: false, writesOutput: false)
        return DifferentialCheck(simulator: simulator, settings: settings, sample: 1, listed: 10).checked(batch).0
    }

    @Test("a processor blind to one fingerprint field, for one kind of key, fails edges and smoke's check on the boundary users' retries",
          arguments: blindSpots)
    func blindProcessorFailsTheCheck(spot: any FingerprintBlindSpot.Type) async throws {
        // Given the reference processor that takes a retry differing in that field alone for the same payment
        // When edges and smoke are run with the check
        let edges = try #require(try await checkedRun("edges", spot.implementations).check)
        let smoke = try await checkedRun("smoke", spot.implementations)
        let check = try #require(smoke.check)
        // Then each such retry of every accepted boundary user (40 of the 60 boundary users: 4 plans of 6 are
        // accepted) is deduplicated where the reference rejects it idempotency_conflict: in edges, its own 40 and
        // the check's 40; in smoke, the check's 40. Both runs fail
        let retries = spot.retriesPerBoundaryUser
        #expect(edges.byField["payments_outcomes.state", default: 0] >= 80 * retries, "\(spot.name)")
        #expect(edges.byField["payments_outcomes.reason", default: 0] >= 80 * retries, "\(spot.name)")
        #expect(edges.mismatches > 0, "\(spot.name)")
        #expect(check.byField["payments_outcomes.state", default: 0] >= 40 * retries, "\(spot.name)")
        #expect(check.boundaryUsers == BoundaryPopulation.size)
        #expect(!smoke.passed, "\(spot.name)")
    }

    @Test("exactly the boundary users' retries differ when the blind spot is not a charge's amount (ordinary users retry only that way)",
          arguments: blindSpots.filter { $0.field != .amount || $0.kind != .charge })
    func exactlyTheBoundaryRetries(spot: any FingerprintBlindSpot.Type) async throws {
        // Given a processor blind to a field other than a charge's amount
        // When edges is run with the check
        let sut = try #require(try await checkedRun("edges", spot.implementations).check)
        // Then the state and the reason of each boundary retry differ, and nothing else
        let expected = 80 * spot.retriesPerBoundaryUser
        #expect(sut.byField["payments_outcomes.state", default: 0] == expected, "\(spot.name)")
        #expect(sut.byField["payments_outcomes.reason", default: 0] == expected, "\(spot.name)")
        #expect(sut.mismatches == 2 * expected, "\(spot.name)")
    }

    @Test("smoke's own users never retry a key with its kind, currency or refund_of changed: only the boundary rows catch those",
          arguments: blindSpots.filter { $0.field != .amount || $0.kind != .charge })
    func ordinaryUsersMissIt(spot: any FingerprintBlindSpot.Type) throws {
        // Given a processor blind to a field other than a charge's amount (the generator's own conflicts change that one)
        // When smoke's own users are checked alone
        let sut = try smokeOwnUsers(spot.implementations)
        // Then nothing differs: without the boundary population, no check could tell
        #expect(sut.mismatches == 0, "\(spot.name)")
    }

    @Test("the reference on edges reaches both sides of each fingerprint entry, and nothing differs")
    func referenceReachesTheEntries() async throws {
        // Given the edges scenario
        // When the reference is checked against itself
        let sut = try #require(try await checkedRun("edges", .reference).check)
        // Then the four fingerprint entries are exercised on both sides
        let entries: [SpecBoundary.Key] = [.paymentsFingerprintKind, .paymentsFingerprintAmount, .paymentsFingerprintCurrency, .paymentsFingerprintRefundOf]
        #expect(entries.map { sut.boundaries.inside[$0.rawValue] > 0 && sut.boundaries.outside[$0.rawValue] > 0 } == [true, true, true, true])
        #expect(sut.mismatches == 0)
    }
}
