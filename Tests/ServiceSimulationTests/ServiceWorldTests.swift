@_spi(Tooling) import SimulationCore
import Foundation
import GRDB
import PaymentsCore
@_spi(Tooling) import PlantedFlaws
@_spi(Tooling) import ServiceFixtures
@_spi(Tooling) import ServiceSimulation
import Testing

/// A service that tells every client captured and never calls the gateway.
private struct ClaimsCaptured: ServiceUnderSimulation {
    static func start(in environment: ServiceEnvironment) async throws -> ClaimsCaptured { ClaimsCaptured() }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer { ServiceAnswer(state: .captured) }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// A service whose start always fails.
private struct FailingStart: ServiceUnderSimulation {
    struct Broken: Error, CustomStringConvertible { var description: String { "the database is locked" } }
    static func start(in environment: ServiceEnvironment) async throws -> FailingStart { throw Broken() }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer { ServiceAnswer(state: .failed) }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// A service that answers every request failed and cannot read its ledger.
private struct LedgerFails: ServiceUnderSimulation {
    struct Unreadable: Error, CustomStringConvertible { var description: String { "the ledger table is corrupt" } }
    static func start(in environment: ServiceEnvironment) async throws -> LedgerFails { LedgerFails() }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer { ServiceAnswer(state: .failed) }
    func ledger() async throws -> [ServiceLedgerLine] { throw Unreadable() }
}

/// A service that never answers: each submit waits on a continuation nobody resumes.
private struct NeverAnswers: ServiceUnderSimulation {
    static func start(in environment: ServiceEnvironment) async throws -> NeverAnswers { NeverAnswers() }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        return ServiceAnswer(state: .captured)
    }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// A thread of its own, started outside every world, that runs the jobs of the tasks preferring it (an
/// SDK's callback thread; not the cooperative pool, which the tests waiting on their worlds may fill).
private final class OutsideThread: TaskExecutor, @unchecked Sendable {
    static let shared = OutsideThread()
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private let handed = DispatchSemaphore(value: 0)

