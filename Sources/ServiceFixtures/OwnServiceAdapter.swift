import Foundation
@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws
import PaymentsCore
@_spi(Tooling) import ServiceSimulation

/// The defects planted in an `OwnPaymentService` (tests: the checks catch them on this path too).
package protocol OwnServiceFlaws: Sendable {
    /// The service's planted defects.
    static var flaws: Set<PlantedFlaw> { get }
}

/// The own service as it ships: no defect.
package enum OwnServiceAsShipped: OwnServiceFlaws { package static var flaws: Set<PlantedFlaw> { [] } }
/// `PlantedFlaw.retryWithoutKey`: a retry after a timeout goes to the gateway under a new key.
package enum OwnRetryWithoutKey: OwnServiceFlaws { package static var flaws: Set<PlantedFlaw> { [.retryWithoutKey] } }

/// SimHarness's own payment service (`PaymentService`: sans-I/O, inputs in and effects out) run as a
/// `ServiceUnderSimulation` on the seeded-executor path, as a user's service runs: an actor hands it
/// each input and carries out its effects with the environment's async gateway, store and clock. It
/// measures what the own service would cost on that path (docs/your-service.md, "One engine").
///
/// A transaction's payments are written to the durable records and synced before any of its effects
/// (a reply, a gateway call, a later step) is carried out, so what a client was told survives a crash.
package struct OwnPaymentService<Flaws: OwnServiceFlaws>: ServiceUnderSimulation {
    let driver: OwnServiceDriver

    /// Rebuilds the store from the durable records (synced first: a crashed process may have left
    /// writes that a power loss could still take away), then resumes the unfinished payments.
    package static func start(in environment: ServiceEnvironment) async throws -> OwnPaymentService {
        try await environment.store.sync()
        let store = RecordingStore(plants: try ReferenceServicePlants(Flaws.flaws))
        var names: [UInt32: ServiceSimulation.ServiceRequest] = [:]
        var restored: [(number: Int, request: ServiceSimulation.ServiceRequest, fields: [String])] = []
        for key in try await environment.store.keys(withPrefix: "own/") {
            // A torn record was new and never synced: no client was told of it.
            guard let data = try await tornAsAbsent({ try await environment.store.read(key) }) else { continue }
            let fields = String(decoding: data, as: UTF8.self).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 12, let request = OwnRequests.request(fields[0..<7]), let number = Int(fields[7]) else {
                throw StoreFailure("a bad record under \(key)")
            }
            restored.append((number, request, Array(fields[7...])))
        }
        for (_, request, fields) in restored.sorted(by: { $0.number < $1.number }) {
            let own = try OwnRequests.own(request, createdAt: Int64(fields[3]) ?? 0)
            try store.restore(own, fields: fields)
            names[own.payment.id] = request
        }
        let driver = OwnServiceDriver(environment: environment, store: store, names: names)
        try await driver.recover()
        return OwnPaymentService(driver: driver)
    }

    /// Hands the request to the service and waits for its reply.
    package func submit(_ request: ServiceSimulation.ServiceRequest) async throws -> ServiceAnswer {
        try await driver.submit(request)
    }

    /// The store's ledger.
    package func ledger() async throws -> [ServiceLedgerLine] {
        try await driver.ledger()
    }
}

/// A client's requests as the own service and its durable records spell them.
enum OwnRequests {
    /// The own service's request for a client's: ids interned from `p0004-3` (payment 4, try 3; `-d3`
    /// for a duplicate's), `k0004` and `u003`.
    static func own(_ request: ServiceSimulation.ServiceRequest, createdAt: Int64) throws -> OwnRequest {
        guard let id = paymentNumber(request.paymentID), let key = UInt32(request.idempotencyKey.dropFirst()),
              let user = UInt32(request.userID.dropFirst())
        else { throw StoreFailure("ids the adapter cannot intern: \(request)") }
        // A refund names its charge by the id the service answered with (its request's payment id), or by its
        // key when no answer carried one: the own service knows charges by payment id, so that one names none.
        let refundOf = request.refundOf.map { charge in paymentNumber(charge) ?? unknownCharge }
        let payment = PaymentRequest(
            id: id, key: key, keyLength: request.idempotencyKey.utf8.count, kind: request.kind, amountMinor: request.amountMinor,
            currency: request.currency, createdAt: createdAt, refundOf: refundOf, script: GatewayScript([]))
        return OwnRequest(user: user, payment: payment)
    }

