/// A payment as the service stores it: the client's request, the key the gateway is sent, and where it
/// stands. Its `id` is the user's idempotency key, so every retry of one payment finds the same record.
public struct Payment: Codable, Hashable, Sendable, Identifiable {
    /// Whether a payment takes money or returns it.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// Takes money from the user.
        case charge
        /// Returns money from an earlier captured charge.
        case refund
    }

    /// Where a payment stands.
    public enum Status: String, Codable, Hashable, Sendable {
        /// Saved as an intent, the gateway's answer not known yet.
        case pending
        /// A charge the gateway took.
        case captured
        /// A refund the gateway made.
        case refunded
        /// The gateway refused it.
        case declined
        /// Every attempt timed out and the gateway had not acted.
        case failed
        /// Refused before the gateway (see `rejection`).
        case rejected
    }

    /// `<userId>/<idempotencyKey>`: see `Payment.id(userId:idempotencyKey:)`.
    public var id: String
    /// The id of the client request that created the payment (the gateway is told it).
    public var requestId: String
    /// The client's idempotency key.
    public var idempotencyKey: String
    /// The user.
    public var userId: String
    /// Charge or refund.
    public var kind: Kind
    /// The amount in the currency's minor unit.
    public var amountMinor: Int64
    /// The ISO 4217 code.
    public var currency: String
    /// For a refund, the request id of the charge it returns money from.
    public var refundOf: String?
    /// Where it stands.
    public var status: Status
    /// Why it was rejected; nil unless `status` is `rejected`.
    public var rejection: PaymentRejectionReason?
    /// The key the gateway is sent: minted once, when the payment is first seen, and stored with it.
    public var gatewayKey: String

    /// The id of a user's payment of `idempotencyKey`.
    public static func id(userId: String, idempotencyKey: String) -> String { "\(userId)/\(idempotencyKey)" }

    /// A pending payment for `request`, its gateway key minted from the request's id.
    public init(pendingFor request: PaymentRequest) {
        id = Self.id(userId: request.userId, idempotencyKey: request.idempotencyKey)
        requestId = request.id
        idempotencyKey = request.idempotencyKey
        userId = request.userId
        kind = request.kind
        amountMinor = request.amountMinor
        currency = request.currency
        refundOf = request.refundOf
        status = .pending
        gatewayKey = "gw-\(request.id)"
    }

    /// Whether `request` asks for the same payment (a retry), not another one under a reused key.
    public func isSame(as request: PaymentRequest) -> Bool {
        kind == request.kind && amountMinor == request.amountMinor && currency == request.currency && refundOf == request.refundOf
    }
}

/// Why a payment is refused before the gateway.
public enum PaymentRejectionReason: String, Codable, Hashable, Sendable {
    /// The key was used before with other values.
    case idempotencyConflict = "idempotency_conflict"
    /// A refund of no captured charge of the user.
    case unknownCharge = "unknown_charge"
    /// A refund in another currency than its charge.
    case currencyMismatch = "currency_mismatch"
    /// Refunds that would exceed their charge.
    case refundExceeds = "refund_exceeds"
}

/// One client request: a retry is a new `id` with the same `idempotencyKey`.
public struct PaymentRequest: Hashable, Sendable {
    /// Unique per request.
    public var id: String
    /// The same for every retry of one payment.
    public var idempotencyKey: String
    /// The user.
    public var userId: String
    /// Charge or refund.
    public var kind: Payment.Kind
    /// The amount in the currency's minor unit.
    public var amountMinor: Int64
    /// The ISO 4217 code.
    public var currency: String
    /// For a refund, the request id of its charge.
    public var refundOf: String?

    /// A request of all its fields.
    public init(id: String, idempotencyKey: String, userId: String, kind: Payment.Kind, amountMinor: Int64, currency: String, refundOf: String? = nil) {
        self.id = id
        self.idempotencyKey = idempotencyKey
        self.userId = userId
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundOf = refundOf
    }
}

/// What `processPayment` answers the client.
public enum PaymentResult: Hashable, Sendable {
    /// The charge was taken.
    case captured
    /// The refund was made.
    case refunded
    /// The gateway refused it.
    case declined
    /// The gateway never answered and had not acted.
    case failed
    /// A retry of a payment already finished: nothing done.
    case deduplicated
    /// Refused before the gateway.
    case rejected(PaymentRejectionReason)
}

/// What the gateway answers when it took or made a payment.
public struct PaymentReceipt: Hashable, Sendable {
    /// The payment's id.
    public var paymentId: String
    /// The key the gateway acted on.
    public var gatewayKey: String

    /// A receipt of all its fields.
    public init(paymentId: String, gatewayKey: String) {
        self.paymentId = paymentId
        self.gatewayKey = gatewayKey
    }
}

/// One line of the service's ledger: what it took and returned, per user and currency.
public struct LedgerLine: Hashable, Sendable {
    /// The user.
    public var userId: String
    /// The ISO 4217 code.
    public var currency: String
    /// Captured charges.
    public var capturedMinor: Int64
    /// Refunded refunds.
    public var refundedMinor: Int64

    /// A line of all its fields.
    public init(userId: String, currency: String, capturedMinor: Int64, refundedMinor: Int64) {
        self.userId = userId
        self.currency = currency
        self.capturedMinor = capturedMinor
        self.refundedMinor = refundedMinor
    }
}
