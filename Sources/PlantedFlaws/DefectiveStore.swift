@_spi(Tooling) import PaymentService
import PaymentsCore

/// A store that is itself wrong, in the ways the `store-…` flaws name: what the simulation's store
/// checks exist to catch. The world's checks read it as they read any store.
final class DefectiveStore: ForwardingPaymentStore {
    let forwarded: any DurablePaymentStore
    private let defects: Set<PlantedFlaw>
    private var reads = 0
    /// Passed to the store below at each write, so that a write it keeps can report its failure afterwards.
    var failpoint: ((StoreWrite) throws -> Void)?

    init(base: any DurablePaymentStore, defects: Set<PlantedFlaw>) {
        forwarded = base
        self.defects = defects
        failpoint = forwarded.failpoint
    }

    func record(of payment: UInt32) throws -> PaymentRecord? {
        guard defects.contains(.storeDriftingReplays), var record = try forwarded.record(of: payment), case .final(var outcome) = record.progress else {
            return try forwarded.record(of: payment)
        }
        reads += 1
        outcome.latencyMillis += Int64(reads)
        record.progress = .final(outcome)
        return record
    }
    func records() throws -> [PaymentRecord] {
        guard defects.contains(.storeDropsReasons) else { return try forwarded.records() }
        return try forwarded.records().map { record in
            guard case .final(var outcome) = record.progress, outcome.state == .rejected else { return record }
            outcome.reason = nil
            return PaymentRecord(request: record.request, progress: .final(outcome), admittedAt: record.admittedAt)
        }
    }
    func ledger(of user: UInt32) throws -> [LedgerEntry] {
        guard defects.contains(.storeNegativeLedger) else { return try forwarded.ledger(of: user) }
        return try forwarded.ledger(of: user).map { entry in
            var entry = entry
            if entry.refundedMinor > 0 { entry.refundedMinor = entry.capturedMinor + 1 }
            return entry
        }
    }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        guard defects.contains(.storeKeepsFailedWrites) else { return try write { try forwarded.admit(record, takesKey: takesKey) } }
        forwarded.failpoint = nil
        try forwarded.admit(record, takesKey: takesKey)  // written whole, then the failure reported: no rollback
        try failpoint?(.admit)
    }
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        if defects.contains(.storeNeverWritesIntents) { throw StoreFailure("the disk is gone") }
        try write { try forwarded.writeIntent(payment: payment, attempt: attempt, deadline: deadline) }
    }
    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        if defects.contains(.storeLosesSettlements) { return }
        var written = outcome
        if defects.contains(.storeRewritesLatency) { written.latencyMillis += 1 }
        if defects.contains(.storeCapturesFailures), outcome.state == .failed || outcome.state == .declined {
            written = PaymentOutcome(state: try forwarded.record(of: payment)?.request.payment.kind == .charge ? .captured : .refunded, attempts: outcome.attempts)
        }
        try write { try forwarded.settle(payment: payment, written) }
        if defects.contains(.storeBooksCapturesTwice), outcome.state == .captured {
            forwarded.failpoint = nil
            try forwarded.settle(payment: payment, written)
        }
    }

    private func write(_ body: () throws -> Void) throws {
        forwarded.failpoint = failpoint
        try body()
    }
}
