import PaymentsCore

/// A payment service put under simulation: the one type a user conforms, usually a thin adapter over
/// their `PaymentService(repository:gateway:)`. SimHarness starts it from an environment (at launch and
/// after each crash: from what is durable), sends it client requests from concurrent clients, crashes it
/// at seeded points, and checks SPEC §4's invariants against the gateway's ground truth.
public protocol ServiceUnderSimulation: Sendable {
    /// Starts the service over `environment`'s gateway, store and clock: at launch, and after each crash
    /// with only what was durably written before it. A throw is reported as a violation of the world.
    static func start(in environment: ServiceEnvironment) async throws -> Self
    /// Handles one client request to its final answer. A throw is what a client sees when the connection
    /// drops: the client retries later with the same idempotency key (and a new payment id).
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer
    /// The service's ledger as it stands (SPEC §4: per user and currency, captured and refunded), read
    /// after a final restart to compare with what the gateway did.
    func ledger() async throws -> [ServiceLedgerLine]
}

/// One client request (a row of `payments.csv` as a client sends it).
public struct ServiceRequest: Hashable, Sendable, CustomStringConvertible {
    /// Unique per request: a client's retry is a new id with the same key.
    public var paymentID: String
    /// The client's idempotency key: the same for every retry of one payment.
    public var idempotencyKey: String
    /// The user.
    public var userID: String
    /// `charge` or `refund`.
    public var kind: PaymentKind
    /// The amount in the currency's minor unit.
    public var amountMinor: Int64
    /// The currency.
    public var currency: Currency
    /// The charge a refund returns money from, named as its client knows it: by the `paymentID` the service
    /// answered the charge with, or by the charge's idempotency key when its answers carried none; nil for a
    /// charge.
    public var refundOf: String?

    /// A request of all its fields.
    public init(
        paymentID: String, idempotencyKey: String, userID: String, kind: PaymentKind, amountMinor: Int64, currency: Currency,
        refundOf: String? = nil
    ) {
        self.paymentID = paymentID
        self.idempotencyKey = idempotencyKey
        self.userID = userID
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundOf = refundOf
    }

    /// `p0004 (key k0002, u01 charge 1250 USD)`.
    public var description: String {
        "\(paymentID) (key \(idempotencyKey), \(userID) \(kind.name) \(amountMinor) \(currency.code)\(refundOf.map { " of \($0)" } ?? ""))"
    }
}

/// The final answer a client sees (SPEC §4 step 5).
public struct ServiceAnswer: Hashable, Sendable, CustomStringConvertible {
    /// The payment's final state.
    public var state: PaymentState
    /// Why it was rejected; nil unless `state` is `rejected`.
    public var reason: PaymentRejection?
    /// The id the service gave the payment, if it gives one: a later refund of this charge names it by this
    /// id (`ServiceRequest.refundOf`). Without one, refunds name the charge by its idempotency key.
    public var paymentID: String?

    /// An answer; give a reason with `rejected` only.
    public init(state: PaymentState, reason: PaymentRejection? = nil, paymentID: String? = nil) {
        self.state = state
        self.reason = reason
        self.paymentID = paymentID
    }

    /// `captured`, `rejected (unknown_charge)`, `captured as ch_0042`.
    public var description: String {
        state.rawValue + (reason.map { " (\($0.rawValue))" } ?? "") + (paymentID.map { " as \($0)" } ?? "")
    }
}

/// One line of a service's ledger.
public struct ServiceLedgerLine: Hashable, Sendable, CustomStringConvertible {
    /// The user.
    public var userID: String
    /// The currency.
    public var currency: Currency
    /// The sum of captured charges.
    public var capturedMinor: Int64
    /// The sum of refunded refunds.
    public var refundedMinor: Int64

    /// A ledger line.
    public init(userID: String, currency: Currency, capturedMinor: Int64, refundedMinor: Int64) {
        self.userID = userID
        self.currency = currency
        self.capturedMinor = capturedMinor
        self.refundedMinor = refundedMinor
    }

    /// `u01 USD captured 1250 refunded 0`.
    public var description: String { "\(userID) \(currency.code) captured \(capturedMinor) refunded \(refundedMinor)" }
}

/// What an environment call throws in a task of a service that has crashed: the task belongs to an
/// incarnation that no longer exists, and nothing it does reaches the gateway or the store.
public struct ServiceCrashed: Error, Hashable, Sendable, CustomStringConvertible {
    /// The incarnation the task belonged to.
    public var incarnation: Int
    /// `the service crashed (incarnation 2)`.
    public var description: String { "the service crashed (incarnation \(incarnation))" }
}

/// The service incarnation a task works for: set by the world around `start` and `submit`, inherited by
/// every task they start (child tasks and `Task { }` keep task-local values).
enum Incarnation {
    @TaskLocal static var current = 0
}
