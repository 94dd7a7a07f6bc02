@_spi(Tooling) import SimulationCore
import Foundation
@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws
@_spi(Tooling) @testable import PaymentSimulation
import PaymentsCore
import Testing
import TestSupport

/// Every invariant checker of the simulation catches the defect it exists for: planted in the
/// service from outside it (`PlantedFlaw`) or in its store (a store double below).
@Suite("Simulation checkers bite", .budget(minutes: 2))
struct CheckersTests {
    @Test("each planted service defect is caught within 30 seeds, and its configuration reproduces it", arguments: [
        (PlantedFlaw.retryWithoutKey, Invariant.chargedTwice),
        (.intentAfterCall, .attemptSentTwice),
        (.noReconcileOnRestart, .moneyWithoutBooking),
        (.refundTwice, .chargeMiscounted),  // the store books it twice: its charge counts it twice
        (.fewerAttempts, .differsFromReference),
        (.skipRefundChecks, .refundExceedsCharge),
    ])
    func serviceFlaws(flaw: PlantedFlaw, invariant: Invariant) async throws {
        // Given a service with a planted defect
        // When a swarm runs it
        let reports = try PaymentWorldSimulator.swarm(
            seeds: 0, count: 30, jobs: 2, store: .init(), make: { WorldConfiguration(seed: $0, payments: 300, flaws: [flaw]) })
        // Then a world fails on the defect's invariant, and running its configuration again fails the same way at the same step
        let failing = try #require(reports.last)
        let violation = try #require(failing.violation)
        #expect(violation.invariant == invariant)
        let again = try PaymentWorldSimulator.run(failing.configuration)
        #expect(again.violation == violation)
        #expect(failing.configuration.flaws == [flaw])
    }

    @Test("a flaw of the ledger service is refused: the reference service cannot have it", arguments: [PlantedFlaw.reentrancy, .timeoutIsFailure])
    func refusesLedgerFlaws(flaw: PlantedFlaw) {
        // Given a world asked to plant a flaw only the ledger service has
        // When it runs
        // Then it is refused as a configuration, naming the flaw
        #expect {
            try PaymentWorldSimulator.run(WorldConfiguration(seed: 0, payments: 10, flaws: [flaw]))
        } throws: { error in
            "\(error)".contains(flaw.rawValue)
        }
    }

    @Test("shrinking keeps the failure and makes the world smaller")
    func shrink() throws {
        // Given a failing world
        let failing = try PaymentWorldSimulator.run(WorldConfiguration(seed: 0, payments: 300, faults: .all, flaws: [.refundTwice]))
        let invariant = try #require(failing.violation?.invariant)
        // When it is shrunk
        let sut = PaymentWorldSimulator.shrink(failing, store: .init())
        // Then it still fails the same way, with fewer payments and faults
        #expect(sut.violation?.invariant == invariant)
        #expect(sut.configuration.payments < failing.configuration.payments)
        #expect(sut.configuration.faults.permille.count < failing.configuration.faults.permille.count)
        #expect(try PaymentWorldSimulator.run(sut.configuration).violation?.invariant == invariant)
    }

    @Test("a violation of an outcome names the field that differs and both values", arguments: [
        (PlantedFlaw.storeRewritesLatency, "decline=0.2", Invariant.answerDiffersFromStore, ["latency_ms differs: answered ", ", the store holds "]),
        (.storeDriftingReplays, "duplicate=0.5", .replayDiffers, ["answered twice, differently: latency_ms differs: first ", ", then "]),
    ])
    func namesTheField(defect: PlantedFlaw, mix: String, invariant: Invariant, fragments: [String]) throws {
        // Given a store that changes only an outcome's latency
        let faults = try FaultMix(parsing: mix)
        var caught: Violation?
        for seed in 0..<10 as Range<UInt64> where caught == nil {
            let world = try World(
                configuration: WorldConfiguration(seed: seed, payments: 60, faults: faults, flaws: [defect]), store: MemoryDurableStore(), truth: nil, resumed: false)
            // When a world runs over it
            caught = world.run().violation
        }
        // Then the violation says which field differs, with both values, and no other field
        let violation = try #require(caught)
        #expect(violation.invariant == invariant)
        for fragment in fragments { #expect(violation.detail.contains(fragment), "\(violation.detail)") }
        #expect(!violation.detail.contains("state differs") && !violation.detail.contains("attempts differs"), "\(violation.detail)")
    }

    @Test("a difference from the batch processor names the field and both values")
    func referenceNamesTheField() async throws {
        // Given a service that gives up one attempt early
        let reports = try PaymentWorldSimulator.swarm(
            seeds: 0, count: 30, jobs: 2, store: .init(), make: { WorldConfiguration(seed: $0, payments: 300, flaws: [.fewerAttempts]) })
        // When its worlds run
        let violation = try #require(reports.last?.violation)
        // Then the message names what differs with the service's and the batch processor's values
        #expect(violation.invariant == .differsFromReference)
        #expect(violation.detail.contains(" differs: the service ended "), "\(violation.detail)")
        #expect(violation.detail.contains(", the batch processor gives "), "\(violation.detail)")
    }

    @Test("each planted store defect is caught", arguments: [
        (PlantedFlaw.storeKeepsFailedWrites, "storage=0.2", Invariant.halfWritten),
        (.storeLosesSettlements, "timeout=0.2", .noFinalState),
        (.storeBooksCapturesTwice, "lost=0.2", .ledgerDiffers),
        (.storeRewritesLatency, "decline=0.2", .answerDiffersFromStore),
        (.storeDropsReasons, "decline=0.2", .specInvariant),
        (.storeCapturesFailures, "decline=0.3", .bookedWithoutMoney),
        (.storeNeverWritesIntents, "none", .stalled),
        (.storeDriftingReplays, "duplicate=0.5", .replayDiffers),
        (.storeNegativeLedger, "none", .negativeBalance),
    ])
    func storeDefects(defect: PlantedFlaw, mix: String, invariant: Invariant) throws {
        // Given worlds whose store has a planted defect
        let faults = try FaultMix(parsing: mix)
        var caught: Invariant?
        for seed in 0..<10 as Range<UInt64> where caught == nil {
            // When they run
            caught = try PaymentWorldSimulator.run(WorldConfiguration(seed: seed, payments: 60, faults: faults, flaws: [defect])).violation?.invariant
        }
        // Then the defect's invariant breaks
        #expect(caught == invariant)
    }
}
