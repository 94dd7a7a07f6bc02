import Foundation
import PaymentsCore
@_spi(Tooling) import PlantedFlaws
@_spi(Tooling) import ServiceSimulation

// A SPEC §4 payment service on ServiceSimulation's async API, with bugs to plant: the fixture that the
// service-simulation tests and benchmarks run (the user-facing gallery is Examples/PaymentServiceUnderTest).

/// Chooses the flaw of a `LedgerService` type.
@_spi(Tooling) public protocol FlawChoice: Sendable {
    /// The flaw planted (`PlantedFlaw.fixtures` holds `.ledgerService`); nil: the correct service.
    static var flaw: PlantedFlaw? { get }
    /// Where the service keeps its records (the simulation's durable store unless said otherwise).
    static var storage: LedgerStorage { get }
}

extension FlawChoice {
    @_spi(Tooling) public static var storage: LedgerStorage { .records }
}

/// No flaw.
@_spi(Tooling) public enum Correct: FlawChoice { public static var flaw: PlantedFlaw? { nil } }
/// `PlantedFlaw.reentrancy`.
@_spi(Tooling) public enum Reentrancy: FlawChoice { public static var flaw: PlantedFlaw? { .reentrancy } }
/// `PlantedFlaw.checkThenAct`.
package enum CheckThenAct: FlawChoice { public static var flaw: PlantedFlaw? { .checkThenAct } }
/// `PlantedFlaw.intentAfterCall`.
package enum IntentAfterCall: FlawChoice { public static var flaw: PlantedFlaw? { .intentAfterCall } }
/// `PlantedFlaw.timeoutIsFailure`.
package enum TimeoutIsFailure: FlawChoice { public static var flaw: PlantedFlaw? { .timeoutIsFailure } }
/// `PlantedFlaw.retryWithoutKey`.
package enum RetryWithoutKey: FlawChoice { public static var flaw: PlantedFlaw? { .retryWithoutKey } }
/// `PlantedFlaw.answerBeforeSync`.
package enum AnswerBeforeSync: FlawChoice { public static var flaw: PlantedFlaw? { .answerBeforeSync } }

/// `PlantedFlaw.unsyncedRecovery`.
package enum UnsyncedRecovery: FlawChoice { public static var flaw: PlantedFlaw? { .unsyncedRecovery } }

/// No flaw, the records in a SQLite database on the simulated disk.
@_spi(Tooling) public enum CorrectOnSQLite: FlawChoice {
    @_spi(Tooling) public static var flaw: PlantedFlaw? { nil }
    @_spi(Tooling) public static var storage: LedgerStorage { .sqlite }
}
/// `PlantedFlaw.sqliteSynchronousOff`, on SQLite.
package enum SynchronousOff: FlawChoice {
    package static var flaw: PlantedFlaw? { .sqliteSynchronousOff }
    package static var storage: LedgerStorage { .sqlite }
}

/// A payment as the service stores it.
struct StoredPayment: Codable, Hashable {
    var paymentID: String
    var key: String
    var userID: String
    var kind: String
    var amountMinor: Int64
    var currency: String
    var refundOf: String?
    /// `pending` until the gateway answered, then a `PaymentState`.
    var state: String
    var reason: String?
    /// The key the gateway is sent: minted when the payment is first processed, kept in the intent.
    var gatewayKey: String

    func same(as request: ServiceRequest) -> Bool {
        kind == request.kind.name && amountMinor == request.amountMinor && currency == request.currency.code && refundOf == request.refundOf
    }
}

/// A SPEC §4 payment service written as teams write one: an actor, a repository over the durable
/// store, the gateway behind it; `Flaw` plants one bug.
@_spi(Tooling) public struct LedgerService<Flaw: FlawChoice>: ServiceUnderSimulation {
    let core: PaymentCore

    /// A service over `environment` (no state survives but the store's). Recovery syncs first: a crashed
    /// process may have left writes in the cache, and a retry that finds one must not answer from a record a
    /// power loss could still take away (found by the simulation: seed 1712 of 5,000, `ledger-differs`).
    @_spi(Tooling) public static func start(in environment: ServiceEnvironment) async throws -> LedgerService {
        let store: any RecordStore = switch Flaw.storage {
        case .records: environment.store
        case .sqlite: try SQLiteRecords(uri: environment.disk.uri(of: "ledger.sqlite"), syncsCommits: Flaw.flaw != .sqliteSynchronousOff)
        }
        try await store.sync()
        return LedgerService(core: PaymentCore(environment: environment, store: store, flaw: Flaw.flaw))
    }

