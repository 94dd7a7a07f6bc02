/// A payment row as the processor sees it: ids and keys are interned to integers by whoever reads
/// the rows, so a payment is a plain value with no strings.
public struct PaymentRequest: Hashable, Sendable {
    /// The interned `payment_id`.
    public var id: UInt32
    /// The interned `idempotency_key`.
    public var key: UInt32
    /// Unicode scalars in the key (0 when empty).
    public var keyLength: Int
    /// `charge` or `refund`.
    public var kind: PaymentKind
    /// `nil` when `amount_minor` is not an integer in the signed 64-bit range.
    public var amountMinor: Int64?
    /// `nil` when the currency is not supported.
    public var currency: Currency?
    /// `created_at`, seconds since 1970 (UTC).
    public var createdAt: Int64
    /// The interned `payment_id` that `refund_of` names, `nil` when empty.
    public var refundOf: UInt32?
    /// The gateway's outcome script (`gateway`).
    public var script: GatewayScript

    /// A request of all its fields.
    public init(
        id: UInt32, key: UInt32, keyLength: Int, kind: PaymentKind, amountMinor: Int64?, currency: Currency?,
        createdAt: Int64, refundOf: UInt32?, script: GatewayScript
    ) {
        self.id = id
        self.key = key
        self.keyLength = keyLength
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.createdAt = createdAt
        self.refundOf = refundOf
        self.script = script
    }

    /// The order in which one user's payments are processed: `(created_at, payment_id)`,
    /// given the rank of each id in byte order.
    @inlinable package static func precedes(_ a: PaymentRequest, _ b: PaymentRequest, idRank: (UInt32) -> UInt32) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt < b.createdAt : idRank(a.id) < idRank(b.id)
    }
}

/// The final state of a payment (SPEC §4 step 5).
public enum PaymentState: String, CaseIterable, Sendable {
    /// A charge the gateway approved: its amount is in the ledger.
    case captured
    /// A refund the gateway approved: its amount is in the ledger.
    case refunded
    /// The gateway declined it.
    case declined
    /// Every attempt timed out and reconciling found the gateway had not acted.
    case failed
    /// A repeat of an earlier payment's idempotency key with the same values: no gateway call.
    case deduplicated
    /// Refused before the gateway, with a reason.
    case rejected
}

/// Why a payment is rejected, in the order the checks run (SPEC §4).
public enum PaymentRejection: String, CaseIterable, Sendable {
    /// A field the SPEC's grammar does not allow (SPEC §0).
    case malformed
    /// No accepted user of that id.
    case unknownUser = "unknown_user"
    /// An empty idempotency key, or one longer than 255 Unicode scalars.
    case missingKey = "missing_key"
    /// A currency code outside SPEC §0's list.
    case unsupportedCurrency = "unsupported_currency"
    /// An amount of 0 or less, or not a 64-bit integer.
    case invalidAmount = "invalid_amount"
    /// More than 1,000,000 major units.
    case overLimit = "over_limit"
    /// A key the user used before, with other values.
    case idempotencyConflict = "idempotency_conflict"
    /// A refund of no captured charge of the user processed earlier.
    case unknownCharge = "unknown_charge"
    /// A refund in another currency than its charge.
    case currencyMismatch = "currency_mismatch"
    /// Refunds that would exceed their charge.
    case refundExceeds = "refund_exceeds"

    /// The longest accepted idempotency key, in Unicode scalars.
    @usableFromInline package static let maximumKeyLength = 255
}

/// What happened to one payment.
public struct PaymentOutcome: Hashable, Sendable {
    /// The final state.
    public var state: PaymentState
    /// Set exactly when `state` is `rejected`.
    public var reason: PaymentRejection?
    /// Gateway attempts made.
    public var attempts: Int
    /// Simulated time from submission to the final answer, retries and backoff included.
    public var latencyMillis: Int64

    /// An outcome of all its fields.
    public init(state: PaymentState, reason: PaymentRejection? = nil, attempts: Int = 0, latencyMillis: Int64 = 0) {
        self.state = state
        self.reason = reason
        self.attempts = attempts
        self.latencyMillis = latencyMillis
    }

    /// A payment rejected for `reason` (no gateway call).
    @usableFromInline package static func rejected(_ reason: PaymentRejection) -> PaymentOutcome {
        PaymentOutcome(state: .rejected, reason: reason)
    }
}
