@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
import PaymentsCore

/// The service's store, watched: after each write it checks what the write must keep true, reading
/// back what the store holds (one settlement per payment; after a refund, its charge's count equal
/// to the refunds settled against it and within it, and the user's balance in every currency never
/// negative), and after a write that failed, that nothing of it was left behind. The service reads
/// and writes through the flaws planted in its store, if any (`forwarded`); the checks read the store
/// itself (`inner`).
final class ObservedStore: ForwardingPaymentStore {
    typealias Report = (Invariant, String, UInt32?) -> Void

    /// The store; a world on a simulated disk opens it again after each restart.
    private(set) var inner: any DurablePaymentStore
    /// `inner` as the service sees it: behind its planted store flaws, if any. What is not watched goes to it.
    private(set) var forwarded: any DurablePaymentStore
    private let checksRollback: Bool
    private let report: Report
    private let gatewayActions: (UInt32) -> Int

    /// Watches `inner`, reporting broken invariants to `report`; `gatewayActions` tells how many
    /// times the gateway moved money for a payment. With `checksRollback` (when writes can fail),
    /// each write first notes what it may change, to check a failed one left nothing behind.
    init(inner: any DurablePaymentStore, checksRollback: Bool, report: @escaping Report, gatewayActions: @escaping (UInt32) -> Int) {
        self.inner = inner
        forwarded = inner
        self.checksRollback = checksRollback
        self.report = report
        self.gatewayActions = gatewayActions
    }

    /// Makes `store` the one observed, served as `served`.
    func observe(_ store: any DurablePaymentStore, served: any DurablePaymentStore) {
        inner = store
        forwarded = served
    }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        let request = record.request
        let keyBefore = checksRollback ? try inner.fingerprint(user: request.user, key: request.payment.key) : nil
        do { try forwarded.admit(record, takesKey: takesKey) } catch {
            if checksRollback, try inner.record(of: request.payment.id) != nil || inner.fingerprint(user: request.user, key: request.payment.key) != keyBefore {
                report(.halfWritten, "a failed admission of payment \(request.payment.id) left a record or a key behind", request.payment.id)
            }
            throw error
        }
    }

    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        let before = checksRollback ? try inner.record(of: payment) : nil
        do { try forwarded.writeIntent(payment: payment, attempt: attempt, deadline: deadline) } catch {
            if checksRollback, try inner.record(of: payment) != before {
                report(.halfWritten, "a failed intent of attempt \(attempt) of payment \(payment) changed its record", payment)
            }
            throw error
        }
    }

    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        guard let before = try inner.record(of: payment) else { return try forwarded.settle(payment: payment, outcome) }
        if let earlier = before.outcome {
            report(.settledTwice, "payment \(payment) was settled \(World.describe(outcome)) after \(World.describe(earlier))", payment)
        }
        let user = before.request.user
        let ledgerBefore = checksRollback ? try inner.ledger(of: user) : []
        do { try forwarded.settle(payment: payment, outcome) } catch {
            if checksRollback, try inner.record(of: payment) != before || inner.ledger(of: user) != ledgerBefore {
                report(.halfWritten, "a failed settlement of payment \(payment) changed its record or the ledger", payment)
            }
            throw error
        }
        let booked = outcome.state == .captured || outcome.state == .refunded
        let moved = gatewayActions(payment) > 0
        if booked && !moved { report(.bookedWithoutMoney, "payment \(payment) was booked \(outcome.state.rawValue) but the gateway never acted", payment) }
        if moved && !booked { report(.moneyWithoutBooking, "payment \(payment) was settled \(World.describe(outcome)) but the gateway acted", payment) }
        if outcome.state == .refunded { checkMoney(of: before.request, settled: payment) }
    }

    /// After a refund (the only booking that lowers a balance), reads back its charge and its user's
    /// balances: the store's own view. A read that fails checks nothing (the settlement went through).
    private func checkMoney(of request: ServiceRequest, settled payment: UInt32) {
        guard request.payment.kind == .refund, let target = request.payment.refundOf,
              let charge = try? inner.capturedCharge(user: request.user, charge: target),
              let settled = try? inner.settledRefunds(of: target) else { return checkBalances(of: request.user, settled: payment) }
        if charge.refundedMinor > charge.amountMinor || settled > charge.amountMinor {
            return report(.refundExceedsCharge, """
                charge \(target) of \(charge.amountMinor): its row counts \(charge.refundedMinor) refunded, its settled refunds \
                total \(settled)
                """, payment)
        }
        if charge.refundedMinor != settled {
            return report(.chargeMiscounted, "charge \(target): its row counts \(charge.refundedMinor) refunded, its settled refunds total \(settled)", payment)
        }
        checkBalances(of: request.user, settled: payment)
    }

    private func checkBalances(of user: UInt32, settled payment: UInt32) {
        for entry in (try? inner.ledger(of: user)) ?? [] where entry.refundedMinor > entry.capturedMinor {
            return report(.negativeBalance, """
                user \(user) \(entry.currency.code): the store holds captured \(entry.capturedMinor), \
                refunded \(entry.refundedMinor)
                """, payment)
        }
    }
}

/// The gateway as one user's payments met it, for the batch processor: each attempt answers what
/// the service saw (an answer, or a timeout: `L` when the gateway had acted, `T` otherwise), and
/// "did you act?" answers from the ground truth.
struct ReplayGateway: PaymentGateway {
    private let user: UInt32
    private let paymentOfKey: [UInt32: UInt32]
    private let attempts: AttemptTable
    private let gateway: SimulatedGateway

    init(user: UInt32, records: some Sequence<PaymentRecord>, attempts: AttemptTable, gateway: SimulatedGateway) {
        self.user = user
        var paymentOfKey: [UInt32: UInt32] = [:]
        for record in records where record.outcome?.attempts ?? 0 > 0 { paymentOfKey[record.request.payment.key] = record.request.payment.id }
        self.paymentOfKey = paymentOfKey
        self.attempts = attempts
        self.gateway = gateway
    }

    mutating func submit(_ request: GatewayRequest) -> GatewayResponse {
        guard let payment = paymentOfKey[request.key] else { return .timedOut }
        return attempts[payment, request.attempt].decided ?? .timedOut
    }

    func hasActed(key: UInt32) -> Bool { gateway.hasActed(user: user, key: key) }

    func actions(key: UInt32) -> Int {
        guard let payment = gateway.actedFor[SimulatedGateway.slot(user, key)] else { return 0 }
        return gateway.actions[payment] ?? 0
    }

    mutating func reset() {}
}
