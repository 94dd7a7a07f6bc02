@_spi(Tooling) import BenchmarkWorkloads
import Datasets
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation
import Testing

/// A workload of each kind, small enough for a debug build, behind one face.
enum WorkloadKind: String, CaseIterable, CustomTestStringConvertible {
    case fasting, steps, payments, generation, mealRows

    var testDescription: String { rawValue }

    /// The regressions the workload takes: the meal rows are one text, with no users to allocate for.
    var regressions: [InjectedRegression] {
        self == .mealRows ? [.allocation, .slowdown, .work(rounds: 7)] : [.allocation, .allocationPerUser, .slowdown, .work(rounds: 7)]
    }

    /// The workload's event count and its run, for `seed` (the generation workload has none: it is the
    /// embedded `load` scenario's).
    func make(seed: UInt64) -> (events: Int, run: (InjectedRegression) -> UInt64) {
        switch self {
        case .fasting:
            let sut = FastingWorkload(events: 3_000, days: 10, seed: seed)
            return (sut.eventCount, sut.run(injecting:))
        case .steps:
            let sut = StepWorkload(events: 3_000, days: 3, seed: seed)
            return (sut.eventCount, sut.run(injecting:))
        case .payments:
            let sut = PaymentWorkload(events: 3_000, perUser: 40, seed: seed)
            return (sut.eventCount, sut.run(injecting:))
        case .generation:
            let sut = GenerationWorkload(users: 3, usersPerBatch: 2)
            return (0, sut.run(injecting:))
        case .mealRows:
            let sut = MealRowsWorkload(lines: 3_000, users: 40, seed: seed)
            return (sut.lines, sut.run(injecting:))
        }
    }
}

@Suite("Benchmark workloads: fixed, seeded work that the gates can measure")
struct WorkloadTests {
    @Test(arguments: [WorkloadKind.fasting, .steps, .payments, .mealRows])
    func holdsExactlyTheEventsAskedFor(kind: WorkloadKind) {
        #expect(kind.make(seed: 1).events == 3_000)
    }

    @Test(arguments: WorkloadKind.allCases)
    func theSameSeedGivesTheSameChecksum(kind: WorkloadKind) {
        // Given two workloads of one seed
        let first = kind.make(seed: 11), second = kind.make(seed: 11)

        // When / Then
        #expect(first.run(.none) == second.run(.none))
    }

    @Test(arguments: [WorkloadKind.fasting, .steps, .payments, .mealRows])
    func anotherSeedGivesOtherWork(kind: WorkloadKind) {
        #expect(kind.make(seed: 11).run(.none) != kind.make(seed: 12).run(.none))
    }

    /// Each regression feeds the checksum, so the optimizer cannot remove it.
    @Test(arguments: WorkloadKind.allCases.flatMap { kind in kind.regressions.map { (kind, $0) } })
    func anInjectedRegressionChangesTheChecksum(kind: WorkloadKind, regression: InjectedRegression) {
        // Given
        let sut = kind.make(seed: 3)

        // When / Then
        #expect(sut.run(regression) != sut.run(.none))
    }

    @Test func theGenerationWorkloadCountsTheRowsOfItsUsers() throws {
        // Given the first 5 users of the embedded `load` scenario, 2 to a batch
        let sut = GenerationWorkload(users: 5, usersPerBatch: 2)
        let scenario = try ScenarioParser.parse(try #require(ScenarioCatalog.embeddedText("load")), file: "load.yaml")
        let simulator = Simulator(scenario: scenario)
        var batch = SimulationBatch()
        for user in 0..<5 { simulator.generate(user: user, into: &batch) }

        // When / Then: the same rows as the users generated one at a time
        #expect(sut.countEvents() == batch.eventCount)
        #expect(batch.eventCount > 0)
    }

    @Test func theMealRowsWorkloadHoldsOneLinePerEvent() {
        // Given
        let sut = MealRowsWorkload(lines: 250, users: 10, seed: 5)

        // When / Then
        #expect(sut.text.filter { $0 == UInt8(ascii: "\n") }.count == 250)
        #expect(sut.users.profiles.count == 10)
    }
}
