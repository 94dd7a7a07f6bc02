import PaymentService
import SimulatedDisk
import PaymentsCore

/// What one world did.
public struct WorldReport: Hashable, Sendable {
    /// The world.
    package var configuration: WorldConfiguration
    /// Events it ran.
    package var steps = 0
    /// Faults injected, by kind.
    package var faults: [FaultKind: Int] = [:]
    /// Service crashes.
    package var crashes = 0
    /// Service (re)starts that recovered from the store.
    package var recoveries = 0
    /// Final states of the payments, from the store.
    package var states: [PaymentState: Int] = [:]
    /// The first broken invariant, nil when every one held.
    package var violation: Violation?
}

/// One simulated world: clients, a network, the payment service over a durable store, and the
/// gateway with its ground truth, all driven by one seeded, single-threaded event scheduler on a
/// virtual clock. Every interleaving, fault and crash is a function of the configuration, and the
/// invariants are checked after every step and at the end.
final class World {
    private enum Event {
        case submit(Int)
        case clientTimeout(Int, generation: Int)
        case replay(Int)
        case service(ServiceInput, incarnation: Int)
        case gateway(GatewayCall, incarnation: Int)
        case reconcile(ServiceRequest, incarnation: Int)
        case reply(client: Int, payment: UInt32, PaymentOutcome)
        case restart
    }

    private struct Client {
        var answer: PaymentOutcome?
        var generation = 0
        var tries = 0
        /// Where the client's pending timeout waits, so an answer can cancel it.
        var timeoutSlot: Int?
    }

    private struct Trace {
        var step: Int
        var time: Int64
        /// nil: the service crashed.
        var event: Event?
    }

    static let clientTimeoutMillis: Int64 = 2_500
    static let horizonSlackMillis: Int64 = 5_000
    static let stallMillis: Int64 = 600_000
    static let maximumCrashes = 50

    // A world runs on one thread, so its state skips the runtime's exclusivity checks (a fifth of
    // its time went to them).
    let configuration: WorldConfiguration
    @exclusivity(unchecked) private(set) var report: WorldReport
    private let submissions: [Submission]
    @exclusivity(unchecked) private var store: any DurablePaymentStore
    /// The service's machine when the world runs on a simulated disk (`store` is then its store).
    private let host: DiskHost?
    private var observed: ObservedStore!
    private let gateway: SimulatedGateway
    private let checksReference: Bool
    private let resumed: Bool
    @exclusivity(unchecked) private var random: SplitMix64
    /// The scheduler: each entry is ordered by the event's time (milliseconds from `start`) above
    /// 20 random bits drawn from the seed, which order events of equal time; the event itself
    /// waits in `pending[slot]`.
    @exclusivity(unchecked) private var queue = EventQueue(farAhead: 500 << 20)
    @exclusivity(unchecked) private var pending: [Event?] = []
    @exclusivity(unchecked) private var freeSlots: [Int] = []
    @exclusivity(unchecked) private var now: Int64
    private let start: Int64
    private let horizon: Int64
    @exclusivity(unchecked) private var service: PaymentService<ObservedStore, SplitMix64>?
    @exclusivity(unchecked) private var incarnation = 0
    @exclusivity(unchecked) private var pausedUntil: Int64 = 0
    @exclusivity(unchecked) private var clients: [Client]
    private var outages: [Range<Int64>] = []
    private var storms: [Range<Int64>] = []
    @exclusivity(unchecked) private var attempts: AttemptTable
    @exclusivity(unchecked) private var touchedUsers: Set<UInt32> = []
    @exclusivity(unchecked) private var effects: [ServiceEffect] = []
    @exclusivity(unchecked) private var injected = [Int](repeating: 0, count: FaultKind.allCases.count)
    /// The payment whose history is kept (nil: none, the fast way); see `PaymentWorldSimulator.run`.
    private let watched: UInt32?
    @exclusivity(unchecked) private var history: [Trace] = []
    /// Told each step's number before it runs (a `--db` world: to stamp its durable writes).
    private let stamp: ((Int) -> Void)?

