@_spi(Tooling) import SimulationCore
import Foundation
@_spi(Tooling) import PaymentService
@_spi(Tooling) @testable import PaymentSimulation
import PaymentsCore
import Testing
import TestSupport

/// Every invariant checker of the simulation catches the defect it exists for: planted in the
/// service (`ServiceFlaw`) or in its store (a store double below).
@Suite("Simulation checkers bite", .budget(minutes: 2))
struct CheckersTests {
    @Test("each planted service defect is caught within 30 seeds, and its configuration reproduces it", arguments: [
        (ServiceFlaw.retryWithoutKey, Invariant.chargedTwice),
        (.intentAfterCall, .attemptSentTwice),
        (.noReconcileOnRestart, .moneyWithoutBooking),
        (.refundTwice, .settledTwice),
        (.fewerAttempts, .differsFromReference),
        (.skipRefundChecks, .negativeBalance),  // a refund of no capture: the balance read back is negative
    ])
    func serviceFlaws(flaw: ServiceFlaw, invariant: Invariant) async throws {
        // Given a service with a planted defect
        // When a swarm runs it
        let reports = try await PaymentWorldSimulator.swarm(
            seeds: 0, count: 30, jobs: 2, store: .init(), make: { WorldConfiguration(seed: $0, payments: 300, flaws: [flaw]) })
        // Then a world fails on the defect's invariant, and running its configuration again fails the same way at the same step
        let failing = try #require(reports.last)
        let violation = try #require(failing.violation)
        #expect(violation.invariant == invariant)
        let again = try PaymentWorldSimulator.run(failing.configuration)
        #expect(again.violation == violation)
        #expect(failing.configuration.flaws == [flaw])
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
        (StoreDefect.rewritesOutcomes, "decline=0.2", Invariant.answerDiffersFromStore, ["latency_ms differs: answered ", ", the store holds "]),
        (.driftingReplays, "duplicate=0.5", .replayDiffers, ["answered twice, differently: latency_ms differs: first ", ", then "]),
    ])
    func namesTheField(defect: StoreDefect, mix: String, invariant: Invariant, fragments: [String]) throws {
        // Given a store that changes only an outcome's latency
        let faults = try FaultMix(parsing: mix)
        var caught: Violation?
        for seed in 0..<10 as Range<UInt64> where caught == nil {
            let world = try World(
                configuration: WorldConfiguration(seed: seed, payments: 60, faults: faults), store: DefectiveStore(defect), truth: nil, resumed: false)
            // When a world runs over it
            caught = world.run().violation
        }
        // Then the violation says which field differs, with both values, and no other field
        let violation = try #require(caught)
        #expect(violation.invariant == invariant)
        for fragment in fragments { #expect(violation.message.contains(fragment), "\(violation.message)") }
        #expect(!violation.message.contains("state differs") && !violation.message.contains("attempts differs"), "\(violation.message)")
    }

    @Test("a difference from the batch processor names the field and both values")
    func referenceNamesTheField() async throws {
        // Given a service that gives up one attempt early
        let reports = try await PaymentWorldSimulator.swarm(
            seeds: 0, count: 30, jobs: 2, store: .init(), make: { WorldConfiguration(seed: $0, payments: 300, flaws: [.fewerAttempts]) })
        // When its worlds run
        let violation = try #require(reports.last?.violation)
        // Then the message names what differs with the service's and the batch processor's values
        #expect(violation.invariant == .differsFromReference)
        #expect(violation.message.contains(" differs: the service ended "), "\(violation.message)")
        #expect(violation.message.contains(", the batch processor gives "), "\(violation.message)")
    }

    @Test("each planted store defect is caught", arguments: [
        (StoreDefect.noRollback, "storage=0.2", Invariant.halfWritten),
        (.losesSettlements, "timeout=0.2", .noFinalState),
        (.booksTwice, "lost=0.2", .ledgerDiffers),
        (.rewritesOutcomes, "decline=0.2", .answerDiffersFromStore),
        (.dropsReasons, "decline=0.2", .specInvariant),
        (.capturesFailures, "decline=0.3", .bookedWithoutMoney),
        (.neverWritesIntents, "none", .stalled),
        (.driftingReplays, "duplicate=0.5", .replayDiffers),
        (.negativeLedger, "none", .negativeBalance),
    ])
    func storeDefects(defect: StoreDefect, mix: String, invariant: Invariant) throws {
        // Given a world whose store has a planted defect
        let faults = try FaultMix(parsing: mix)
        var caught: Invariant?
        for seed in 0..<10 as Range<UInt64> where caught == nil {
            let store = DefectiveStore(defect)
            let world = try World(configuration: WorldConfiguration(seed: seed, payments: 60, faults: faults), store: store, truth: nil, resumed: false)
            // When it runs
            caught = world.run().violation?.invariant
        }
        // Then the defect's invariant breaks
        #expect(caught == invariant)
    }
}

