@_spi(Tooling) import SimulationCore
import Testing

/// A runner's counts: a number of events and their names.
struct EventCounts: WorldCounts, Equatable {
    var events = 0
    var names: [String] = []
}

@Suite("A world's report: what both simulators report, and each runner's own counts")
struct WorldReportTests {
    @Test("a new report has counted nothing and found no violation")
    func empty() {
        // Given a world's configuration
        // When its report is made
        let sut = WorldReport<String, EventCounts>(configuration: "seed 7")
        // Then it holds the world and nothing counted
        #expect(sut.configuration == "seed 7")
        #expect(sut.steps == 0 && sut.crashes == 0 && sut.violation == nil)
        #expect(sut.counts == EventCounts())
    }

    @Test("the runner's counts read and change as the report's own members")
    func countsAsMembers() {
        // Given a report
        var sut = WorldReport<String, EventCounts>(configuration: "seed 7")
        // When its runner's counts change through it
        sut.events += 2
        sut.names.append("crash")
        // Then the counts hold the changes
        #expect(sut.counts == EventCounts(events: 2, names: ["crash"]))
        #expect(sut.events == 2)
    }

    @Test("a violation reads as its invariant's name and its detail")
    func violationText() {
        let sut = Violation(.ledgerDiffers, "u01 USD captured 2500, the gateway captured 1250", subjects: ["p1"])
        #expect(sut.description == "ledger-differs: u01 USD captured 2500, the gateway captured 1250")
        #expect(Duration.milliseconds(1_250).wholeMilliseconds == 1_250)
        #expect((Duration.milliseconds(3) + .nanoseconds(999_999)).wholeMilliseconds == 3)
    }
}
