import Foundation
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) @testable import Generation
import SpecKernel
import TestSupport
import UserAlgorithms

@Suite("SPEC boundaries: the edges workload and the coverage of a check", .budget(minutes: 2))
struct BoundaryCoverageTests {
    /// A checked one-pass run of a shipped scenario (its own load model replaced by the fixed one).
    private func checkedRun(_ name: String, _ implementations: Implementations = .reference, sample: Double = 1, tasks: Int = 2) async throws -> RunResult {
        var options = RunOptions.test(tasks: tasks, timing: false)
        options.implementations = implementations
        options.checkSample = sample
        let scenario = try ScenarioCatalog.load(name, currentDirectory: "/nonexistent")
        return try await ScenarioRunner.run(RunPlan(scenario: scenario), options: options)
    }

    @Test("edges reaches both sides of every measured catalogue entry, also when the check samples 1 % of the users")
    func edgesReachesEverything() async throws {
        // Given the edges scenario, checked in full and on a 1 % sample
        for sample in [1, 0.01] {
            // When the reference is checked against itself
            let run = try await checkedRun("edges", sample: sample)
            let sut = try #require(run.check)
            // Then every measured entry is exercised on both sides, and nothing differs
            #expect(sut.boundaries.unreached.map(\.boundary.id) == [])
            #expect(MetricCatalog.value(of: "boundaries_unreached", in: run) == 0)
            #expect(Summary.render(run, style: TextStyle(enabled: false)).contains("\n  SPEC boundaries exercised: \(SpecBoundary.measured.count) of \(SpecBoundary.measured.count)\n"))
            #expect(sut.boundaries.exercised == SpecBoundary.measured.count)
            #expect(sut.mismatches == 0)
        }
    }

    @Test("the walk-through's CI scenario (boundaries: 0.05) reaches every measured entry too")
    func exampleCIScenario() async throws {
        // Given Examples/CustomAnalyzer/Scenarios/ci.yaml
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Examples/CustomAnalyzer/Scenarios/ci.yaml").standardized.path
        var options = RunOptions.test(tasks: 2, timing: false)
        options.checkSample = 1
        // When the reference is checked on it
        let run = try await ScenarioRunner.run(try RunPlan.load(path), options: options)
        // Then nothing is left unreached
        #expect(run.check?.boundaries.line == "SPEC boundaries exercised: \(SpecBoundary.measured.count) of \(SpecBoundary.measured.count)")
    }