    /// A world over `store`; `truth` keeps the gateway's actions in a file; the events of the
    /// `watching` payment are kept, for the history of a violation. A `resumed` world
    /// continues a store and truth file that a killed process left: its clock starts after the
    /// store's latest instant, and its outcomes are not compared with the batch processor's (the
    /// answers the service saw before the kill are gone). `stamp` hears each step's number before
    /// the step runs.
    init(
        configuration: WorldConfiguration, store: any DurablePaymentStore, truth: TruthFile?, resumed: Bool, watching payment: UInt32? = nil,
        stamp: ((Int) -> Void)? = nil, host: DiskHost? = nil
    ) throws(SimulationError) {
        self.configuration = configuration
        watched = payment
        self.store = store
        self.host = host
        self.resumed = resumed
        self.stamp = stamp
        checksReference = !resumed
        var startAt: Int64 = 0
        if resumed {
            let latest: Int64
            do { latest = try store.latestInstant() } catch { throw .unusableFile("the store cannot be read: \(error)") }
            guard (0..<StoreAudit.latestInstant).contains(latest) else {
                throw .unusableFile("the store's latest instant is \(latest), not in 0...\(StoreAudit.latestInstant)")
            }
            startAt = latest + 1
        }
        report = WorldReport(configuration: configuration)
        submissions = Workload.make(configuration)
        gateway = try SimulatedGateway(truth: truth)
        random = SplitMix64(seed: configuration.seed ^ 0x0DD5_EED5_0F_C0DE)
        start = startAt
        now = startAt
        horizon = startAt + (submissions.last?.at ?? 0) + Self.horizonSlackMillis
        clients = Array(repeating: Client(), count: submissions.count)
        attempts = AttemptTable(payments: submissions.count, attemptsPerPayment: ServiceConfiguration().policy.maxAttempts)
        observed = ObservedStore(
            inner: store, checksRollback: configuration.faults[.storage] > 0 || (host != nil && configuration.faults[.full] > 0),
            report: { [unowned self] invariant, message, payment in self.fail(invariant, message, payment: payment) },
            gatewayActions: { [unowned self] payment in self.gateway.actions[payment] ?? 0 })
        attach(store)
        var keys = Set<UInt64>()
        for submission in submissions where !keys.insert(SimulatedGateway.slot(submission.request.user, submission.request.payment.key)).inserted {
            injected[FaultKind.reuse.ordinal] += 1
        }
        outages = windows(covering: configuration.faults[.outage])
        storms = windows(covering: configuration.faults[.storm])
    }

    private var faultsActive: Bool { now < horizon }

    /// Makes `store` the service's, with the faults its transactions meet.
    private func attach(_ store: any DurablePaymentStore) {
        self.store = store
        observed?.inner = store
        store.failpoint = { [unowned self] write in
            if let disk = self.host?.disk, self.report.crashes < Self.maximumCrashes { self.armDisk(disk) }
            guard self.inject(.storage) else { return }
            throw StoreFailure("injected: the \(write.rawValue) transaction failed")
        }
    }

    /// The disk's faults for the transaction under way: at its sync, power is lost (the last write
    /// perhaps torn) or the sync fails; or its writes meet a full disk; or the next read fails.
    private func armDisk(_ disk: SimulatedDisk) {
        if inject(.power) {
            disk.cutPowerAtSync(keptPermille: random.below(1001))
        } else if inject(.torn) {
            disk.cutPowerAtSync(keptPermille: random.below(1001), torn: true)
        } else if inject(.fsync) {
            disk.failSyncs(1)
        } else if inject(.full) {
            disk.fill(writes: 1 + random.below(3))
        } else if inject(.read) {
            disk.failReads(1)
        }
    }

    /// Whether a fault of `kind` strikes now (at its rate, before the horizon); counts it if so.
    private func inject(_ kind: FaultKind) -> Bool {
        guard faultsActive, random.permille(configuration.faults[kind]) else { return false }
        injected[kind.ordinal] += 1
        return true
    }

