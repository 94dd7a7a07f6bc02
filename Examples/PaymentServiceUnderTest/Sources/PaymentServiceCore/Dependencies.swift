/// Where payments are kept: a database in production, an in-memory fake in unit tests, the simulated
/// disk under SimHarness.
public protocol PaymentRepository: Sendable {
    /// The payment of `id`, nil when there is none.
    func findById(_ id: String) async throws -> Payment?
    /// Saves `payment` (insert or replace). It is seen by reads at once and survives a crash of the
    /// process, but a power loss only after the next `flush()`.
    func save(_ payment: Payment) async throws
    /// Every payment.
    func findAll() async throws -> [Payment]
    /// Every payment of `userId` (by default `findAll()` filtered; a store with an index does better).
    func findAll(userId: String) async throws -> [Payment]
    /// Makes every save so far durable (fsync, a committed transaction): they survive a power loss.
    func flush() async throws

    /// A running balance the service keeps under `account` (0 when there is none). Only the service with
    /// the `reentrancy` bug keeps balances: the correct one sums its ledger from the payments.
    func balance(_ account: String) async throws -> Int64
    /// Saves the running balance under `account`.
    func saveBalance(_ value: Int64, for account: String) async throws
    /// Every running balance, by account.
    func allBalances() async throws -> [String: Int64]
}

extension PaymentRepository {
    /// `findAll()` filtered by user.
    public func findAll(userId: String) async throws -> [Payment] {
        try await findAll().filter { $0.userId == userId }
    }
}

/// The payment provider.
public protocol PaymentGateway: Sendable {
    /// Sends `payment`, under its `gatewayKey`, on which the provider is idempotent (once it acted for a
    /// key, later calls with it answer with a receipt and do nothing more). Throws
    /// `PaymentGatewayError.declined`, or `.timedOut` when no answer came: it may or may not have acted.
    func process(_ payment: Payment) async throws -> PaymentReceipt
    /// Whether the provider acted for `payment`'s `gatewayKey` (reconciliation after timeouts: not a
    /// payment attempt).
    func wasProcessed(_ payment: Payment) async throws -> Bool
}

/// Why the gateway gave no receipt.
public enum PaymentGatewayError: Error, Hashable, Sendable {
    /// It refused; nothing happened.
    case declined
    /// No answer in time: it may have acted (ask `wasProcessed`).
    case timedOut
}
