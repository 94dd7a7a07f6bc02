import Foundation
@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService

/// Runs simulated worlds: one, a swarm of seeds on several cores, or the shrinking of a failing one.
@_spi(Tooling) public enum PaymentWorldSimulator {
    /// Where a world's durable store lives.
    @_spi(Tooling) public struct StoreChoice: Sendable {
        /// The kind of store.
        package var kind: StoreKind
        /// A SQLite file that outlives the run (with the gateway's truth beside it, `FILE.gateway`);
        /// nil: a fresh store per world.
        package var database: String?
        /// Continue the store and truth file a killed run left.
        package var resume: Bool

        /// A store choice; a `database` is SQLite's.
        @_spi(Tooling) public init(kind: StoreKind = .memory, database: String? = nil, resume: Bool = false) {
            self.kind = kind
            self.database = database
            self.resume = resume
        }
    }

    /// Runs one world; `trace` hears each step's number. A world keeps no history as it runs: when
    /// it breaks an invariant, the same world runs again (it is deterministic) keeping the events of
    /// the payment concerned, for the violation's history (not for a `--db` world: its store has moved on).
    @_spi(Tooling) public static func run(_ configuration: WorldConfiguration, store: StoreChoice = StoreChoice(), trace: ((Int) -> Void)? = nil) throws(SimulationError) -> PaymentWorldReport {
        let report = try run(configuration, store: store, watching: nil, trace: trace)
        guard store.database == nil, let payment = report.violation?.payment else { return report }
        let again = try run(configuration, store: store, watching: payment, trace: nil)
        return again.violation.map { _ in again } ?? report
    }