    private init() {
        Thread { [self] in
            while true {
                handed.wait()
                lock.withLock { jobs.removeFirst() }.runSynchronously(on: asUnownedTaskExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.withLock { jobs.append(job) }
        handed.signal()
    }
}

/// A service that reads its records from a task of that thread's, as an SDK's callback would.
private struct StoreReadFromOutside: ServiceUnderSimulation {
    let store: any RecordStore
    static func start(in environment: ServiceEnvironment) async throws -> StoreReadFromOutside { StoreReadFromOutside(store: environment.store) }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        let store = store
        try await Task(executorPreference: OutsideThread.shared) { _ = try await store.read("payment/" + request.paymentID) }.value
        return ServiceAnswer(state: .failed)
    }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// A service whose database, opened by its start on the world's thread, is written from a task of that thread's.
private struct DiskWrittenFromOutside: ServiceUnderSimulation {
    let database: DatabaseQueue
    static func start(in environment: ServiceEnvironment) async throws -> DiskWrittenFromOutside {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL") }
        let database = try DatabaseQueue(path: environment.disk.uri(of: "outside.sqlite"), configuration: configuration)
        try database.inDatabase { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS answered (payment TEXT)") }
        return DiskWrittenFromOutside(database: database)
    }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        let database = database
        try await Task(executorPreference: OutsideThread.shared) {
            try database.inDatabase { db in try db.execute(sql: "INSERT INTO answered VALUES (?)", arguments: [request.paymentID]) }
        }.value
        return ServiceAnswer(state: .failed)
    }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// The first failing seed of `seeds` for `Service`, with its report.
private func firstFailure<Service: ServiceUnderSimulation>(
    _ service: Service.Type, seeds: Range<UInt64>, schedule: ScheduleStrategy, payments: Int = 40, clients: Int = 6
) -> ServiceWorldReport? {
    seeds.lazy
        .map { ServiceWorld.run(service, ServiceWorldConfiguration(seed: $0, payments: payments, clients: clients, schedule: schedule)) }
        .first { $0.violation != nil }
}

@Suite("Worlds of a user's async service")
struct ServiceWorldTests {
    @Test("the correct service holds in every world, with crashes, faults and duplicates", arguments: [
        ScheduleStrategy.random, .pct(changePoints: 3),
    ])
    func correctServiceHolds(schedule: ScheduleStrategy) {
        // Given the correct service; When 60 seeded worlds run
        let failure = firstFailure(LedgerService<Correct>.self, seeds: 0..<60, schedule: schedule)

        // Then none breaks an invariant
        #expect(failure?.violation == nil, "\(failure.map { "seed \($0.configuration.seed): \($0.violation!)\n" + $0.history.suffix(20).joined(separator: "\n") } ?? "")")
    }

    @Test("the correct service on SQLite (GRDB, on the simulated disk) holds, with power losses and the disk's faults", arguments: [
        ScheduleStrategy.random, .pct(changePoints: 3),
    ])
    func correctServiceOnSQLiteHolds(schedule: ScheduleStrategy) {
        // Given the correct service keeping its records in SQLite; When 60 seeded worlds run
        let failure = firstFailure(LedgerService<CorrectOnSQLite>.self, seeds: 0..<60, schedule: schedule)

        // Then none breaks an invariant
        #expect(failure?.violation == nil, "\(failure.map { "seed \($0.configuration.seed): \($0.violation!)\n" + $0.history.suffix(20).joined(separator: "\n") } ?? "")")
    }

    @Test("an answer that contradicts the gateway is caught at its step, with its virtual time, before the end's checks")
    func stepInvariantsCatchAtTheStep() throws {
        // Given a service that answers captured without ever charging
        let configuration = ServiceWorldConfiguration(seed: 3, payments: 5, clients: 2, faults: false, crashes: 0)

        // When its world runs
        let report = ServiceWorld.run(ClaimsCaptured.self, configuration)

        // Then the first answer is the violation, timed, not the end's `ledger-differs`
        let violation = try #require(report.violation)
        #expect(violation.invariant == .answeredWithoutMoney)
        #expect(violation.detail.contains(" ms of virtual time)"))
    }

    @Test("each planted bug is caught within 200 seeds, as an invariant it breaks", arguments: [
        (PlantedFlaw.reentrancy, [Invariant.ledgerDiffers]),
        // Two concurrent submissions of one key: both charge (or refund), or one is told declined while the other charged.
        (.checkThenAct, [.chargedTwice, .moneyButAnsweredFailed]),
        (.intentAfterCall, [.chargedTwice]),
        (.timeoutIsFailure, [.moneyButAnsweredFailed]),
        (.retryWithoutKey, [.chargedTwice]),
        (.answerBeforeSync, [.ledgerDiffers]),
        // A record a failed sync left in the cache: acted on or answered from, then lost at a power loss.
        (.unsyncedRecovery, [.ledgerDiffers, .chargedTwice]),
        // SQLite's commits never synced: a power loss takes acknowledged payments (or intents) away.
        (.sqliteSynchronousOff, [.ledgerDiffers, .chargedTwice]),
    ])
    func plantedBugsAreCaught(flaw: PlantedFlaw, kinds: [Invariant]) throws {
        // Given the service with one bug planted
        // When seeds run until one fails
        let report = try #require(Self.failure(flaw, seeds: 0..<200, schedule: .random))

        // Then the violation names what broke
        let violation = try #require(report.violation)
        #expect(kinds.contains(violation.invariant), "\(violation)")
    }

    @Test("a failing world runs again the same: the same trace hash, steps, violation and history")
    func failingWorldReproduces() throws {
        // Given the first failing seed of a planted bug
        let failing = try #require(Self.failure(.intentAfterCall, seeds: 0..<200, schedule: .random))

        // When its configuration runs again, twice
        let again = ServiceWorld.run(LedgerService<IntentAfterCall>.self, failing.configuration)
        let thrice = ServiceWorld.run(LedgerService<IntentAfterCall>.self, failing.configuration)

        // Then everything is the same
        #expect(again.traceHash == failing.traceHash)
        #expect(again.steps == failing.steps)
        #expect(again.violation == failing.violation)
        #expect(again.history == failing.history)
        #expect(thrice.traceHash == failing.traceHash)
    }

    @Test("the events around a violation are those of its payments, with the crashes and restarts")
    func eventsAroundAViolation() throws {
        // Given a world that charged a payment twice
        let failing = try #require(Self.failure(.retryWithoutKey, seeds: 0..<200, schedule: .random))
        let payment = try #require(failing.violation?.subjects.first)

        // When its events around the violation are taken
        let sut = failing.eventsAround()

        // Then they follow that payment (its requests and its gateway calls) and nothing else but crashes and restarts
        #expect(sut.contains { $0.contains("gateway") && $0.contains("gw-\(payment)") })
        #expect(sut.contains { $0.contains("sends \(payment)-") })
        #expect(sut.allSatisfy { $0.contains(payment) || $0.contains(failing.violation!.subjects[1]) || $0.contains("crash")
            || $0.contains("power loss") || $0.contains("started") })
        #expect(sut.count < failing.history.count)
    }

    @Test("a service whose start throws is a violation naming the error")
    func startThrows() {
        let report = ServiceWorld.run(FailingStart.self, ServiceWorldConfiguration(seed: 1, payments: 5, clients: 2))
        #expect(report.violation == Violation(.startThrew, "the database is locked"))
    }

    @Test("a service whose ledger cannot be read is a violation naming the error")
    func ledgerThrows() {
        let report = ServiceWorld.run(LedgerFails.self, ServiceWorldConfiguration(seed: 2, payments: 5, clients: 2, faults: false, crashes: 0))
        #expect(report.violation == Violation(.ledgerThrew, "the ledger table is corrupt"))
    }

    /// A world of `Service` (whose tasks call the world's environment from a thread started outside it), with
    /// what its violation says. The world waits up to 10 s of real time for that call (ThreadSanitizer's load
    /// delayed it past the default 0.1 s, and the world read as deadlocked); it comes at once when nothing slows it.
    private static func calledFromOutside<Service: ServiceUnderSimulation>(_ service: Service.Type, seed: UInt64) -> (invariant: Invariant?, detail: String) {
        _ = OutsideThread.shared
        var configuration = ServiceWorldConfiguration(seed: seed, payments: 5, clients: 2, crashes: 0)
        configuration.escapeGrace = .seconds(10)
        let report = ServiceWorld.run(Service.self, configuration)
        return (report.violation?.invariant, report.violation?.detail ?? "no violation")
    }

    @Test("the store called from a thread no world owns refuses the call, and every world fails naming the call and the thread", arguments: 0..<4)
    func storeCalledFromOutside(seed: UInt64) {
        // Given a service that reads the store from a task of a thread started outside the world
        // When its world runs
        let violation = Self.calledFromOutside(StoreReadFromOutside.self, seed: seed)

        // Then the world fails as escaped, naming the store's call and that it was refused; the harness is intact
        #expect(violation.invariant == .nondeterminismEscaped)
        #expect(violation.detail.contains("the store's read of payment/"), "\(violation.detail)")
        #expect(violation.detail.contains(" called from "))
        #expect(violation.detail.contains("answer its own tasks only; that call failed"))
    }

    @Test("the SQLite disk called from a thread no world owns refuses the call, and every world fails naming it", arguments: 0..<4)
    func diskCalledFromOutside(seed: UInt64) {
        // Given a service whose database, opened on the world's thread, is written from a task of another thread
        // When its world runs
        let violation = Self.calledFromOutside(DiskWrittenFromOutside.self, seed: seed)

        // Then the world fails as escaped, naming the disk's call on its file and the thread
        #expect(violation.invariant == .nondeterminismEscaped)
        #expect(violation.detail.contains("the disk's "), "\(violation.detail)")
        #expect(violation.detail.contains("outside.sqlite"), "\(violation.detail)")
        #expect(violation.detail.contains(" called from "))
    }

    @Test("a service that never answers is a deadlock, reported, not a hang")
    func neverAnswers() {
        let report = ServiceWorld.run(NeverAnswers.self, ServiceWorldConfiguration(seed: 1, payments: 5, clients: 2, crashes: 0))
        #expect(report.violation?.invariant == .deadlock)
    }

    private static func failure(_ flaw: PlantedFlaw?, seeds: Range<UInt64>, schedule: ScheduleStrategy) -> ServiceWorldReport? {
        switch flaw {
        case nil: firstFailure(LedgerService<Correct>.self, seeds: seeds, schedule: schedule)
        case .reentrancy: firstFailure(LedgerService<Reentrancy>.self, seeds: seeds, schedule: schedule)
        case .checkThenAct: firstFailure(LedgerService<CheckThenAct>.self, seeds: seeds, schedule: schedule)
        case .intentAfterCall: firstFailure(LedgerService<IntentAfterCall>.self, seeds: seeds, schedule: schedule)
        case .timeoutIsFailure: firstFailure(LedgerService<TimeoutIsFailure>.self, seeds: seeds, schedule: schedule)
        case .retryWithoutKey: firstFailure(LedgerService<RetryWithoutKey>.self, seeds: seeds, schedule: schedule)
        case .answerBeforeSync: firstFailure(LedgerService<AnswerBeforeSync>.self, seeds: seeds, schedule: schedule)
        case .unsyncedRecovery: firstFailure(LedgerService<UnsyncedRecovery>.self, seeds: seeds, schedule: schedule)
        case .sqliteSynchronousOff: firstFailure(LedgerService<SynchronousOff>.self, seeds: seeds, schedule: schedule)
        case .some: nil  // not the ledger service's: the caller's #require fails
        }
    }
}
