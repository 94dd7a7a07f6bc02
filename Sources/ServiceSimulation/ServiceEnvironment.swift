import Foundation

/// What a service is given: a payment gateway, a durable store, a disk for SQLite and a clock. In a seeded
/// world they are `VirtualGateway`, `DurableRecords`, a simulated `ServiceDisk` and `VirtualClock`; in load
/// mode (`run`), a gateway that answers at once, records in memory and a clock whose sleeps return at once.
public struct ServiceEnvironment: Sendable {
    /// The payment gateway (SPEC §4's, with latency, timeouts, lost answers and declines).
    public let gateway: any ServiceGateway
    /// The records that survive a crash.
    public let store: any RecordStore
    /// A disk for a SQLite database, for a repository over SQLite (instead of `store`).
    public let disk: ServiceDisk
    /// The clock to sleep on: hand it to code that takes `any Clock<Duration>` or `some Clock<Duration>`.
    /// (In a world, `Task.sleep` and the system clocks are virtual too.)
    public let clock: any Clock<Duration>

    /// An environment of its parts (a world's, or load mode's).
    package init(gateway: any ServiceGateway, store: any RecordStore, disk: ServiceDisk, clock: any Clock<Duration>) {
        self.gateway = gateway
        self.store = store
        self.disk = disk
        self.clock = clock
    }
}

/// The payment gateway a service calls, shaped like a real one: idempotent per key, answering approved,
/// or throwing `GatewayError.declined` or `.timedOut` (when it may or may not have acted).
public protocol ServiceGateway: Sendable {
    /// Sends `payment`; returns the receipt, or throws `GatewayError.declined` or `.timedOut` (or
    /// `ServiceCrashed` in a task of a crashed service).
    func process(_ payment: GatewayPayment) async throws -> GatewayReceipt
    /// Whether the gateway acted for `idempotencyKey` (reconciliation: not a payment attempt).
    func hasActed(idempotencyKey: String) async throws -> Bool
}

/// A key-value store a service's repository is built on. Two ways to write: `commit`, as a database commits
/// (atomic and durable when it returns, nothing when it throws), or the raw disk's `write` and `sync` (a
/// write is seen by every read at once and survives a power loss after the next `sync`), for a service that
/// models its own storage.
public protocol RecordStore: Sendable {
    /// The record under `key`, nil when there is none.
    func read(_ key: String) async throws -> Data?
    /// Writes `value` under `key`: seen by every read at once, durable after the next `sync`.
    func write(_ key: String, _ value: Data) async throws
    /// Removes the record under `key` (durable after the next `sync`).
    func remove(_ key: String) async throws
    /// Puts every write so far on the disk: they survive a power loss once this returns.
    func sync() async throws
    /// Every key that starts with `prefix`, in byte order.
    func keys(withPrefix prefix: String) async throws -> [String]
    /// Writes `records` and removes `keys` as one transaction: when it returns, all of them are durable; when
    /// it throws, none of them happened. A key in both is removed.
    func commit(writing records: [String: Data], removing keys: [String]) async throws
}

extension RecordStore {
    /// Every key, in byte order.
    public func keys() async throws -> [String] { try await keys(withPrefix: "") }
    /// Writes `records` as one transaction: when it returns, all of them are durable; when it throws, none is.
    public func commit(writing records: [String: Data]) async throws { try await commit(writing: records, removing: []) }
}

/// A clock that counts from an origin: a world's beginning, or the start of a load run.
package protocol ClockWithOrigin: Clock<Duration> {
    /// The time since the origin.
    var sinceOrigin: Duration { get }
}

extension ServiceEnvironment {
    /// The time since the world (or the load run) began: for services that stamp records with it.
    package var sinceOrigin: Duration { (clock as? any ClockWithOrigin)?.sinceOrigin ?? .zero }
}
