@_spi(Tooling) import PaymentService
import PaymentsCore

/// A store that is itself wrong, in the ways the `store-…` flaws name: what the simulation's store
/// checks exist to catch. The world's checks read it as they read any store.
final class DefectiveStore: DurablePaymentStore {
    private let base: any DurablePaymentStore
    private let defects: Set<PlantedFlaw>
    private var reads = 0
    /// Passed to `base` at each write, so that a write it keeps can report its failure afterwards.
    var failpoint: ((StoreWrite) throws -> Void)?

    init(base: any DurablePaymentStore, defects: Set<PlantedFlaw>) {
        self.base = base
        self.defects = defects
        failpoint = base.failpoint
    }

    func record(of payment: UInt32) throws -> PaymentRecord? {
        guard defects.contains(.storeDriftingReplays), var record = try base.record(of: payment), case .final(var outcome) = record.progress else {
            return try base.record(of: payment)
        }
        reads += 1
        outcome.latencyMillis += Int64(reads)
        record.progress = .final(outcome)
        return record
    }
    func fingerprint(user: UInt32, key: UInt32) throws -> PaymentFingerprint? { try base.fingerprint(user: user, key: key) }
    func capturedCharge(user: UInt32, charge: UInt32) throws -> CapturedCharge? { try base.capturedCharge(user: user, charge: charge) }
    func settledRefunds(of charge: UInt32) throws -> Int64 { try base.settledRefunds(of: charge) }
    func unfinished() throws -> [PaymentRecord] { try base.unfinished() }
    func records() throws -> [PaymentRecord] {
        guard defects.contains(.storeDropsReasons) else { return try base.records() }
        return try base.records().map { record in
            guard case .final(var outcome) = record.progress, outcome.state == .rejected else { return record }
            outcome.reason = nil
            return PaymentRecord(request: record.request, progress: .final(outcome), admittedAt: record.admittedAt)
        }
    }
    func ledger() throws -> [LedgerRow] { try base.ledger() }
    func ledger(of user: UInt32) throws -> [LedgerEntry] {
        guard defects.contains(.storeNegativeLedger) else { return try base.ledger(of: user) }
        return try base.ledger(of: user).map { entry in
            var entry = entry
            if entry.refundedMinor > 0 { entry.refundedMinor = entry.capturedMinor + 1 }
            return entry
        }
    }
    func latestInstant() throws -> Int64 { try base.latestInstant() }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        guard defects.contains(.storeKeepsFailedWrites) else { return try write { try base.admit(record, takesKey: takesKey) } }
        base.failpoint = nil
        try base.admit(record, takesKey: takesKey)  // written whole, then the failure reported: no rollback
        try failpoint?(.admit)
    }
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        if defects.contains(.storeNeverWritesIntents) { throw StoreFailure("the disk is gone") }
        try write { try base.writeIntent(payment: payment, attempt: attempt, deadline: deadline) }
    }
    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        if defects.contains(.storeLosesSettlements) { return }
        var written = outcome
        if defects.contains(.storeRewritesLatency) { written.latencyMillis += 1 }
        if defects.contains(.storeCapturesFailures), outcome.state == .failed || outcome.state == .declined {
            written = PaymentOutcome(state: try base.record(of: payment)?.request.payment.kind == .charge ? .captured : .refunded, attempts: outcome.attempts)
        }
        try write { try base.settle(payment: payment, written) }
        if defects.contains(.storeBooksCapturesTwice), outcome.state == .captured {
            base.failpoint = nil
            try base.settle(payment: payment, written)
        }
    }

    private func write(_ body: () throws -> Void) throws {
        base.failpoint = failpoint
        try body()
    }
}