    /// Processes one request (SPEC §4) under the user's lock.
    @_spi(Tooling) public func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        try await core.submit(request)
    }

    /// The ledger from the stored payments.
    @_spi(Tooling) public func ledger() async throws -> [ServiceLedgerLine] {
        try await core.ledger()
    }
}

/// The service's state: per-user locks (which the correct service takes around each payment).
actor PaymentCore {
    let environment: ServiceEnvironment
    /// The records: the environment's store, or a SQLite database on its disk.
    let store: any RecordStore
    let flaw: PlantedFlaw?
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(environment: ServiceEnvironment, store: any RecordStore, flaw: PlantedFlaw?) {
        self.environment = environment
        self.store = store
        self.flaw = flaw
    }

    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        // One payment of a user at a time (the reentrancy flaw: one of a key at a time; check-then-act: none).
        let lockKey: String? = switch flaw {
        case .checkThenAct: nil
        case .reentrancy: request.userID + "/" + request.idempotencyKey
        default: request.userID
        }
        if let lockKey { await lock(lockKey) }
        do {
            let answer = try await process(request)
            if let lockKey { unlock(lockKey) }
            return answer
        } catch {
            if let lockKey { unlock(lockKey) }
            throw error
        }
    }

    private func process(_ request: ServiceRequest) async throws -> ServiceAnswer {
        let recordKey = "payment/\(request.userID)/\(request.idempotencyKey)"
        if let data = try await record(recordKey) {
            var stored = try JSONDecoder().decode(StoredPayment.self, from: data)
            guard stored.same(as: request) else { return ServiceAnswer(state: .rejected, reason: .idempotencyConflict) }
            // What it found may not be on the disk yet (its sync failed): make it durable before it acts or answers.
            if flaw != .answerBeforeSync, flaw != .unsyncedRecovery { try await store.sync() }
            guard stored.state == "pending" else { return ServiceAnswer(state: .deduplicated, paymentID: stored.paymentID) }
            return try await charge(&stored, recordKey)
        }
        var stored = StoredPayment(
            paymentID: request.paymentID, key: request.idempotencyKey, userID: request.userID, kind: request.kind.name,
            amountMinor: request.amountMinor, currency: request.currency.code, refundOf: request.refundOf, state: "pending",
            gatewayKey: "gw-\(request.paymentID)")
        if request.kind == .refund, let rejection = try await refundRejection(request) {
            stored.state = PaymentState.rejected.rawValue
            stored.reason = rejection.rawValue
            try await store.write(recordKey, try JSONEncoder().encode(stored))
            try await store.sync()
            return ServiceAnswer(state: .rejected, reason: rejection)
        }
        if flaw != .intentAfterCall { try await store.write(recordKey, try JSONEncoder().encode(stored)) }
        if request.kind == .charge { try await store.write("charge/\(request.paymentID)", Data(recordKey.utf8)) }
        try await store.sync()
        return try await charge(&stored, recordKey)
    }

    /// Sends the stored payment to the gateway (at most 3 attempts, then reconciles) and saves its end.
    private func charge(_ stored: inout StoredPayment, _ recordKey: String) async throws -> ServiceAnswer {
        let done: PaymentState = stored.kind == "charge" ? .captured : .refunded
        var state = PaymentState.failed
        attempts: for attempt in 0..<3 {
            let key = flaw == .retryWithoutKey && attempt > 0 ? "\(stored.gatewayKey)-\(attempt)" : stored.gatewayKey
            do {
                _ = try await environment.gateway.process(gatewayPayment(stored, key: key))
                state = done
                break attempts
            } catch GatewayError.declined {
                state = .declined
                break attempts
            } catch GatewayError.timedOut {
                continue
            }
        }
        if state == .failed, flaw != .timeoutIsFailure, try await environment.gateway.hasActed(idempotencyKey: stored.gatewayKey) {
            state = done
        }
        stored.state = state.rawValue
        let data = try JSONEncoder().encode(stored)
        if flaw == .reentrancy, state == done {
            let ledgerKey = "ledger/\(stored.userID)/\(stored.currency)/\(stored.kind)"
            let before = try await record(ledgerKey).flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
            try await store.write(recordKey, data)
            try await store.write(ledgerKey, Data(String(before + stored.amountMinor).utf8))
        } else {
            try await store.write(recordKey, data)
        }
        if flaw != .answerBeforeSync { try await store.sync() }
        return ServiceAnswer(state: state, paymentID: stored.paymentID)
    }

    private func gatewayPayment(_ stored: StoredPayment, key: String) -> GatewayPayment {
        GatewayPayment(
            idempotencyKey: key, paymentID: stored.paymentID, userID: stored.userID, kind: stored.kind == "charge" ? .charge : .refund,
            amountMinor: stored.amountMinor, currency: Currency(code: stored.currency)!, refundOf: stored.refundOf)
    }

    /// SPEC §4 step 3 for a refund: its charge captured, same user and currency, refunds within it.
    private func refundRejection(_ request: ServiceRequest) async throws -> PaymentRejection? {
        // It answers with the payment id of the request that made the record, and finds a refund's charge by it.
        guard let of = request.refundOf, let pointer = try await record("charge/\(of)"),
              let data = try await record(String(decoding: pointer, as: UTF8.self)),
              let charge = try? JSONDecoder().decode(StoredPayment.self, from: data),
              charge.kind == "charge", charge.state == PaymentState.captured.rawValue, charge.userID == request.userID
        else { return .unknownCharge }
        guard charge.currency == request.currency.code else { return .currencyMismatch }
        var refunded: Int64 = 0
        for key in try await store.keys(withPrefix: "payment/\(request.userID)/") {
            guard let data = try await record(key), let other = try? JSONDecoder().decode(StoredPayment.self, from: data),
                  other.kind == "refund", other.refundOf == of, other.state == "pending" || other.state == PaymentState.refunded.rawValue
            else { continue }
            refunded += other.amountMinor
        }
        return refunded + request.amountMinor > charge.amountMinor ? .refundExceeds : nil
    }

    /// The ledger: from the ledger records under the reentrancy flaw, else summed from the payments.
    func ledger() async throws -> [ServiceLedgerLine] {
        var lines: [String: ServiceLedgerLine] = [:]
        if flaw == .reentrancy {
            for key in try await store.keys(withPrefix: "ledger/") {
                let parts = key.split(separator: "/").map(String.init)
                let amount = try await record(key).flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
                let id = parts[1] + "/" + parts[2]
                var line = lines[id] ?? ServiceLedgerLine(userID: parts[1], currency: Currency(code: parts[2])!, capturedMinor: 0, refundedMinor: 0)
                if parts[3] == "charge" { line.capturedMinor += amount } else { line.refundedMinor += amount }
                lines[id] = line
            }
            return Array(lines.values)
        }
        for key in try await store.keys(withPrefix: "payment/") {
            guard let data = try await record(key) else { continue }
            let payment = try JSONDecoder().decode(StoredPayment.self, from: data)
            let id = payment.userID + "/" + payment.currency
            var line = lines[id] ?? ServiceLedgerLine(userID: payment.userID, currency: Currency(code: payment.currency)!, capturedMinor: 0, refundedMinor: 0)
            if payment.state == PaymentState.captured.rawValue { line.capturedMinor += payment.amountMinor }
            if payment.state == PaymentState.refunded.rawValue { line.refundedMinor += payment.amountMinor }
            lines[id] = line
        }
        return Array(lines.values)
    }

    /// The record under `key`; nil when there is none or a power loss tore it (it was never synced, so no
    /// client was answered from it, and the client's retry writes it again).
    private func record(_ key: String) async throws -> Data? {
        do { return try await store.read(key) } catch DurableRecordsError.torn { return nil }
    }

    private func lock(_ user: String) async {
        guard busy.contains(user) else {
            busy.insert(user)
            return
        }
        await withCheckedContinuation { waiting[user, default: []].append($0) }
    }

    private func unlock(_ user: String) {
        if var queue = waiting[user], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[user] = queue
            next.resume()
        } else {
            busy.remove(user)
        }
    }
}
