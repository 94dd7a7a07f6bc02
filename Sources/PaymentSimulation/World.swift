@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
import PlantedFlaws
import SimulatedDisk
import PaymentsCore

/// What a sans-I/O world counts besides its steps and crashes.
@_spi(Tooling) public struct PaymentWorldCounts: WorldCounts, Hashable {
    /// Faults injected, by kind.
    package var faults: [FaultKind: Int] = [:]
    /// Service (re)starts that recovered from the store.
    package var recoveries = 0
    /// Final states of the payments, from the store.
    package var states: [PaymentState: Int] = [:]

    @_spi(Tooling) public init() {}
}

/// What one sans-I/O world found.
@_spi(Tooling) public typealias PaymentWorldReport = WorldReport<WorldConfiguration, PaymentWorldCounts>

/// One simulated world: clients, a network, the payment service over a durable store, and the
/// gateway with its ground truth, all driven by one seeded, single-threaded event scheduler on a
/// virtual clock. Every interleaving, fault and crash is a function of the configuration, and the
/// invariants are checked after every step and at the end.
///
/// One concern per file: scheduling (`WorldScheduling.swift`), the network and the faults
/// (`WorldNetwork.swift`), the service's crashes and restarts (`WorldService.swift`), the
/// end-of-world checks (`WorldChecks.swift`) and the watched payment's history (`WorldHistory.swift`).
final class World {
    static let clientTimeoutMillis: Int64 = 2_500
    static let horizonSlackMillis: Int64 = 5_000
    static let stallMillis: Int64 = 600_000
    static let maximumCrashes = 50

    // A world runs on one thread, so its state skips the runtime's exclusivity checks (a fifth of
    // its time went to them).
    let configuration: WorldConfiguration
    @exclusivity(unchecked) var report: PaymentWorldReport
    let submissions: [Submission]
    /// The one seeded stream every concern draws from, in the order the events run.
    @exclusivity(unchecked) var random: SplitMix64
    let horizon: Int64

    // Scheduling.
    @exclusivity(unchecked) var events: EventSchedule

    // The network, the clients and the faults.
    @exclusivity(unchecked) var clients: [Client]
    @exclusivity(unchecked) var faults: FaultTally
    let gateway: SimulatedGateway

    // The service, its crashes and restarts.
    @exclusivity(unchecked) var store: any DurablePaymentStore
    /// The service's machine when the world runs on a simulated disk (`store` is then its store).
    let host: DiskHost?
    var observed: ObservedStore!
    let resumed: Bool
    @exclusivity(unchecked) var live = LiveService()
    @exclusivity(unchecked) var effects: [ServiceEffect] = []
    /// The flaws planted in the service, from outside it.
    @exclusivity(unchecked) var plants: ReferenceServicePlants
    /// Told each step's number before it runs (a `--db` world: to stamp its durable writes).
    let stamp: ((Int) -> Void)?

    // The checks.
    let checksReference: Bool
    @exclusivity(unchecked) var attempts: AttemptTable
    /// Users with a payment in progress at a crash: the batch processor's outcomes are not theirs.
    @exclusivity(unchecked) var touchedUsers: Set<UInt32> = []

    // The history.
    @exclusivity(unchecked) var history: History

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
        plants = try configuration.plants()
        history = History(watched: payment)
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
        report = PaymentWorldReport(configuration: configuration)
        submissions = Workload.make(configuration)
        gateway = try SimulatedGateway(truth: truth)
        random = SplitMix64(seed: configuration.seed ^ 0x0DD5_EED5_0F_C0DE)
        events = EventSchedule(start: startAt)
        horizon = startAt + (submissions.last?.at ?? 0) + Self.horizonSlackMillis
        clients = Array(repeating: Client(), count: submissions.count)
        faults = FaultTally()
        attempts = AttemptTable(payments: submissions.count, attemptsPerPayment: ServiceConfiguration().policy.maxAttempts)
        observed = ObservedStore(
            inner: store, checksRollback: configuration.faults[.storage] > 0 || (host != nil && configuration.faults[.full] > 0),
            report: { [unowned self] invariant, message, payment in self.fail(invariant, message, payment: payment) },
            gatewayActions: { [unowned self] payment in self.gateway.actions[payment] ?? 0 })
        attach(store)
        var keys = Set<UInt64>()
        for submission in submissions where !keys.insert(SimulatedGateway.slot(submission.request.user, submission.request.payment.key)).inserted {
            faults.count(.reuse)
        }
        faults.outages = windows(covering: configuration.faults[.outage])
        faults.storms = windows(covering: configuration.faults[.storm])
    }

    /// The virtual clock: milliseconds, from the world's start.
    var now: Int64 { events.now }
    var start: Int64 { events.start }

    /// Runs the world to its end, or to its first violation; or only its first `steps` steps, as a
    /// run that was killed then (no end-of-world checks).
    func run(trace: ((Int) -> Void)? = nil, stoppingAfter steps: Int? = nil) -> PaymentWorldReport {
        let last = steps ?? .max
        // Submissions are in time order: each schedules the next, which keeps the queue short.
        if let first = submissions.first { schedule(.submit(0), at: start + first.at) }
        schedule(.restart, at: start)
        // A cancelled event (a timeout that an answer made moot) is skipped by `next()`.
        while report.violation == nil, report.steps < last, let event = events.next() {
            report.steps += 1
            stamp?(report.steps)
            trace?(report.steps)
            if history.isKept { remember(event) }
            if now > horizon + Self.stallMillis {
                fail(.stalled, "the world is still running \(Self.stallMillis / 1000) s after its last fault", payment: nil)
                break
            }
            dispatch(event)
        }
        if report.violation == nil, steps == nil { checkEnd() }
        report.faults = faults.byKind
        return report
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
            guard incarnation < 0 || incarnation == live.incarnation else { return }
            deliver(input, event)
        case .gateway(let call, let incarnation):
            serve(call, from: incarnation)
        case .reconcile(let request, let incarnation):
            guard incarnation == live.incarnation, live.service != nil else { return }
            let acted = gateway.hasActed(user: request.user, key: request.payment.key)
            deliver(.reconciled(payment: request.payment.id, acted: acted), event)
        case .reply(let client, let payment, let outcome):
            receive(outcome, of: payment, by: client)
        case .restart:
            restart()
        }
    }

    /// Records the world's first broken invariant, with the watched payment's history.
    func fail(_ invariant: Invariant, _ message: String, payment: UInt32?) {
        guard report.violation == nil else { return }
        let history = payment != nil && payment == self.history.watched ? historyLines() : []
        report.violation = Violation(
            invariant, message, subjects: payment.map { [String($0)] } ?? [], step: report.steps, time: .milliseconds(now - start), history: history)
    }
}

extension Violation {
    /// The payment a sans-I/O world's violation concerns: its one subject, the payment's number.
    package var payment: UInt32? { subjects.first.flatMap { UInt32($0) } }
}
