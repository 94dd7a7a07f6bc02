@_spi(Tooling) import SimulationCore
import Foundation
@_spi(Tooling) @testable import ServiceSimulation
import Synchronization
import Testing

/// A world runner that fails seed 3, with the trace hash `hashes` gives each of its runs in turn.
private final class ScriptedWorlds: Sendable {
    private let runs = Mutex(0)
    private let hashes: [UInt64]

    init(hashes: [UInt64]) { self.hashes = hashes }

    func run(_ configuration: ServiceWorldConfiguration) -> ServiceWorldReport {
        var report = ServiceWorldReport(configuration: configuration)
        report.traceHash = configuration.seed
        guard configuration.seed == 3 else { return report }
        report.traceHash = runs.withLock { n in
            defer { n += 1 }
            return hashes[min(n, hashes.count - 1)]
        }
        report.violation = Violation(.chargedTwice, "p0001")
        return report
    }

    var count: Int { runs.withLock { $0 } }
}

@Suite("A swarm of a user's service's worlds")
struct ServiceSwarmTests {
    private static let sut = ServiceSwarm(template: ServiceWorldConfiguration(seed: 0), from: 0, count: 8, mixedSchedules: false, tasks: 2)

    @Test("the first failing world runs again, and is reported as it ran")
    func firstFailureRunsAgain() {
        // Given worlds whose seed 3 fails the same way each time
        let worlds = ScriptedWorlds(hashes: [0xAB])

        // When the swarm runs
        let summary = Self.sut.run(worlds.run)

        // Then seed 3 ran twice, and its violation is the one it broke
        #expect(worlds.count == 2)
        #expect(summary.failed == 1)
        #expect(summary.firstFailure?.violation?.invariant == .chargedTwice)
        #expect(summary.firstFailure?.configuration.seed == 3)
    }

    @Test("the sum of a swarm's worlds is the same whatever the number of tasks", arguments: [1, 3])
    func sumDoesNotDependOnTasks(tasks: Int) {
        // Given eight worlds, seed 3 failing
        let worlds = ScriptedWorlds(hashes: [0xAB])
        let sut = ServiceSwarm(template: ServiceWorldConfiguration(seed: 0), from: 0, count: 8, mixedSchedules: false, tasks: tasks)

        // When the swarm runs on `tasks` threads
        let summary = sut.run(worlds.run)

        // Then the sum and its hash are those of seed order
        var inOrder = ServiceSwarmSummary()
        for seed in 0..<8 as Range<UInt64> { inOrder.add(ScriptedWorlds(hashes: [0xAB]).run(ServiceWorldConfiguration(seed: seed))) }
        #expect(summary.worlds == 8)
        #expect(summary.traceHash == inOrder.traceHash)
        #expect(summary.failed == 1)
        #expect(summary.firstFailure?.configuration.seed == 3)
    }

    @Test("a failing world that runs another way the second time is reported as nondeterministic")
    func secondRunThatDiffersIsCaught() throws {
        // Given worlds whose seed 3 has another trace hash on its second run
        let worlds = ScriptedWorlds(hashes: [0xAB, 0xCD])

        // When the swarm runs
        let summary = Self.sut.run(worlds.run)

        // Then the failure names both runs
        let violation = try #require(summary.firstFailure?.violation)
        #expect(violation.invariant == .nondeterministicWorld)
        #expect(violation.detail.contains("trace hash 0xab"))
        #expect(violation.detail.contains("trace hash 0xcd"))
    }

    @Test("a failing world shrinks to the fewest payments, clients and crashes that still break its invariant")
    func shrinksSeededWorlds() throws {
        // Given worlds that break chargedTwice while they have 6 payments or more and 2 clients or more
        let running: @Sendable (ServiceWorldConfiguration) -> ServiceWorldReport = { configuration in
            var report = ServiceWorldReport(configuration: configuration)
            if configuration.payments >= 6, configuration.clients >= 2 { report.violation = Violation(.chargedTwice, "p0001") }
            return report
        }
        let failing = running(ServiceWorldConfiguration(seed: 9, payments: 100, clients: 8, crashes: 3))

        // When it is shrunk
        let sut = ServiceWorld.shrink(failing, running: running)

        // Then payments and clients halve while the world still fails, and the crashes go
        #expect(sut.configuration.payments == 6)
        #expect(sut.configuration.clients == 2)
        #expect(sut.configuration.crashes == 0)
        #expect(sut.violation?.invariant == .chargedTwice)
    }
}
