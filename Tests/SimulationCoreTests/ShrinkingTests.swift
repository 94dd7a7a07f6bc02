@_spi(Tooling) import SimulationCore
import Testing

/// Worlds of one number, its size: a world of size 7 or more breaks `chargedTwice`, one of size 5 breaks
/// `ledgerDiffers`, the others pass. Smaller worlds are half the size, then one less. It counts the worlds it runs.
final class SizedWorlds: WorldRunner {
    private(set) var runs: [Int] = []

    func run(_ configuration: Int) -> Int? {
        runs.append(configuration)
        return configuration
    }

    func configuration(of report: Int) -> Int { report }

    func invariant(of report: Int) -> Invariant? {
        report >= 7 ? .chargedTwice : report == 5 ? .ledgerDiffers : nil
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
        let shrunk = sut.shrink(100)
        // Then the smallest world still charging twice is found, not the smaller one of another invariant
        #expect(shrunk == 7)
        #expect(sut.runs.contains(6))
    }

    @Test("no more worlds run than the budget allows", arguments: [1, 3, 10])
    func keepsTheBudget(budget: Int) {
        // Given the sized worlds
        let sut = SizedWorlds()
        // When a failing world is shrunk within a budget
        _ = sut.shrink(100_000, budget: budget)
        // Then at most that many worlds ran
        #expect(sut.runs.count == budget)
    }

    @Test("a passing world is returned as it is, and no world runs")
    func passingWorld() {
        // Given the sized worlds
        let sut = SizedWorlds()
        // When a passing world is shrunk
        let shrunk = sut.shrink(3)
        // Then it comes back as it was
        #expect(shrunk == 3)
        #expect(sut.runs.isEmpty)
    }
}