    /// Windows covering about `permille` thousandths of the time before the horizon.
    private func windows(covering permille: Int) -> [Range<Int64>] {
        guard permille > 0 else { return [] }
        let span = horizon - start
        var covered: Int64 = 0, result: [Range<Int64>] = []
        while covered * 1000 < span * Int64(permille) {
            let length = Int64(200 + random.below(1_300))
            let from = start + Int64(random.below(Int(span)))
            result.append(from..<(from + length))
            covered += length
        }
        return result
    }

    /// Runs the world to its end, or to its first violation; or only its first `steps` steps, as a
    /// run that was killed then (no end-of-world checks).
    func run(trace: ((Int) -> Void)? = nil, stoppingAfter steps: Int? = nil) -> WorldReport {
        let last = steps ?? .max
        // Submissions are in time order: each schedules the next, which keeps the queue short.
        if let first = submissions.first { schedule(.submit(0), at: start + first.at) }
        schedule(.restart, at: start)
        while report.violation == nil, report.steps < last, let next = queue.popMin() {
            now = start + Int64(next.order >> 20)
            let slot = next.slot
            freeSlots.append(slot)
            guard let event = pending[slot] else { continue }  // cancelled: a timeout that an answer made moot
            pending[slot] = nil
            report.steps += 1
            stamp?(report.steps)
            trace?(report.steps)
            if watched != nil { remember(event) }
            if now > horizon + Self.stallMillis {
                fail(.stalled, "the world is still running \(Self.stallMillis / 1000) s after its last fault", payment: nil)
                break
            }
            dispatch(event)
        }
        if report.violation == nil, steps == nil { checkEnd() }
        for kind in FaultKind.allCases where injected[kind.ordinal] > 0 { report.faults[kind] = injected[kind.ordinal] }
        return report
    }

