@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws
@_spi(Tooling) @testable import PaymentSimulation
import PaymentsCore
import Testing
import TestSupport

/// Worlds whose store is `SQLitePaymentStore` on a simulated disk: each storage fault strikes, the
/// service restarts from what is durable, and no invariant breaks; a store defect is caught.
@Suite("Worlds on a simulated disk", .budget(minutes: 3))
struct DiskWorldTests {
    @Test("each storage fault strikes and the service keeps every invariant", arguments: [
        (FaultKind.power, "power=0.05"),
        (.torn, "torn=0.05"),
        (.fsync, "fsync=0.05"),
        (.full, "full=0.1"),
        (.read, "read=0.05"),
    ])
    func storageFault(kind: FaultKind, mix: String) throws {
        // Given small worlds on the simulated disk with one storage fault, crashes and lost answers
        let faults = try FaultMix(parsing: mix + ",lost=0.2,timeout=0.1,crash=0.01")
        for seed in 0..<3 as Range<UInt64> {
            let configuration = WorldConfiguration(seed: seed, payments: 80, faults: faults, store: .disk)
            // When each runs
            let sut = try PaymentWorldSimulator.run(configuration)
            // Then the fault struck, the service restarted after it, and every invariant held
            #expect(sut.faults[kind, default: 0] > 0, "seed \(seed)")
            #expect(sut.violation == nil, "seed \(seed): \(String(describing: sut.violation))")
            if kind != .full { #expect(sut.recoveries > 0, "seed \(seed)") }
        }
    }

    @Test("power lost at every sync point of a small world: the service restarts from the disk and keeps every invariant", arguments: [0, 500, 1000])
    func powerLossAtEverySync(keptPermille: Int) throws {
        // Given a small world on the disk without other faults, and the syncs it makes
        let configuration = WorldConfiguration(seed: 21, payments: 12, clients: 3, faults: FaultMix(), store: .disk)
        let clean = try DiskHost(seed: 1, plants: try ReferenceServicePlants([]))
        let before = clean.disk.statistics.syncs
        #expect(try World(configuration: configuration, store: clean.store, truth: nil, resumed: false, host: clean).run().violation == nil)
        let syncs = clean.disk.statistics.syncs - before
        #expect(syncs >= 12)
        for point in 0..<syncs {
            // When the power is lost at that sync, a share of the writes not synced surviving
            let host = try DiskHost(seed: UInt64(point), plants: try ReferenceServicePlants([]))
            host.disk.cutPowerAtSync(after: point, keptPermille: keptPermille)
            let sut = try World(configuration: configuration, store: host.store, truth: nil, resumed: false, host: host).run()
            // Then the machine went down there (and at the end, to read what is durable), came up, and every invariant held
            #expect(host.disk.statistics.powerLosses == 2, "sync \(point)")
            #expect(sut.crashes == 1 && sut.recoveries >= 1, "sync \(point)")
            #expect(sut.violation == nil, "sync \(point): \(String(describing: sut.violation))")
        }
    }

    @Test("synchronous = NORMAL is caught: a power loss takes back a step the service already acted on")
    func synchronousNormal() async throws {
        // Given worlds on the disk whose store syncs commits only at checkpoints, with power losses
        let make: @Sendable (UInt64) -> WorldConfiguration = {
            WorldConfiguration(seed: $0, payments: 300, faults: try? FaultMix(parsing: "power=0.02"), flaws: [.sqliteSynchronousNormal], store: .disk)
        }
        // When they run, and the same worlds with the store's own FULL
        let reports = try PaymentWorldSimulator.swarm(seeds: 0, count: 30, jobs: 2, store: .init(kind: .disk), make: make)
        let full = try PaymentWorldSimulator.swarm(seeds: 0, count: reports.count, jobs: 2, store: .init(kind: .disk)) { seed in
            var configuration = make(seed)
            configuration.flaws = []
            return configuration
        }
        // Then one breaks an invariant under NORMAL, and none under FULL
        #expect(reports.last?.violation != nil)
        #expect(full.count == reports.count && full.allSatisfy { $0.violation == nil })
    }

    @Test("a world on the disk is deterministic, and its report names the store")
    func deterministic() throws {
        // Given a world on the disk with the seed's own mix of faults, the disk's among them
        let configuration = WorldConfiguration(seed: 0xD15C, payments: 120, store: .disk)
        // When it runs twice
        let first = try PaymentWorldSimulator.run(configuration), second = try PaymentWorldSimulator.run(configuration)
        // Then both runs are the same, and its report keeps the disk as its store
        #expect(first == second)
        #expect(first.configuration.store == .disk)
        #expect(configuration.faults.permille.keys.contains { $0.isDisk })
    }

    @Test("a mixed swarm runs every 8th seed on the disk; the memory worlds keep their mix")
    func mixedShare() {
        // Given the seeds 0..<16 in a mixed swarm
        let stores = (0..<16 as Range<UInt64>).map { StoreKind.mixed.world(seed: $0) }
        // Then two run on the disk, and a memory world's mix has no disk fault, as before
        #expect(stores.filter { $0 == .disk }.count == 2)
        #expect(FaultMix.swarm(seed: 5) == FaultMix(permille: FaultMix.swarm(seed: 5, disk: true).permille.filter { !$0.key.isDisk }))
        #expect(!FaultMix.swarm(seed: 5).permille.keys.contains { $0.isDisk })
    }

    @Test("the store defect 'a refund not counted against its charge, in SQLite only' is caught by a mixed swarm within 30 seeds")
    func uncountedRefund() async throws {
        // Given CI's swarm (a share of worlds on the disk) with the defect planted
        let make: @Sendable (UInt64) -> WorldConfiguration = {
            WorldConfiguration(seed: $0, payments: 300, flaws: [.sqliteUncountedRefund], store: StoreKind.mixed.world(seed: $0))
        }
        // When 30 seeds run
        let reports = try PaymentWorldSimulator.swarm(seeds: 0, count: 30, jobs: 2, store: .init(kind: .mixed), make: make)
        // Then a world on the disk caught it, reading the charge back from the store
        let violation = try #require(reports.last?.violation)
        #expect(violation.invariant == .chargeMiscounted)
        #expect(reports.last?.configuration.store == .disk)
        #expect(reports.last?.configuration.flaws == [.sqliteUncountedRefund])
    }
}
