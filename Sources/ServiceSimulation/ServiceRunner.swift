import Foundation
import PaymentsCore
@_spi(Tooling) import SimulationCore

/// The clients' payments of a world, drawn from its seed: users, charges and refunds of earlier charges,
/// each payment given to one client, and (with faults) some also sent by a second client at the same time.
struct ClientWorkload: Sendable {
    struct Payment: Sendable {
        /// The request of try 0; a refund's `refundOf` is its charge's idempotency key.
        var base: ServiceRequest
        /// Sent by a second client too, at the same time.
        var duplicated: Bool
        /// For a refund, the payment index of its charge.
        var charge: Int?
    }

    let payments: [Payment]
    /// The payments each client sends, in order (a duplicated payment appears in two clients' lists).
    let perClient: [[Int]]

    init(configuration: ServiceWorldConfiguration) {
        var generator = SplitMix64(seed: configuration.seed ^ 0x10AD)
        let users = max(1, configuration.payments / 8)
        let currencies: [Currency] = [.usd, .eur, .jpy]
        var payments: [Payment] = []
        var chargesOf: [Int: [Int]] = [:]
        for index in 0..<configuration.payments {
            let user = Int(generator.next() % UInt64(users))
            let id = String(format: "p%04d", index)
            let userID = String(format: "u%03d", user)
            var request: ServiceRequest
            var chargeIndex: Int?
            if let charges = chargesOf[user], generator.next() % 5 == 0 {
                chargeIndex = charges[Int(generator.next() % UInt64(charges.count))]
                let charge = payments[chargeIndex!].base
                request = ServiceRequest(
                    paymentID: id, idempotencyKey: "k" + id.dropFirst(), userID: userID, kind: .refund,
                    amountMinor: 1 + Int64(generator.next() % UInt64(charge.amountMinor)), currency: charge.currency,
                    refundOf: charge.idempotencyKey
                )
            } else {
                request = ServiceRequest(
                    paymentID: id, idempotencyKey: "k" + id.dropFirst(), userID: userID, kind: .charge,
                    amountMinor: 100 + Int64(generator.next() % 49_900), currency: currencies[Int(generator.next() % 3)]
                )
                chargesOf[user, default: []].append(index)
            }
            payments.append(Payment(base: request, duplicated: configuration.faults && generator.next() % 10 == 0, charge: chargeIndex))
        }
        var perClient = [[Int]](repeating: [], count: max(1, configuration.clients))
        for (index, payment) in payments.enumerated() {
            perClient[index % perClient.count].append(index)
            if payment.duplicated, perClient.count > 1 { perClient[(index + 1) % perClient.count].append(index) }
        }
        self.payments = payments
        self.perClient = perClient
    }

    /// The request of `index`'s try `attempt` from its `copy` (0: the first client, 1: the duplicate); a
    /// refund names its charge `chargeName` when given.
    func request(_ index: Int, attempt: Int, copy: Int, chargeName: String? = nil) -> ServiceRequest {
        var request = payments[index].base
        request.paymentID += copy == 0 ? "-\(attempt)" : "-d\(attempt)"
        if let chargeName { request.refundOf = chargeName }
        return request
    }
}

/// Drives one world: starts the service, runs the clients in a task group, crashes and restarts the
/// service, then cuts the power once more, restarts it and checks what it says against what the gateway did.
final class ServiceRunner<Service: ServiceUnderSimulation>: CrashableWorld, @unchecked Sendable {
    let state: WorldState
    let workload: ClientWorkload
    private let environment: ServiceEnvironment
    /// The environment's store, as the world's (which a power loss reaches).
    private let store: DurableRecords
    private var service: Service?
    private var restarting = false
    private(set) var crashes = 0
    private(set) var requests = 0
    private var record = ClientRecord()
    private var startFailure: String?
    /// Starts in a row that a storage fault failed.
    private var failedStarts = 0
    /// The clients are done: no more crashes, the final restart reads the ledger.
    private var finishing = false
    /// Refunds' clients waiting until their charge is answered or given up.
    private var waitingForCharge: [Int: [CheckedContinuation<Void, Never>]] = [:]

    /// The invariants checked at each step that can break them.
    private var steps: StepInvariants

    init(state: WorldState, workload: ClientWorkload) {
        self.state = state
        self.workload = workload
        steps = StepInvariants(workload: workload)
        store = DurableRecords(world: state)
        environment = ServiceEnvironment(
            gateway: VirtualGateway(world: state), store: store,
            disk: ServiceDisk(seed: state.configuration.seed, faults: state.configuration.faults), clock: state.clock)
        state.onAct = { [unowned self] act in
            let index = record.issued[act.payment.paymentID]
            steps.acted(act.payment, index: index, answers: index.flatMap { record.answers[$0] } ?? [], at: act.at)
        }
    }