    @discardableResult
    private func schedule(_ event: Event, at time: Int64) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            pending[slot] = event
        } else {
            slot = pending.count
            pending.append(event)
        }
        queue.insert(EventQueue.Entry(order: UInt64(time - start) << 20 | random.next() >> 44, slot: slot), now: UInt64(now - start) << 20)
        return slot
    }

    /// Runs `event` again when the service's stall ends; a timeout keeps its slot up to date, so an
    /// answer can still cancel it.
    private func postpone(_ event: Event) {
        let slot = schedule(event, at: pausedUntil)
        if case .service(.timeout(let payment, let attempt), _) = event { attempts[payment, attempt].timeoutSlot = slot }
    }

    /// Drops the event waiting in `slot`; its slot is freed when its time comes.
    private func cancel(_ slot: Int?) {
        if let slot { pending[slot] = nil }
    }

    /// A network delay: 1–20 ms, and up to 300 ms more for a share of messages under `reorder`.
    private func delay() -> Int64 {
        var millis = Int64(1 + random.below(20))
        if inject(.reorder) {
            millis += Int64(random.below(300))
        }
        return millis
    }

    /// Whether a message is lost under `retry`.
    private func dropped() -> Bool {
        inject(.retry)
    }

    private func dispatch(_ event: Event) {
        switch event {
        case .submit(let index):
            if index + 1 < submissions.count { schedule(.submit(index + 1), at: start + submissions[index + 1].at) }
            send(index)
            if inject(.duplicate) { send(index) }
            armTimeout(index)
        case .clientTimeout(let index, let generation):
            guard clients[index].generation == generation, clients[index].answer == nil else { return }
            send(index)
            armTimeout(index)
        case .replay(let index):
            send(index)
        case .service(let input, let incarnation):
            guard incarnation < 0 || incarnation == self.incarnation else { return }
            deliver(input, event)
        case .gateway(let call, let incarnation):
            serve(call, from: incarnation)
        case .reconcile(let request, let incarnation):
            guard incarnation == self.incarnation, service != nil else { return }
            let acted = gateway.hasActed(user: request.user, key: request.payment.key)
            deliver(.reconciled(payment: request.payment.id, acted: acted), event)
        case .reply(let client, let payment, let outcome):
            receive(outcome, of: payment, by: client)
        case .restart:
            restart()
        }
    }

    private func send(_ index: Int) {
        clients[index].tries += 1
        guard !dropped() else { return }
        schedule(.service(.request(submissions[index].request, client: index), incarnation: -1), at: now + delay())
    }

    private func armTimeout(_ index: Int) {
        clients[index].generation += 1
        let backoff = Self.clientTimeoutMillis << Int64(min(clients[index].tries - 1, 4))
        clients[index].timeoutSlot = schedule(.clientTimeout(index, generation: clients[index].generation), at: now + backoff)
    }

    private func receive(_ outcome: PaymentOutcome, of payment: UInt32, by client: Int) {
        guard let first = clients[client].answer else {
            clients[client].answer = outcome
            clients[client].generation += 1
            cancel(clients[client].timeoutSlot)
            clients[client].timeoutSlot = nil
            if inject(.duplicate) { schedule(.replay(client), at: now + delay() + 100) }
            return
        }
        if first != outcome {
            fail(.replayDiffers, "payment \(payment) was answered twice, differently: \(first.differences(from: outcome, "first", "then"))", payment: payment)
        }
    }

    /// Hands `input` to the live service, unless it is down, paused, or crashes right now.
    private func deliver(_ input: ServiceInput, _ event: Event) {
        guard let service else { return }
        if now < pausedUntil {
            postpone(event)
            return
        }
        if report.crashes < Self.maximumCrashes, inject(.crash) {
            crash()
            return
        }
        if host != nil, report.crashes < Self.maximumCrashes, inject(.power) {
            crash(keptPermille: random.below(1001))
            return
        }
        if inject(.clock) {
            pausedUntil = now + Int64(300 + random.below(2_700))
            postpone(event)
            return
        }
        switch input {
        case .answer(let payment, let attempt, let response):
            if attempts[payment, attempt].decided == nil {
                attempts[payment, attempt].decided = response
                cancel(attempts[payment, attempt].timeoutSlot)  // the service would ignore it now
            }
        case .timeout(let payment, let attempt):
            if attempts[payment, attempt].decided == nil {
                attempts[payment, attempt].decided = attempts[payment, attempt].gatewayActed == true ? .lost : .timedOut
            }
        default: break
        }
        effects.removeAll(keepingCapacity: true)
        service.handle(input, now: now, effects: &effects)
        apply(effects)
        // A dead store (power lost at a sync, a failed sync or read) is never retried: restart.
        if let host, host.hasFailed, self.service != nil { crash(keptPermille: random.below(1001)) }
    }

    private func apply(_ effects: [ServiceEffect]) {
        for effect in effects {
            switch effect {
            case .reply(let client, let payment, let outcome):
                if !dropped() { schedule(.reply(client: client, payment: payment, outcome), at: now + delay()) }
            case .schedule(let step, let delayMillis):
                schedule(.service(.step(step), incarnation: incarnation), at: now + delayMillis)
            case .send(let call):
                guard !attempts[call.request.payment.id, call.attempt].sent else {
                    return fail(.attemptSentTwice, "attempt \(call.attempt) of payment \(call.request.payment.id) went to the gateway twice",
                                payment: call.request.payment.id)
                }
                attempts[call.request.payment.id, call.attempt].sent = true
                schedule(.gateway(call, incarnation: incarnation), at: now + delay())
                attempts[call.request.payment.id, call.attempt].timeoutSlot =
                    schedule(.service(.timeout(payment: call.request.payment.id, attempt: call.attempt), incarnation: incarnation), at: call.deadline)
            case .reconcile(let request, let at):
                schedule(.reconcile(request, incarnation: incarnation), at: max(now, at))
            }
        }
    }

    private func serve(_ call: GatewayCall, from incarnation: Int) {
        let payment = call.request.payment.id
        let down = faultsActive && outages.contains { $0.contains(now) }
        let declining = faultsActive && storms.contains { $0.contains(now) }
        if down { injected[FaultKind.outage.ordinal] += 1 }
        if declining { injected[FaultKind.storm.ordinal] += 1 }
        let (response, acted) = gateway.serve(call, now: now, down: down, declining: declining)
        if !down, !declining, now < call.deadline {
            switch response {
            case .timedOut: injected[FaultKind.timeout.ordinal] += 1
            case .lost: injected[FaultKind.lost.ordinal] += 1
            case .declined: injected[FaultKind.decline.ordinal] += 1
            case .approved: break
            }
        }
        attempts[payment, call.attempt].gatewayActed = acted
        if acted, gateway.actions[payment, default: 0] > 1 {
            return fail(.chargedTwice, "the gateway moved money \(gateway.actions[payment, default: 0]) times for payment \(payment)", payment: payment)
        }
        guard response == .approved || response == .declined else { return }
        var arrival = now + delay()
        if inject(.late) {
            arrival = max(arrival, call.deadline + 1 + Int64(random.below(500)))
        }
        schedule(.service(.answer(payment: payment, attempt: call.attempt, response), incarnation: incarnation), at: arrival)
    }

    /// The service crashes; on a simulated disk its machine goes down, keeping `keptPermille` of
    /// the unsynced writes (1000: a killed process).
    private func crash(keptPermille: Int = 1000) {
        if watched != nil { remember(nil) }
        report.crashes += 1
        service = nil
        incarnation += 1
        if let unfinished = try? store.unfinished() { for record in unfinished { touchedUsers.insert(record.request.user) } }
        host?.goDown(keptPermille: keptPermille)
        schedule(.restart, at: now + Int64(50 + random.below(450)))
    }

    private func restart() {
        if let host {
            if host.hasFailed && !host.disk.isDown { host.goDown(keptPermille: random.below(1001)) }  // it died recovering
            if host.disk.isDown {
                do { try host.comeUp() } catch {
                    schedule(.restart, at: now + 100)
                    return
                }
                attach(host.store)
                // A dead store could not say what was in progress when it died: the new one does.
                if let unfinished = try? store.unfinished() { for record in unfinished { touchedUsers.insert(record.request.user) } }
            }
        }
        let service = PaymentService(
            store: observed, configuration: ServiceConfiguration(flaws: configuration.flaws),
            random: SplitMix64(seed: configuration.seed &+ UInt64(incarnation) &* 0x9E37_79B9_7F4A_7C15))
        effects.removeAll(keepingCapacity: true)
        do {
            try service.recover(now: now, effects: &effects)
        } catch {
            schedule(.restart, at: now + 100)
            return
        }
        if incarnation > 0 || resumed { report.recoveries += 1 }
        self.service = service
        apply(effects)
    }

    func fail(_ invariant: Invariant, _ message: String, payment: UInt32?) {
        guard report.violation == nil else { return }
        let history = payment != nil && payment == watched ? historyLines() : []
        report.violation = Violation(invariant: invariant, message: message, step: report.steps, timeMillis: now - start, payment: payment, history: history)
    }

    // MARK: - End of the world

    private func checkEnd() {
        if let host {  // the end is read from what is durable, without the faults still armed
            host.goDown(keptPermille: 1000)
            do { try host.comeUp() } catch { return fail(.noFinalState, "the store cannot be opened at the end of the world: \(error)", payment: nil) }
            attach(host.store)
        }
        guard let records = try? store.records(), let ledger = try? store.ledger() else {
            return fail(.noFinalState, "the store cannot be read at the end of the world", payment: nil)
        }
        var outcomes = [PaymentOutcome?](repeating: nil, count: submissions.count)  // payment ids are 0..<count
        for record in records {
            let id = record.request.payment.id
            guard outcomes.indices.contains(Int(id)) else {
                return fail(.noFinalState, "the store holds payment \(id), which no client of this world submitted", payment: nil)
            }
            outcomes[Int(id)] = record.outcome
            if let state = record.outcome?.state { report.states[state, default: 0] += 1 }
        }
        if let unfinished = records.first(where: { $0.outcome == nil }) {
            let id = unfinished.request.payment.id
            return fail(.noFinalState, "payment \(id) is still in progress at the end of the world", payment: id)
        }
        checkMoney(records, ledger)
        if report.violation == nil { checkUsers(records, ledger) }
        if report.violation == nil { checkAnswers(outcomes) }
    }

    /// Every payment has a final state in the store, and its client got exactly that.
    private func checkAnswers(_ outcomes: [PaymentOutcome?]) {
        for (index, client) in clients.enumerated() {
            let id = submissions[index].request.payment.id
            guard let outcome = outcomes[index] else { return fail(.noFinalState, "payment \(id) has no final state in the store", payment: id) }
            guard let answer = client.answer else { return fail(.noFinalState, "payment \(id) got no final answer", payment: id) }
            if answer != outcome {
                return fail(.answerDiffersFromStore, "payment \(id): \(answer.differences(from: outcome, "answered", "the store holds"))", payment: id)
            }
        }
    }

    private func checkMoney(_ records: [PaymentRecord], _ ledger: [LedgerRow]) {
        for record in records {
            let id = record.request.payment.id
            let booked = record.outcome?.state == .captured || record.outcome?.state == .refunded
            let moved = (gateway.actions[id] ?? 0) > 0
            if booked && !moved {
                return fail(.bookedWithoutMoney, "payment \(id) is \(record.outcome.map(\.state.rawValue) ?? "unfinished") but the gateway never acted", payment: id)
            }
            if moved && !booked {
                return fail(.moneyWithoutBooking, "the gateway acted for payment \(id), which the store holds as \(record.outcome.map(Self.describe) ?? "unfinished")", payment: id)
            }
        }
        var books: [UInt32: [Currency: SimulatedGateway.Moved]] = [:]
        for row in ledger {
            books[row.user, default: [:]][row.entry.currency] = SimulatedGateway.Moved(capturedMinor: row.entry.capturedMinor, refundedMinor: row.entry.refundedMinor)
        }
        for user in Set(books.keys).union(gateway.moved.keys).sorted() {
            for currency in Currency.allCases {
                let booked = books[user]?[currency] ?? .init(), moved = gateway.moved[user]?[currency] ?? .init()
                if booked != moved {
                    return fail(.ledgerDiffers, """
                        user \(user) \(currency.code): the ledger holds captured \(booked.capturedMinor) refunded \(booked.refundedMinor), \
                        the gateway moved \(moved.capturedMinor) and \(moved.refundedMinor)
                        """, payment: nil)
                }
            }
        }
    }

    /// SPEC §4's invariants per user, and the batch processor's outcomes for the same answers.
    private func checkUsers(_ records: [PaymentRecord], _ ledger: [LedgerRow]) {
        // Stable: each user's records stay in admission order.
        // The indices are sorted, not the records: a record is large, and a sort moves its elements.
        let byUser = records.indices.sorted { (records[$0].request.user, $0) < (records[$1].request.user, $1) }.map { records[$0] }
        var ledgers: [UInt32: UserLedger] = [:]
        for row in ledger {
            ledgers[row.user, default: UserLedger()].capture(row.entry.capturedMinor, in: row.entry.currency)
            ledgers[row.user, default: UserLedger()].refund(row.entry.refundedMinor, in: row.entry.currency)
        }
        var first = byUser.startIndex
        while first < byUser.endIndex {
            let user = byUser[first].request.user
            let end = byUser[first...].firstIndex { $0.request.user != user } ?? byUser.endIndex
            let records = byUser[first..<end]
            first = end
            let replay = ReplayGateway(user: user, records: records, attempts: attempts, gateway: gateway)
            let problems = PaymentInvariants.violations(
                payments: records.map { ($0.request.payment, $0.outcome) }, ledger: ledgers[user] ?? UserLedger(), gateway: replay)
            if let problem = problems.first { return fail(.specInvariant, "user \(user): \(problem)", payment: nil) }
            guard checksReference, !touchedUsers.contains(user) else { continue }
            var reference = PaymentProcessor(
                policy: ServiceConfiguration().policy, gateway: replay, random: SplitMix64(seed: 0), clock: ManualClock())
            for record in records {
                guard let actual = record.outcome else { continue }  // checkEnd stopped at an unfinished payment already
                let expected = reference.process(record.request.payment)
                if expected.state != actual.state || expected.reason != actual.reason || expected.attempts != actual.attempts {
                    return fail(.differsFromReference, """
                        payment \(record.request.payment.id) for the same gateway answers: \
                        \(actual.differences(from: expected, "the service ended", "the batch processor gives", fields: [.state, .reason, .attempts]))
                        """, payment: record.request.payment.id)
                }
            }
        }
    }

    // MARK: - History

    /// Keeps `event` (nil: a crash) when it concerns the watched payment or the whole service.
    private func remember(_ event: Event?) {
        switch event {
        case .service(_, let incarnation)?, .reconcile(_, let incarnation)?:
            guard incarnation < 0 || incarnation == self.incarnation else { return }  // meant for a service that crashed
        default: break
        }
        guard event.map({ Self.payment(of: $0, submissions) ?? watched }) ?? watched == watched else { return }
        history.append(Trace(step: report.steps, time: now, event: event))
    }

    private func historyLines() -> [String] {
        history.suffix(24).map { "step \($0.step) at \($0.time - start) ms: " + ($0.event.map(Self.describe) ?? "the service crashes") }
    }

    private static func payment(of event: Event, _ submissions: [Submission]) -> UInt32? {
        switch event {
        case .submit(let index), .clientTimeout(let index, _), .replay(let index): submissions[index].request.payment.id
        case .service(let input, _):
            switch input {
            case .request(let request, _): request.payment.id
            case .step(.admit(let request)): request.payment.id
            case .step(.writeIntent(let payment, _)), .step(.call(let payment, _)), .step(.settle(let payment, _)),
                 .answer(let payment, _, _), .timeout(let payment, _), .reconciled(let payment, _): payment
            }
        case .gateway(let call, _): call.request.payment.id
        case .reconcile(let request, _): request.payment.id
        case .reply(_, let payment, _): payment
        case .restart: nil
        }
    }

    private static func describe(_ event: Event) -> String {
        switch event {
        case .submit(let index): "client sends request \(index)"
        case .clientTimeout(let index, _): "client times out on request \(index) and retries"
        case .replay(let index): "client replays request \(index)"
        case .service(let input, _):
            switch input {
            case .request(_, let client): "service receives the request (client \(client))"
            case .step(.admit): "service admits"
            case .step(.writeIntent(_, let attempt)): "service writes the intent of attempt \(attempt)"
            case .step(.call(_, let attempt)): "service sends attempt \(attempt)"
            case .step(.settle(_, let outcome)): "service settles: \(describe(outcome))"
            case .answer(_, let attempt, let response): "service gets answer \(response.token) to attempt \(attempt)"
            case .timeout(_, let attempt): "attempt \(attempt) times out"
            case .reconciled(_, let acted): "gateway says it \(acted ? "acted" : "did not act")"
            }
        case .gateway(let call, _): "gateway receives attempt \(call.attempt) (key \(call.key))"
        case .reconcile: "service asks the gateway whether it acted"
        case .reply(let client, _, let outcome): "client \(client) gets \(describe(outcome))"
        case .restart: "service restarts"
        }
    }

    static func describe(_ outcome: PaymentOutcome) -> String {
        outcome.state.rawValue + (outcome.reason.map { "(\($0.rawValue))" } ?? "") + " after \(outcome.attempts) attempts"
    }
}
