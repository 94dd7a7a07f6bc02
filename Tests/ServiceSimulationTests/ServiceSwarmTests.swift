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

    @Test("reports that end out of seed order add up as in seed order, and none is kept once added",
          arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 0, 3, 1]])
    func reportsAddUpInSeedOrder(order: [Int]) {
        // Given four worlds' reports, seed 2 failing
        let reports = (0..<4).map { seed in
            var report = ServiceWorldReport(configuration: ServiceWorldConfiguration(seed: UInt64(seed)))
            report.traceHash = 0x1000 + UInt64(seed)
            report.steps = 10 * (seed + 1)
            if seed == 2 { report.violation = Violation(.chargedTwice, "p0002") }
            return report
        }
        var inOrder = ServiceSwarmSummary()
        for report in reports { inOrder.add(report) }
        let sut = Reports()

        // When they arrive in `order`
        for index in order { sut.set(index, reports[index]) }

        // Then the sum is the in-order one, and no report waits any more
        let sum = sut.sum
        #expect(sum.worlds == 4)
        #expect(sum.steps == 100)
        #expect(sum.traceHash == inOrder.traceHash)
        #expect(sum.failed == 1)
        #expect(sum.firstFailure?.configuration.seed == 2)
        #expect(sut.waitingCount == 0)
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
