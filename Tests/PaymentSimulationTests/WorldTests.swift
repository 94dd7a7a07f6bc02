@_spi(Tooling) import SimulationCore
import Foundation
@_spi(Tooling) import PaymentService
@_spi(Tooling) @testable import PaymentSimulation
import PaymentsCore
import TestSupport
import Testing

@Suite("Simulated worlds: deterministic, and quiet when the service is right", .budget(minutes: 2))
struct WorldTests {
    @Test("the same configuration gives the same world, step for step")
    func deterministic() throws {
        // Given a world with every fault on
        let configuration = WorldConfiguration(seed: 0xFEED, payments: 300, clients: 6, faults: .all)
        // When it runs twice
        let first = try PaymentWorldSimulator.run(configuration), second = try PaymentWorldSimulator.run(configuration)
        // Then both runs are the same, and it did meet faults
        #expect(first == second)
        #expect(first.violation == nil)
        #expect(first.crashes > 0 && first.faults[.storage, default: 0] > 0 && first.faults[.late, default: 0] > 0)
    }

    @Test("a swarm's results do not depend on the number of jobs, worlds on simulated disks side by side too", arguments: [StoreKind.memory, .mixed])
    func jobsDoNotMatter(store: StoreKind) async throws {
        // Given a swarm of 24 seeds
        let make: @Sendable (UInt64) -> WorldConfiguration = { WorldConfiguration(seed: $0, payments: 150, store: store.world(seed: $0)) }
        // When it runs on one job and on three
        let one = try PaymentWorldSimulator.swarm(seeds: 100, count: 24, jobs: 1, store: .init(kind: store), make: make)
        let three = try PaymentWorldSimulator.swarm(seeds: 100, count: 24, jobs: 3, store: .init(kind: store), make: make)
        // Then the reports are the same, in seed order
        #expect(one == three)
        #expect(one.map(\.configuration.seed) == Array(100..<124))
    }

    @Test("the correct service breaks no invariant", arguments: [StoreKind.memory, .sqlite])
    func quiet(store: StoreKind) async throws {
        // Given swarms of worlds over each store
        let count = store == .memory ? 40 : 3
        // When they run
        let reports = try PaymentWorldSimulator.swarm(
            seeds: 7_000, count: count, jobs: 2, store: .init(kind: store), make: { WorldConfiguration(seed: $0, payments: 200) })
        // Then no world found a violation, and together they injected every kind of fault
        #expect(reports.count == count)
        #expect(reports.allSatisfy { $0.violation == nil })
        if store == .memory { #expect(Set(reports.flatMap(\.faults.keys)) == Set(FaultKind.allCases.filter { !$0.isDisk })) }
    }

    @Test("a swarm stops starting worlds when told to")
    func proceed() async throws {
        // Given a swarm whose budget allows no world
        // When it runs
        let reports = try PaymentWorldSimulator.swarm(seeds: 0, count: 50, jobs: 2, store: .init(), make: { WorldConfiguration(seed: $0) }, proceed: { false })
        // Then none ran
        #expect(reports.isEmpty)
    }

    @Test("a resumed store continues: every payment is answered again from the store, nothing moves twice")
    func resume() throws {
        // Given a world run to its end over a SQLite file
        let scratch = try ScratchDirectory(prefix: "world-tests")
        let path = scratch.file("resume.sqlite")
        let configuration = WorldConfiguration(seed: 3, payments: 120, faults: try FaultMix(parsing: "timeout=0.2,lost=0.2,crash=0.01"))
        let first = try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path))
        // When it is resumed on the same file
        let second = try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path, resume: true))
        // Then both hold every invariant and agree on every payment's state
        #expect(first.violation == nil && second.violation == nil)
        #expect(first.states == second.states)
        #expect(second.recoveries >= 1)
        // And the second run's history names where the first last wrote, and replaying that history gives the same run
        let kills = second.configuration.kills
        #expect(kills.count == 1 && (1...first.steps).contains(kills[0]), "\(kills)")
        #expect(try PaymentWorldSimulator.run(second.configuration, store: .init(kind: .sqlite)) == second)
        // And the file cannot be started afresh, nor a missing one resumed
        #expect(throws: SimulationError.invalidConfiguration("\(path) exists: resume it, or give a new path")) {
            try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path))
        }
        #expect(throws: SimulationError.invalidConfiguration("cannot resume \(path).missing: it does not exist")) {
            try PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: path + ".missing", resume: true))
        }
    }

    @Test("a broken gateway truth file is refused, naming its line")
    func brokenTruth() throws {
        // Given a truth file with a bad line
        let scratch = try ScratchDirectory(prefix: "world-tests")
        let path = scratch.file("truth")
        try "1 2 3 0 100 0 0 7\nnot an action\n".write(toFile: path, atomically: true, encoding: .utf8)
        // When a gateway loads it
        // Then it is refused
        #expect(throws: SimulationError.unusableFile(
            "\(path):2: not a gateway action (8 numbers: payment user key kind amount currency run step): 'not an action'")) {
            try SimulatedGateway(truth: TruthFile(path: path))
        }
    }
}
