@_spi(Tooling) import SimulationCore
import Testing

/// Nothing counted.
struct NoCounts: WorldCounts, Equatable {}

/// A report of a sized world, and whether it broke `invariant`.
func sizedReport(_ size: Int, breaking invariant: Invariant? = nil) -> WorldReport<Int, NoCounts> {
    var report = WorldReport<Int, NoCounts>(configuration: size)
    report.violation = invariant.map { Violation($0, "size \(size)") }
    return report
}

/// Worlds of one number, its size: a world of size 7 or more breaks `chargedTwice`, one of size 5 breaks
/// `ledgerDiffers`, the others pass. Smaller worlds are half the size, then one less. It counts the worlds it runs.
final class SizedWorlds: WorldRunner {
    private(set) var runs: [Int] = []

    func run(_ configuration: Int) -> WorldReport<Int, NoCounts>? {
        runs.append(configuration)
        return sizedReport(configuration, breaking: configuration >= 7 ? .chargedTwice : configuration == 5 ? .ledgerDiffers : nil)
    }

    func smaller(than configuration: Int) -> [Int] { [configuration / 2, configuration - 1].filter { $0 >= 0 && $0 < configuration } }
}

@Suite("Shrinking a failing world, for either simulator")
struct ShrinkingTests {
    @Test("the smallest world that breaks the same invariant is found, passing over one that breaks another")
    func findsTheSmallest() {
        // Given worlds that break chargedTwice from size 7 on, and ledgerDiffers at size 5
        let sut = SizedWorlds()
        // When a failing world of size 100 is shrunk
        let shrunk = sut.shrink(sizedReport(100, breaking: .chargedTwice))
        // Then the smallest world still charging twice is found, not the smaller one of another invariant
        #expect(shrunk == sizedReport(7, breaking: .chargedTwice))
        #expect(sut.runs.contains(6))
    }

    @Test("no more worlds run than the budget allows", arguments: [1, 3, 10])
    func keepsTheBudget(budget: Int) {
        // Given the sized worlds
        let sut = SizedWorlds()
        // When a failing world is shrunk within a budget
        _ = sut.shrink(sizedReport(100_000, breaking: .chargedTwice), budget: budget)
        // Then at most that many worlds ran
        #expect(sut.runs.count == budget)
    }

    @Test("a passing world is returned as it is, and no world runs")
    func passingWorld() {
        // Given the sized worlds
        let sut = SizedWorlds()
        // When a passing world is shrunk
        let shrunk = sut.shrink(sizedReport(3))
        // Then it comes back as it was
        #expect(shrunk == sizedReport(3))
        #expect(sut.runs.isEmpty)
    }
}