    private static func run(
        _ configuration: WorldConfiguration, store: StoreChoice, watching: UInt32?, trace: ((Int) -> Void)?
    ) throws(SimulationError) -> PaymentWorldReport {
        if configuration.store == .disk {
            guard configuration.kills.isEmpty, store.database == nil else { throw .invalidConfiguration("a world on the simulated disk keeps no database file and replays no kills") }
            let host = try DiskHost(seed: configuration.seed ^ 0xD15C_0000_D15C, plants: configuration.plants())
            return try World(configuration: configuration, store: host.store, truth: nil, resumed: false, watching: watching, host: host).run(trace: trace)
        }
        switch (store.kind, store.database) {
        case (.memory, _), (.disk, _), (.mixed, _):
            guard configuration.kills.isEmpty else { throw .invalidConfiguration("a history of kills replays SQLite runs: the store must be sqlite") }
            return try World(configuration: configuration, store: MemoryDurableStore(), truth: nil, resumed: false, watching: watching).run(trace: trace)
        case (.sqlite, let path?):
            guard configuration.kills.isEmpty else { throw .invalidConfiguration("a history of kills replays on a store of its own, not on a database file") }
            return try runOnFile(configuration, path: path, resume: store.resume, trace: trace)
        case (.sqlite, nil):
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("simharness-\(UUID().uuidString)")
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw .unusableFile("cannot create \(directory.path): \(error)")
            }
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("payments.sqlite").path
            let database: SQLitePaymentStore
            do { database = try SQLitePaymentStore(path: path) } catch { throw .unusableFile("\(directory.path): \(error)") }
            guard !configuration.kills.isEmpty else {
                return try World(configuration: configuration, store: database, truth: nil, resumed: false, watching: watching).run(trace: trace)
            }
            // The history: each earlier run stopped where it was killed, then the last one to its end.
            for (run, step) in configuration.kills.enumerated() {
                let truth = try TruthFile(path: path + ".gateway")
                truth.run = run
                _ = try World(configuration: configuration, store: database, truth: truth, resumed: run > 0, stamp: { truth.step = $0 })
                    .run(stoppingAfter: step)
            }
            let truth = try TruthFile(path: path + ".gateway")
            truth.run = configuration.kills.count
            return try World(configuration: configuration, store: database, truth: truth, resumed: true, watching: watching, stamp: { truth.step = $0 })
                .run(trace: trace)
        }
    }

    /// Runs `configuration`'s world over the store in `path` and the truth file beside it: a new one,
    /// or (`resume`) the one a killed run left, once it is shown to be this world's (its notes) and
    /// sound (`StoreAudit`). The store records the step after which the previous run last wrote, so
    /// the report's configuration carries the whole history (`kills`).
    private static func runOnFile(
        _ configuration: WorldConfiguration, path: String, resume: Bool, trace: ((Int) -> Void)?
    ) throws(SimulationError) -> PaymentWorldReport {
        let truthPath = path + ".gateway"
        let exists = FileManager.default.fileExists(atPath: path)
        if exists && !resume { throw .invalidConfiguration("\(path) exists: resume it, or give a new path") }
        if !exists && resume { throw .invalidConfiguration("cannot resume \(path): it does not exist") }
        if resume && !FileManager.default.fileExists(atPath: truthPath) { throw .invalidConfiguration("cannot resume \(path): \(truthPath) does not exist") }
        var configuration = configuration
        let database: SQLitePaymentStore
        var record = WorldRecord(configuration)
        do {
            database = try SQLitePaymentStore(path: path, create: !resume)
            if resume { record = try WorldRecord(notes: database.notes(), path: path) }
        } catch let error as SimulationError {
            throw error
        } catch {
            throw .unusableFile("\(path): \(error)")
        }
        let truth = try TruthFile(path: truthPath)
        if resume {
            let differences = record.differences(from: configuration)
            guard differences.isEmpty else { throw .invalidConfiguration("\(path) holds another world: " + differences.joined(separator: "; ")) }
            let actions = try truth.load()
            let submissions = Workload.make(configuration)
            let previous = record.kills.count  // the run that was killed
            do {
                try StoreAudit.check(
                    database.contents(), actions, submissions: submissions, configuration: configuration, runs: previous + 1, store: path, truth: truthPath)
                let lastWrite = StoreMark.step(of: previous, in: try database.lastMark())
                record.kills.append(actions.filter { $0.run == previous }.map(\.step).reduce(lastWrite, max))
            } catch let error as SimulationError {
                throw error
            } catch {
                throw .unusableFile("\(path): \(error)")
            }
        }
        do { try database.setNotes(record.notes) } catch { throw .unusableFile("\(path): cannot write the world's notes: \(error)") }
        configuration.kills = record.kills
        let run = record.kills.count
        truth.run = run
        let report = try World(configuration: configuration, store: database, truth: truth, resumed: resume, stamp: { step in
            database.mark = StoreMark.encode(run: run, step: step)
            truth.step = step
        }).run(trace: trace)
        if let failure = truth.failure { throw failure }
        return report
    }

    /// Runs the `count` worlds of seeds `first`, `first + 1`, … (wrapping), `jobs` at a time, and returns
    /// their reports in seed order, up to and including the first that broke an invariant. `proceed` is
    /// asked before each world starts; once it says no, no later world is reported.
    package static func swarm(
        seeds first: UInt64, count: Int, jobs: Int, store: StoreChoice,
        make: @escaping @Sendable (UInt64) -> WorldConfiguration, proceed: @escaping @Sendable () -> Bool = { true }
    ) throws(SimulationError) -> [PaymentWorldReport] {
        try Swarm(from: first, count: count, tasks: jobs).run({ seed throws(SimulationError) in try run(make(seed), store: store) }, into: [], fold: { reports, report in
            reports.append(report)
            return report.violation == nil
        }, proceed: proceed)
    }

    /// Makes a failing world smaller (fewer payments, fewer clients, fewer and rarer faults) while
    /// it still breaks the same invariant; at most `budget` worlds are tried.
    package static func shrink(_ failing: PaymentWorldReport, store: StoreChoice, budget: Int = 400) -> PaymentWorldReport {
        SansIOWorlds(store: store).shrink(failing, budget: budget)
    }
}

/// The sans-I/O worlds on one kind of store, as the shrinker runs them.
struct SansIOWorlds: WorldRunner {
    let store: PaymentWorldSimulator.StoreChoice

    func run(_ configuration: WorldConfiguration) -> PaymentWorldReport? { try? PaymentWorldSimulator.run(configuration, store: store) }



    /// Half the payments, an eighth fewer, one client, half the clients, each fault kind left out, each halved.
    func smaller(than configuration: WorldConfiguration) -> [WorldConfiguration] {
        var candidates: [WorldConfiguration] = []
        func with(_ change: (inout WorldConfiguration) -> Void) {
            var candidate = configuration
            change(&candidate)
            if candidate != configuration { candidates.append(candidate) }
        }
        with { $0.payments = max(1, $0.payments / 2) }
        with { $0.payments = max(1, $0.payments - max(1, $0.payments / 8)) }
        with { $0.clients = 1 }
        with { $0.clients = max(1, $0.clients / 2) }
        for kind in configuration.faults.permille.keys.sorted() {
            with { $0.faults = FaultMix(permille: $0.faults.permille.filter { $0.key != kind }) }
        }
        for kind in configuration.faults.permille.keys.sorted() {
            with { $0.faults = FaultMix(permille: $0.faults.permille.mapValues { $0 }.merging([kind: max(1, configuration.faults[kind] / 2)]) { $1 }) }
        }
        return candidates
    }
}