    /// The number of a charge no payment has (payment 67,108,863, duplicate try 31: no world is that big).
    static let unknownCharge = UInt32.max

    static func paymentNumber(_ id: String) -> UInt32? {
        let parts = id.dropFirst().split(separator: "-")
        guard parts.count == 2, let index = UInt32(parts[0]) else { return nil }
        let duplicate = parts[1].hasPrefix("d")
        guard let attempt = UInt32(duplicate ? parts[1].dropFirst() : parts[1]), attempt < 32 else { return nil }
        return index << 6 | (duplicate ? 32 : 0) | attempt
    }

    /// The client's request as its durable record spells it.
    static func fields(of request: ServiceSimulation.ServiceRequest) -> [String] {
        [request.paymentID, request.idempotencyKey, request.userID, request.kind.name, String(request.amountMinor), request.currency.code, request.refundOf ?? ""]
    }

    static func request(_ fields: ArraySlice<String>) -> ServiceSimulation.ServiceRequest? {
        let f = Array(fields)
        guard let amount = Int64(f[4]), let currency = Currency(code: f[5]) else { return nil }
        return ServiceSimulation.ServiceRequest(
            paymentID: f[0], idempotencyKey: f[1], userID: f[2], kind: f[3] == "charge" ? .charge : .refund, amountMinor: amount,
            currency: currency, refundOf: f[6].isEmpty ? nil : f[6])
    }
}

/// `read`'s record, nil when a power loss tore it.
private func tornAsAbsent(_ read: () async throws -> Data?) async throws -> Data? {
    do { return try await read() } catch DurableRecordsError.torn { return nil }
}

