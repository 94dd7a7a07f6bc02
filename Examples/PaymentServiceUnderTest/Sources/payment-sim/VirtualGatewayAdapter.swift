import PaymentServiceCore
import SimHarnessKit

/// The service's gateway over SimHarness's simulated one: the payment goes out under its `gatewayKey`,
/// the simulated gateway's errors come back as the service's own (a crashed incarnation's
/// `ServiceCrashed` passes through untouched).
struct VirtualGatewayAdapter: PaymentGateway {
    let gateway: any ServiceGateway

    func process(_ payment: Payment) async throws -> PaymentReceipt {
        do {
            let receipt = try await gateway.process(Self.gatewayPayment(payment))
            return PaymentReceipt(paymentId: payment.id, gatewayKey: receipt.idempotencyKey)
        } catch GatewayError.declined {
            throw PaymentGatewayError.declined
        } catch GatewayError.timedOut {
            throw PaymentGatewayError.timedOut
        }
    }

    func wasProcessed(_ payment: Payment) async throws -> Bool {
        try await gateway.hasActed(idempotencyKey: payment.gatewayKey)
    }

    /// What the simulated gateway is sent: the payment's values under its gateway key, with the id of the
    /// client request that created it (the checkers match the gateway's acts to the clients' payments by it).
    static func gatewayPayment(_ payment: Payment) throws -> GatewayPayment {
        guard let currency = Currency(code: payment.currency) else { throw UnknownCurrency(code: payment.currency) }
        return GatewayPayment(
            idempotencyKey: payment.gatewayKey, paymentID: payment.requestId, userID: payment.userId,
            kind: payment.kind == .charge ? .charge : .refund, amountMinor: payment.amountMinor, currency: currency,
            refundOf: payment.refundOf)
    }
}

/// A currency code SimHarness's gateway does not know.
struct UnknownCurrency: Error, CustomStringConvertible {
    var code: String
    var description: String { "unknown currency '\(code)'" }
}