/// A store defect a test plants.
enum StoreDefect: String, CaseIterable, CustomTestStringConvertible {
    case noRollback, losesSettlements, booksTwice, rewritesOutcomes, dropsReasons, capturesFailures, neverWritesIntents, driftingReplays
    /// A user's ledger rows read back with more refunded than captured, once a refund is booked.
    case negativeLedger
    var testDescription: String { rawValue }
}

/// The memory store with one planted defect.
final class DefectiveStore: DurablePaymentStore {
    private let inner = MemoryDurableStore()
    private let defect: StoreDefect
    private var reads = 0
    var failpoint: ((StoreWrite) throws -> Void)?

    init(_ defect: StoreDefect) { self.defect = defect }

    func record(of payment: UInt32) throws -> PaymentRecord? {
        guard defect == .driftingReplays, var record = inner.record(of: payment), case .final(var outcome) = record.progress else {
            return inner.record(of: payment)
        }
        reads += 1
        outcome.latencyMillis += Int64(reads)
        record.progress = .final(outcome)
        return record
    }
    func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? { inner.fingerprint(user: user, key: key) }
    func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? { inner.capturedCharge(user: user, charge: charge) }
    func settledRefunds(of charge: UInt32) throws -> Int64 { inner.settledRefunds(of: charge) }
    func unfinished() throws -> [PaymentRecord] { inner.unfinished() }
    func records() throws -> [PaymentRecord] {
        guard defect == .dropsReasons else { return inner.records() }
        return inner.records().map { record in
            guard case .final(var outcome) = record.progress, outcome.state == .rejected else { return record }
            outcome.reason = nil
            return PaymentRecord(request: record.request, progress: .final(outcome), admittedAt: record.admittedAt)
        }
    }
    func ledger() throws -> [LedgerRow] { inner.ledger() }
    func ledger(of user: UInt32) throws -> [LedgerEntry] {
        guard defect == .negativeLedger else { return inner.ledger(of: user) }
        return inner.ledger(of: user).map { entry in
            var entry = entry
            if entry.refundedMinor > 0 { entry.refundedMinor = entry.capturedMinor + 1 }
            return entry
        }
    }
    func latestInstant() throws -> Int64 { inner.latestInstant() }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        guard defect == .noRollback else { return try write { try inner.admit(record, takesKey: takesKey) } }
        try inner.admit(record, takesKey: takesKey)  // written whole, then the failure reported: no rollback
        try failpoint?(.admit)
    }
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        if defect == .neverWritesIntents { throw StoreFailure("the disk is gone") }
        try write { try inner.writeIntent(payment: payment, attempt: attempt, deadline: deadline) }
    }
    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        var written = outcome
        switch defect {
        case .losesSettlements: return
        case .rewritesOutcomes: written.latencyMillis += 1
        case .capturesFailures where outcome.state == .failed || outcome.state == .declined:
            written = PaymentOutcome(state: inner.record(of: payment)?.request.payment.kind == .charge ? .captured : .refunded, attempts: outcome.attempts)
        default: break
        }
        try write { try inner.settle(payment: payment, written) }
        if defect == .booksTwice, outcome.state == .captured {
            inner.failpoint = nil
            try inner.settle(payment: payment, written)
        }
    }

    private func write(_ body: () throws -> Void) throws {
        inner.failpoint = failpoint
        try body()
    }
}
