import Foundation
import PaymentsCore
@_spi(Tooling) import ServiceSimulation

extension ServiceEnvironment {
    /// Load mode's environment: SPEC §4's gateway answering at once from `scripts` (by payment id), an
    /// in-memory store, and a clock that reads real time and never waits. Safe from every core at once.
    static func load(scripts: [String: GatewayScript], origin: ContinuousClock.Instant) -> (ServiceEnvironment, InstantGateway) {
        let gateway = InstantGateway(scripts: scripts)
        let environment = ServiceEnvironment(
            gateway: gateway, store: InMemoryRecords(),
            // The disk in memory, without faults; one connection at a time (its SQLite calls serialized).
            disk: ServiceDisk(seed: 0, faults: false), clock: ImmediateClock(origin: origin))
        return (environment, gateway)
    }
}

/// Load mode's clock: `now` is the real time, and a sleep returns at once (a backoff or a timeout costs no
/// real time: the service is measured, not its waits).
struct ImmediateClock: ClockWithOrigin, Sendable {
    typealias Instant = ContinuousClock.Instant
    /// When the run began.
    let origin: Instant

    var now: Instant { .now }
    var sinceOrigin: Duration { origin.duration(to: .now) }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// Returns at once; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws { try Task.checkCancellation() }
}

/// SPEC §4's gateway for load mode, without latency: idempotent per key (once it acted for a key, every
/// later call answers approved); otherwise the payment's script, one token a call with that key, the last
/// repeated: `A` acts and approves, `D` throws `.declined`, `T` throws `.timedOut`, `L` acts and throws
/// `.timedOut`. A payment id without a script is approved. It keeps the ground truth of every act.
final class InstantGateway: ServiceGateway, Sendable {
    /// What the gateway did for one key.
    struct KeyRecord: Sendable {
        /// Calls with the key.
        var calls = 0
        /// The payment it acted for, nil when it did not act.
        var act: GatewayPayment?
    }

    private final class Shard: Sendable {
        let table = Locked<[String: KeyRecord]>([:])
    }

    private let scripts: [String: GatewayScript]
    /// Keys spread over locks, so that clients on different cores seldom wait for each other.
    private let shards: [Shard] = (0..<64).map { _ in Shard() }

    init(scripts: [String: GatewayScript]) { self.scripts = scripts }

    private func shard(_ key: String) -> Shard { shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))] }

    func process(_ payment: GatewayPayment) async throws -> GatewayReceipt {
        let script = scripts[payment.paymentID]
        let token = shard(payment.idempotencyKey).table.withLock { table -> GatewayResponse in
            var record = table[payment.idempotencyKey] ?? KeyRecord()
            defer { table[payment.idempotencyKey] = record }
            guard record.act == nil else { return .approved }
            let token = script?.response(at: record.calls) ?? .approved
            record.calls += 1
            if token.acted { record.act = payment }
            return token
        }
        switch token {
        case .approved: return GatewayReceipt(idempotencyKey: payment.idempotencyKey)
        case .declined: throw GatewayError.declined
        case .timedOut, .lost: throw GatewayError.timedOut
        }
    }

    func hasActed(idempotencyKey: String) async throws -> Bool {
        shard(idempotencyKey).table.withLock { $0[idempotencyKey]?.act != nil }
    }

    /// Every key the gateway acted for, with the payment it acted for: the ground truth.
    var acts: [String: GatewayPayment] {
        var all: [String: GatewayPayment] = [:]
        for shard in shards {
            shard.table.withLock { table in
                for (key, record) in table { if let act = record.act { all[key] = act } }
            }
        }
        return all
    }
}

/// Load mode's durable store: records in memory, under one lock, grouped by the part of their key before
/// the last `/` so that `keys(withPrefix:)` visits the groups that can match, not every record. Every write
/// is durable at once (load mode does not crash the service).
final class InMemoryRecords: RecordStore, Sendable {
    private let groups = Locked<[Substring: [String: Data]]>([:])

    private static func group(of key: String) -> Substring { key.lastIndex(of: "/").map { key[..<$0] } ?? "" }

    func read(_ key: String) async throws -> Data? {
        groups.withLock { $0[Self.group(of: key)]?[key] }
    }

    func write(_ key: String, _ value: Data) async throws { put(key, value) }

    func remove(_ key: String) async throws { put(key, nil) }

    /// Nothing to do: every write is durable at once.
    func sync() async throws {}

    func commit(writing records: [String: Data], removing keys: [String]) async throws {
        groups.withLock { groups in
            for (key, value) in records { groups[Self.group(of: key), default: [:]][key] = value }
            for key in keys { groups[Self.group(of: key), default: [:]][key] = nil }
        }
    }

    private func put(_ key: String, _ value: Data?) {
        groups.withLock { $0[Self.group(of: key), default: [:]][key] = value }
    }

    func keys(withPrefix prefix: String) async throws -> [String] {
        // A key starting with `prefix` is in a group that starts with the prefix up to its last `/`.
        let groupPrefix = Self.group(of: prefix)
        let found: [String] = groups.withLock { groups in
            groups.filter { $0.key.hasPrefix(groupPrefix) }.flatMap { $0.value.keys.filter { $0.hasPrefix(prefix) } }
        }
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