    /// Bugs that sit on a SPEC boundary only, each with the output field it spoils.
    static let boundaryBugs: [(Implementations, String)] = [
        (Implementations(fasting: ListFastingAnalyzer<StrictCompliance>.self, steps: UserKernel.self, payments: UserKernel.self),
         "fasting_daily.compliant"),
        (Implementations(fasting: UserKernel.self, steps: ClosedIntervalSteps.self, payments: UserKernel.self), "steps_daily"),
        (Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: InclusiveLimitProcessor.self), "payments_outcomes.state"),
        (Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: ExtraAttemptProcessor.self), "payments_outcomes.attempts"),
    ]

    /// The coverage and the mismatches of smoke's own 300 users under `implementations`, without the boundary population.
    private func smokeOwnUsers(_ implementations: Implementations) throws -> (RowComparison, BoundaryCoverage) {
        let simulator = Simulator(scenario: try ScenarioCatalog.load("smoke", currentDirectory: "/nonexistent"))
        var batch = SimulationBatch()
        simulator.fill(&batch, with: simulator.allUsers)
        let settings = WorkerSettings(algorithm: AlgorithmSettings(), implementations: implementations, timing: false, writesOutput: false)
        return DifferentialCheck(simulator: simulator, settings: settings, sample: 1, listed: 10).checked(batch)
    }

    @Test("a planted boundary bug is caught by edges, and by smoke's check: its own users miss it, the boundary population catches it",
          arguments: boundaryBugs)
    func plantedBoundaryBug(implementations: Implementations, field: String) async throws {
        // Given an implementation that is wrong only on a SPEC boundary
        // When smoke's own users are checked alone, and smoke and edges are run with the check
        let own = try smokeOwnUsers(implementations).0
        let smoke = try await checkedRun("smoke", implementations)
        let edges = try await checkedRun("edges", implementations)
        // Then smoke's own users show nothing, but its check names the field on boundary users (listed
        // after its 300 users, labelled) and fails the run, as edges does
        #expect(own.mismatches == 0)
        let check = try #require(smoke.check)
        #expect(check.byField[field, default: 0] > 0)
        #expect(!check.listed.isEmpty)
        #expect(check.listed.allSatisfy { $0.boundaryUser == true && $0.userIndex ?? 0 >= 300 })
        #expect(!smoke.passed)
        let summary = Summary.render(smoke, style: TextStyle(enabled: false))
        #expect(summary.contains(" on 300 users and 60 boundary users in "))
        #expect(summary.contains("\n  \(check.listed[0].user) (boundary user, UTC offset "))
        #expect(edges.check?.byField[field, default: 0] ?? 0 > 0)
        #expect(!edges.passed)
    }

    @Test("a check of 1 % of smoke's users still checks every boundary user, and catches the planted bug", arguments: boundaryBugs)
    func sampledCheckCatchesIt(implementations: Implementations, field: String) async throws {
        // Given an implementation that is wrong only on a SPEC boundary
        // When smoke is checked on a 1 % sample
        let sut = try await checkedRun("smoke", implementations, sample: 0.01)
        let check = try #require(sut.check)
        // Then a handful of smoke's users and all 60 boundary users were checked, the field is named and the run fails
        #expect(check.users < 30)
        #expect(check.boundaryUsers == BoundaryPopulation.size)
        #expect(check.byField[field, default: 0] > 0)
        #expect(check.boundaries.exercised == check.boundaries.measured)
        #expect(!sut.passed)
    }

    @Test("the boundary population is the same whatever the task count, and merged shards count it once")
    func populationDeterminism() async throws {
        // Given smoke checked with the compliance bug on one task, on three, and as two shards
        let bug = Self.boundaryBugs[0].0
        let one = try #require(try await checkedRun("smoke", bug, tasks: 1).check)
        let three = try #require(try await checkedRun("smoke", bug, tasks: 3).check)
        var shards: [CheckReport] = []
        for shard in 0..<2 {
            var options = RunOptions.test(tasks: 2, timing: false)
            options.implementations = bug
            options.checkSample = 1
            options.shard = shard
            options.shardCount = 2
            let scenario = try ScenarioCatalog.load("smoke", currentDirectory: "/nonexistent")
            shards.append(try #require(try await ScenarioRunner.run(RunPlan(scenario: scenario), options: options).check))
        }
        var merged = shards[0]
        merged.merge(shards[1])
        merged.seconds = one.seconds
        var sut = three
        sut.seconds = one.seconds
        // Then the check is identical, only shard 0 checks the boundary users, and the merge equals the whole
        #expect(sut == one)
        #expect(shards.map(\.boundaryUsers) == [BoundaryPopulation.size, 0])
        #expect(merged == one)
    }

    @Test("an analyzer written differently but correct passes edges: the boundary rows leave SPEC no room for doubt")
    func correctImplementationPasses() async throws {
        // Given the list-based analyzer without a flaw
        // When edges checks it
        let sut = try await checkedRun("edges", Implementations(fasting: ListFastingAnalyzer<NoFlaw>.self, steps: UserKernel.self, payments: UserKernel.self))
        // Then nothing differs and the run passes
        #expect(sut.check?.mismatches == 0)
        #expect(sut.passed)
    }

    @Test("edges is the same whatever the task count: outputs, check and coverage")
    func determinism() async throws {
        // Given edges run on one task and on three
        let one = try await checkedRun("edges", tasks: 1)
        let three = try await checkedRun("edges", tasks: 3)
        // Then the outputs' digest, the users checked and the coverage are the same
        #expect(one.metrics.digest == three.metrics.digest)
        #expect(one.check?.users == three.check?.users)
        #expect(one.check?.boundaries == three.check?.boundaries)
    }

    @Test("an entry whose rows never reach a side is reported unreached, naming the side")
    func unreachedSide() throws {
        // Given the edges users with every meal of 14401 s removed (the too_long side of meals.longest)
        let simulator = Simulator(scenario: try ScenarioCatalog.load("edges", currentDirectory: "/nonexistent"))
        var batch = SimulationBatch()
        for user in 0..<60 { simulator.generate(user: user, into: &batch) }
        let settings = WorkerSettings(algorithm: AlgorithmSettings(), implementations: .reference, timing: false, writesOutput: false)
        let check = DifferentialCheck(simulator: simulator, settings: settings, sample: 1, listed: 1)
        let complete = check.checked(batch).1
        var planted = SimulationBatch()
        for i in batch.users.indices {
            planted.users.append(batch.users[i])
            planted.meals += batch.meals(ofUserAt: i).filter { $0.end - $0.start != MealRejection.maximumDuration + 1 }
            planted.mealEnds.append(planted.meals.count)
            planted.steps += batch.steps(ofUserAt: i)
            planted.stepEnds.append(planted.steps.count)
            planted.payments += batch.payments(ofUserAt: i)
            planted.paymentEnds.append(planted.payments.count)
        }
        // When the probe counts both
        let sut = check.checked(planted).1
        // Then the complete batch reaches everything, and the planted one misses exactly that side
        #expect(complete.unreached.isEmpty)
        #expect(sut.unreached.map { "\($0.boundary.id) (\($0.missing))" } == ["meals.longest (outside)"])
        #expect(sut.line == "SPEC boundaries exercised: \(SpecBoundary.measured.count - 1) of \(SpecBoundary.measured.count); not reached: meals.longest (outside)")
    }

    @Test("the coverage survives the JSON result; an older result has none, and a spoiled count is refused")
    func json() async throws {
        // Given a checked edges run in JSON
        let run = try await checkedRun("edges")
        var json = try JSONSerialization.jsonObject(with: try ResultJSON.encode(run)) as! [String: Any]
        var check = json["check"] as! [String: Any]
        let boundaries = check["boundaries"] as! [String: Any]
        // When it is read back, without the boundaries, and with one entry's counts spoiled
        let decoded = try ResultJSON.decode(try ResultJSON.encode(run))
        check["boundaries"] = nil
        json["check"] = check
        let older = try ResultJSON.decode(try JSONSerialization.data(withJSONObject: json))
        var sides = boundaries["sides"] as! [String: Any]
        sides["meals.window_omad"] = [1]
        check["boundaries"] = boundaries.merging(["sides": sides]) { $1 }
        json["check"] = check
        // Then the counts come back, the older result reaches nothing, and the spoiled one is refused
        #expect(decoded.check?.boundaries == run.check?.boundaries)
        #expect(check["boundary_users"] as? Int == BoundaryPopulation.size)
        #expect(decoded.check?.boundaryUsers == BoundaryPopulation.size)
        #expect(boundaries["exercised"] as? Int == SpecBoundary.measured.count)
        #expect(older.check?.boundaries == BoundaryCoverage())
        let error = #expect(throws: ResultDecodingError.self) { try ResultJSON.decode(try JSONSerialization.data(withJSONObject: json)) }
        #expect(error?.message == "check.boundaries.sides.meals.window_omad must be [inside, outside] counts >= 0")
    }

    @Test("smoke's own users leave boundaries unreached, the compliance limits among them; its check reaches them all")
    func smokeIsBlind() async throws {
        // Given smoke's own users, and smoke checked against the reference
        let own = try smokeOwnUsers(.reference).1
        let smoke = try await checkedRun("smoke")
        let sut = try #require(smoke.check)
        // Then its own users never reach the exact eating-window limits, but the check, with its
        // boundary population, exercises every measured entry
        let unreached = Set(own.unreached.map(\.boundary.id))
        #expect(unreached.isSuperset(of: ["meals.window_16_8", "meals.window_omad", "payments.limit_exponent_0"]))
        #expect(own.exercised < own.measured)
        #expect(sut.boundaries.line == "SPEC boundaries exercised: \(SpecBoundary.measured.count) of \(SpecBoundary.measured.count)")
        #expect(MetricCatalog.value(of: "boundaries_unreached", in: smoke) == 0)
        #expect(sut.mismatches == 0)
    }
}
