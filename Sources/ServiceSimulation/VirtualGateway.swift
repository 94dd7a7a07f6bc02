import Foundation
import PaymentsCore

/// A payment as a service sends it to the gateway.
public struct GatewayPayment: Hashable, Sendable {
    /// The key the gateway is idempotent on: pass the client's, or one you stored for it.
    public var idempotencyKey: String
    /// The payment id of the client request being served.
    public var paymentID: String
    /// The user.
    public var userID: String
    /// `charge` or `refund`.
    public var kind: PaymentKind
    /// The amount in the currency's minor unit.
    public var amountMinor: Int64
    /// The currency.
    public var currency: Currency
    /// For a refund, the payment id of the charge.
    public var refundOf: String?

    /// A gateway payment of all its fields.
    public init(
        idempotencyKey: String, paymentID: String, userID: String, kind: PaymentKind, amountMinor: Int64, currency: Currency,
        refundOf: String? = nil
    ) {
        self.idempotencyKey = idempotencyKey
        self.paymentID = paymentID
        self.userID = userID
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundOf = refundOf
    }

    /// The gateway payment serving `request` with `request`'s own key.
    public init(_ request: ServiceRequest) {
        self.init(
            idempotencyKey: request.idempotencyKey, paymentID: request.paymentID, userID: request.userID, kind: request.kind,
            amountMinor: request.amountMinor, currency: request.currency, refundOf: request.refundOf
        )
    }
}

/// The gateway's answer when it did what was asked.
public struct GatewayReceipt: Hashable, Sendable {
    /// The key it acted on.
    public var idempotencyKey: String

    /// The receipt for a call with `idempotencyKey`.
    public init(idempotencyKey: String) { self.idempotencyKey = idempotencyKey }
}

/// Why the gateway did not answer approved.
public enum GatewayError: Error, Hashable, Sendable {
    /// It refused; nothing happened.
    case declined
    /// No answer before the deadline: it may or may not have acted (ask `hasActed` to reconcile).
    case timedOut
}

/// The simulated gateway of SPEC §4, async and shaped like a real one: idempotent per key (once it acted
/// for a key, every later call with that key answers approved and does nothing more); each key follows a
/// script drawn from the world's seed, one token per call: `A` approves, `D` declines, `T` times out having
/// done nothing, `L` acts and then times out (the answer is lost). Every call takes virtual time; a timeout
/// throws only when its deadline passes. The gateway keeps the ground truth of what it did.
package final class VirtualGateway: ServiceGateway, @unchecked Sendable {
    /// The simulated world's state.
    let world: WorldState

    init(world: WorldState) { self.world = world }

    /// Sends `payment`; returns the receipt, or throws `GatewayError.declined` or `.timedOut` (or
    /// `ServiceCrashed` in a task of a crashed service).
    package func process(_ payment: GatewayPayment) async throws -> GatewayReceipt {
        let incarnation = try world.check(calling: "the gateway's process of \(payment.idempotencyKey)")
        try await world.clock.sleep(for: world.latency())
        try world.check(incarnation)
        let token = world.nextToken(for: payment.idempotencyKey)
        let alreadyActed = world.acts[payment.idempotencyKey] != nil
        if !alreadyActed, token.acted {
            let act = GatewayAct(payment: payment, at: world.clock.now.offset)
            world.acts[payment.idempotencyKey] = act
            world.onAct?(act)
        }
        world.log("gateway \(payment.kind.name) \(payment.idempotencyKey) for \(payment.paymentID): "
            + (alreadyActed ? "approved (acted before)" : "\(token.token)\(token.acted ? ", acted" : "")"))
        switch (alreadyActed, token) {
        case (true, _), (false, .approved):
            try await world.clock.sleep(for: world.latency())
            try world.check(incarnation)
            return GatewayReceipt(idempotencyKey: payment.idempotencyKey)
        case (false, .declined):
            try await world.clock.sleep(for: world.latency())
            try world.check(incarnation)
            throw GatewayError.declined
        case (false, .timedOut), (false, .lost):
            try await world.clock.sleep(for: world.configuration.gatewayTimeout)
            try world.check(incarnation)
            throw GatewayError.timedOut
        }
    }

    /// Whether the gateway acted for `idempotencyKey` (reconciliation: not a payment attempt).
    package func hasActed(idempotencyKey: String) async throws -> Bool {
        let incarnation = try world.check(calling: "the gateway's hasActed of \(idempotencyKey)")
        try await world.clock.sleep(for: world.latency())
        try world.check(incarnation)
        return world.acts[idempotencyKey] != nil
    }
}

/// What the gateway did for a key: the ground truth.
struct GatewayAct: Hashable {
    var payment: GatewayPayment
    var at: Duration
}