    /// Runs the world; the first broken invariant, or nil.
    func run() async throws -> Violation? {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for client in workload.perClient.indices {
                    group.addTask { try await self.runClient(client) }
                }
                try await group.waitForAll()
            }
            finishing = true
            state.crash()
            store.losePower()
            environment.disk.crash(powerLoss: true)
            service = nil
            state.log("final restart after a power loss, to read the ledger from what is on the disk")
            let (live, incarnation) = try await liveService()
            let ledger: [ServiceLedgerLine]
            do { ledger = try await Incarnation.$current.withValue(incarnation) { try await live.ledger() } } catch {
                return Violation(.ledgerThrew, "\(error)")
            }
            return steps.first ?? ServiceInvariants(workload: workload, record: record, acts: state.acts, tries: state.configuration.clientTries)
                .firstViolation(ledger: ledger)
        } catch is StartFailed {
            return Violation(.startThrew, startFailure ?? "?")
        }
    }

    func crash(powerLoss: Bool) {
        guard !finishing, service != nil || restarting else { return }
        state.crash()
        if powerLoss { store.losePower() }
        environment.disk.crash(powerLoss: powerLoss)
        service = nil
        crashes += 1
    }

    private func runClient(_ client: Int) async throws {
        for index in workload.perClient[client] {
            try await send(index, copy: index % workload.perClient.count == client ? 0 : 1, client: client)
        }
    }

    /// Sends payment `index` until an answer comes back from a live service, or the tries run out.
    private func send(_ index: Int, copy: Int, client: Int) async throws {
        let chargeName = await nameOfCharge(refundedBy: index)
        for attempt in 1...state.configuration.clientTries {
            let request = workload.request(index, attempt: attempt, copy: copy, chargeName: chargeName)
            requests += 1
            record.issued[request.paymentID] = index
            environment.disk.armFaults()
            let (live, incarnation) = try await liveService()
            state.log("client \(client) sends \(request)")
            do {
                let answer = try await Incarnation.$current.withValue(incarnation) { try await live.submit(request) }
                if incarnation == state.incarnation {
                    record.answers[index, default: []].append(answer)
                    if record.answeredIDs[index] == nil { record.answeredIDs[index] = answer.paymentID }
                    settled(index)
                    steps.answered(answer, index: index, at: state.clock.now.offset)
                    state.log("client \(client) gets \(request.paymentID): \(answer)")
                    return
                }
                state.log("client \(client) lost the answer to \(request.paymentID): the service crashed")
            } catch {
                state.log("client \(client): \(request.paymentID) failed: \(error)")
            }
            try await state.clock.sleep(for: .milliseconds(10 << min(attempt, 6)))
        }
        record.unanswered.append(index)
        settled(index)
    }

    /// Payment `index` was answered or given up: the refunds waiting to name it go on.
    private func settled(_ index: Int) {
        for waiter in waitingForCharge.removeValue(forKey: index) ?? [] { waiter.resume() }
    }

    /// How a refund's client names its charge: as a client can only refund a charge it has heard of, it waits
    /// until the charge was answered (or its client gave up), then names it by the id the service answered
    /// with, or else by its idempotency key. Every try and copy of the refund uses the name of its first send.
    /// (A client's payments go in order and refunds follow their charges, so no two clients wait on each other.)
    private func nameOfCharge(refundedBy index: Int) async -> String? {
        guard let charge = workload.payments[index].charge else { return nil }
        if let name = record.chargeNames[index] { return name }
        if record.answers[charge] == nil, !record.unanswered.contains(charge) {
            await withCheckedContinuation { waitingForCharge[charge, default: []].append($0) }
        }
        if let name = record.chargeNames[index] { return name }
        let name = record.answeredIDs[charge] ?? workload.payments[charge].base.idempotencyKey
        record.chargeNames[index] = name
        state.log("payment \(workload.payments[index].base.paymentID) names its charge \(name)")
        return name
    }

    /// The live service and its incarnation; after a crash the first caller restarts it, the others wait.
    private func liveService() async throws -> (Service, Int) {
        while true {
            if let service { return (service, state.incarnation) }
            if restarting {
                try await state.clock.sleep(for: .milliseconds(1))
                continue
            }
            restarting = true
            defer { restarting = false }
            let incarnation = state.incarnation
            let struck = environment.disk.faultsStruck
            do {
                let started = try await Incarnation.$current.withValue(incarnation) { try await Service.start(in: environment) }
                if incarnation == state.incarnation {
                    failedStarts = 0
                    service = started
                    state.log("service started (incarnation \(incarnation))")
                }
            } catch is ServiceCrashed {
                continue
            } catch where failedStarts < 8 && (error is DurableRecordsError || environment.disk.faultsStruck > struck) {
                // A start a storage fault failed is started again, as a supervisor restarts a process that exited.
                failedStarts += 1
                state.log("service start failed: \(error); starting it again")
                continue
            } catch {
                startFailure = "\(error)"
                throw StartFailed()
            }
        }
    }
}

private struct StartFailed: Error {}

/// What the clients sent and heard.
struct ClientRecord {
    /// Every payment id sent, to the payment it belongs to.
    var issued: [String: Int] = [:]
    /// The answers each payment got (one a client that sent it, more when duplicated).
    var answers: [Int: [ServiceAnswer]] = [:]
    /// Payments whose client gave up.
    var unanswered: [Int] = []
    /// The first id the service answered each payment with.
    var answeredIDs: [Int: String] = [:]
    /// The name each refund gave its charge.
    var chargeNames: [Int: String] = [:]
}