/// One incarnation of the own service. Its asynchronous effects (a later step, a gateway call, a
/// reconciliation) wait in a queue that the tasks of the waiting clients work off, one item at a time
/// each, so that every job is a world task's (a `Task { }` does not inherit the world's executor
/// preference, SE-0417: a first version that ran each effect in one deadlocked in its first world). What
/// an input wrote is durable before its effects are carried out.
actor OwnServiceDriver {
    private let environment: ServiceEnvironment
    private let store: RecordingStore
    private let service: OwnService
    /// Rewrites what the service asks for (a planted flaw's).
    private var plants: ReferenceServicePlants
    /// The client requests of each interned payment id.
    private var names: [UInt32: ServiceSimulation.ServiceRequest]
    private var work: [@Sendable () async throws -> ServiceInput] = []
    private var answers: [Int: ServiceAnswer] = [:]
    /// Clients with nothing to do but wait for their answer or for work.
    private var idle: [CheckedContinuation<Void, Never>] = []
    /// Why this incarnation stopped (it crashed), once it has.
    private var failure: (any Error)?
    private var nextClient = 0

    init(environment: ServiceEnvironment, store: RecordingStore, names: [UInt32: ServiceSimulation.ServiceRequest]) {
        self.environment = environment
        self.store = store
        plants = store.plants
        self.names = names
        service = store.service()
    }

    /// The virtual time in milliseconds (load mode: since the run began).
    private var now: Int64 {
        let (seconds, attoseconds) = environment.sinceOrigin.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    func recover() throws {
        var effects: [ServiceEffect] = []
        try service.recover(now: now, effects: &effects)
        plants.rewrite(&effects)
        carryOut(effects)
    }

    /// Hands `request` to the service, then works off the queue until its answer comes.
    func submit(_ request: ServiceSimulation.ServiceRequest) async throws -> ServiceAnswer {
        let own = try OwnRequests.own(request, createdAt: now)
        if names[own.payment.id] == nil { names[own.payment.id] = request }
        let client = nextClient
        nextClient += 1
        try await handle(.request(own, client: client))
        while true {
            if let failure { throw failure }
            if let answer = answers.removeValue(forKey: client) { return answer }
            if work.isEmpty {
                await withCheckedContinuation { idle.append($0) }
            } else {
                try await runNext()
            }
        }
    }

    /// The store's ledger, once every queued item has run (a restart's reconciliations included).
    func ledger() async throws -> [ServiceLedgerLine] {
        while !work.isEmpty { try await runNext() }
        let users = Dictionary(names.values.map { (UInt32($0.userID.dropFirst()) ?? 0, $0.userID) }, uniquingKeysWith: { first, _ in first })
        return try store.ledger().map { row in
            ServiceLedgerLine(
                userID: users[row.user] ?? "u\(row.user)", currency: row.entry.currency, capturedMinor: row.entry.capturedMinor,
                refundedMinor: row.entry.refundedMinor)
        }
    }

    private func runNext() async throws {
        let next = work.removeFirst()
        do {
            try await handle(try await next())
        } catch {
            if failure == nil { failure = error }
            wakeAll()
            throw error
        }
    }

    /// Runs `input`; what it wrote is durable before its effects are carried out.
    private func handle(_ input: ServiceInput) async throws {
        var effects: [ServiceEffect] = []
        service.handle(input, now: now, effects: &effects)
        plants.rewrite(&effects)
        let written = store.takeWritten()
        if !written.isEmpty {
            let records = written.map { id in
                (String(format: "own/%010u", id), Data((OwnRequests.fields(of: names[id]!) + store.durableFields(of: id)).joined(separator: "|").utf8))
            }
            try await persist(records)
        }
        carryOut(effects)
    }

    /// Writes `records` and syncs them, again when the disk refuses (full, a failed sync: faults that pass),
    /// up to 8 times; the effects wait until it is done.
    private func persist(_ records: [(String, Data)]) async throws {
        for attempt in 1...8 {
            do {
                for (key, data) in records { try await environment.store.write(key, data) }
                try await environment.store.sync()
                return
            } catch is DurableRecordsError where attempt < 8 {
                continue
            }
        }
    }

    private func carryOut(_ effects: [ServiceEffect]) {
        for effect in effects {
            switch effect {
            case .reply(let client, let payment, let outcome):
                // A payment the service took (not a replay, not a refusal) is answered with its id.
                let took = [.captured, .refunded, .declined, .failed].contains(outcome.state)
                answers[client] = ServiceAnswer(state: outcome.state, reason: outcome.reason, paymentID: took ? names[payment]?.paymentID : nil)
            case .schedule(let step, let delayMillis):
                later(after: delayMillis) { .step(step) }
            case .send(let call):
                let payment = call.request.payment.id, attempt = call.attempt
                let request = names[payment]!
                let sent = GatewayPayment(
                    idempotencyKey: OwnServiceDriver.gatewayKey(request, call.key == call.request.payment.key ? nil : call.key), paymentID: request.paymentID, userID: request.userID, kind: request.kind,
                    amountMinor: request.amountMinor, currency: request.currency, refundOf: request.refundOf)
                let gateway = environment.gateway
                work.append {
                    do {
                        _ = try await gateway.process(sent)
                        return .answer(payment: payment, attempt: attempt, .approved)
                    } catch GatewayError.declined {
                        return .answer(payment: payment, attempt: attempt, .declined)
                    } catch GatewayError.timedOut {
                        return .timeout(payment: payment, attempt: attempt)
                    }
                }
            case .reconcile(let request, let at):
                let key = OwnServiceDriver.gatewayKey(names[request.payment.id]!, nil)
                let gateway = environment.gateway
                later(after: max(0, at - now)) { .reconciled(payment: request.payment.id, acted: try await gateway.hasActed(idempotencyKey: key)) }
            }
        }
        wakeAll()
    }

    /// Queues the input `make` gives after `millis` of virtual time.
    private func later(after millis: Int64, _ make: @escaping @Sendable () async throws -> ServiceInput) {
        let clock = environment.clock
        work.append {
            try await clock.sleep(for: .milliseconds(millis))
            return try await make()
        }
    }

    /// The gateway's key of a client's payment (`gw-k0004`), or of a call under another key (`gw-k0004-4294967294`).
    static func gatewayKey(_ request: ServiceSimulation.ServiceRequest, _ other: UInt32?) -> String {
        "gw-" + request.idempotencyKey + (other.map { "-\($0)" } ?? "")
    }

    private func wakeAll() {
        let waiting = idle
        idle.removeAll()
        for client in waiting { client.resume() }
    }
}
