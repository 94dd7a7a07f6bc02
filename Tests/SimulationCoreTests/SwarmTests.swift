@testable @_spi(Tooling) import SimulationCore
import Synchronization
import Testing

/// A world of one seed: its report counts the seed as its steps; seed `failing` breaks `chargedTwice`.
private func world(_ seed: UInt64, failing: UInt64? = nil) -> WorldReport<UInt64, NoCounts> {
    var report = WorldReport<UInt64, NoCounts>(configuration: seed)
    report.steps = Int(seed)
    if seed == failing { report.violation = Violation(.chargedTwice, "seed \(seed)") }
    return report
}

/// A world that cannot run.
private struct Unrunnable: Error, Equatable { var seed: UInt64 }

@Suite("The swarm both simulators run their worlds with")
struct SwarmTests {
    @Test("every seed's report is folded once, in seed order, whatever the number of tasks", arguments: [1, 2, 4, 16])
    func foldsInSeedOrder(tasks: Int) {
        // Given a swarm of 40 seeds from 100
        let sut = Swarm(from: 100, count: 40, tasks: tasks)
        // When every world runs and the reports are folded
        let folded = sut.run({ world($0) }, into: [UInt64](), fold: { seeds, report in
            seeds.append(report.configuration)
            return true
        })
        // Then they came in seed order
        #expect(folded == Array(100..<140))
    }

    @Test("a shard runs every n-th seed from its index", arguments: [(0, 3, [10, 13, 16, 19]), (2, 3, [12, 15, 18]), (0, 1, Array(10..<20))])
    func shards(index: Int, count: Int, seeds: [UInt64]) {
        #expect(Swarm(from: 10, count: 10, shard: (index, count), tasks: 2).seeds == seeds)
    }

    @Test("once the fold says stop, no later report is folded", arguments: [1, 2, 4])
    func stopsAtTheFirstFailure(tasks: Int) {
        // Given worlds whose seed 5 fails
        let sut = Swarm(from: 0, count: 30, tasks: tasks)
        // When the swarm folds up to the first failure
        let folded = sut.run({ world($0, failing: 5) }, into: [UInt64](), fold: { seeds, report in
            seeds.append(report.configuration)
            return report.violation == nil
        })
        // Then the seeds up to and including it were folded
        #expect(folded == Array(0...5))
    }

    @Test("once proceed says no, that world and every later one are left out")
    func proceedStops() {
        // Given a swarm that may start seven worlds
        let starts = Mutex(0)
        let sut = Swarm(from: 0, count: 30, tasks: 1)
        // When it runs
        let folded = sut.run({ world($0) }, into: [UInt64](), fold: { seeds, report in
            seeds.append(report.configuration)
            return true
        }, proceed: { starts.withLock { n in n += 1; return n <= 7 } })
        // Then seven were folded
        #expect(folded == Array(0..<7))
    }

    @Test("a world that throws stops the swarm, and its error comes once the earlier worlds are folded", arguments: [1, 3])
    func throwsInOrder(tasks: Int) {
        // Given worlds whose seed 4 cannot run
        let folded = Mutex([UInt64]())
        let sut = Swarm(from: 0, count: 20, tasks: tasks)
        // When the swarm runs
        #expect(throws: Unrunnable(seed: 4)) {
            _ = try sut.run({ seed throws(Unrunnable) in
                if seed == 4 { throw Unrunnable(seed: 4) }
                return world(seed)
            }, into: 0, fold: { count, report in
                folded.withLock { $0.append(report.configuration) }
                return true
            })
        }
        // Then the worlds before it were folded, and none after
        #expect(folded.withLock { $0 } == [0, 1, 2, 3])
    }

    @Test("the workers' watch hears each seed start and end on the worker's thread")
    func watch() {
        // Given a watch that notes the seeds started and the ends
        let started = Mutex([UInt64]()), ended = Mutex(0)
        let watch = Swarm.Watch(starting: { _, seed in started.withLock { $0.append(seed) } }, finished: { _ in ended.withLock { $0 += 1 } })
        // When a swarm of five worlds runs on one task
        _ = Swarm(from: 7, count: 5, tasks: 1).run({ world($0) }, into: 0, fold: { _, _ in true }, watch: watch)
        // Then it heard every seed in order, and as many ends
        #expect(started.withLock { $0 } == [7, 8, 9, 10, 11])
        #expect(ended.withLock { $0 } == 5)
    }

    @Test("outcomes that come out of seed order are folded in it, and none waits once folded",
          arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 0, 3, 1]])
    func seedOrder(arrivals: [Int]) {
        // Given four outcomes, and a fold that lists them
        var sut = SeedOrder<Int, [Int], Never>(summary: [])
        // When they arrive in `arrivals` order
        for slot in arrivals { sut.add(.ran(.success(slot)), at: slot) { $0.append($1); return true } }
        // Then they were folded in slot order, and nothing waits
        #expect(sut.summary == [0, 1, 2, 3])
        #expect(sut.waiting.isEmpty)
        #expect(sut.stop == nil)
    }

    @Test("an outcome after the stop is dropped, not kept waiting")
    func dropsAfterStop() {
        // Given a fold that stops at slot 1
        var sut = SeedOrder<Int, [Int], Never>(summary: [])
        sut.add(.ran(.success(3)), at: 3) { $0.append($1); return $1 != 1 }
        sut.add(.ran(.success(0)), at: 0) { $0.append($1); return $1 != 1 }
        sut.add(.ran(.success(1)), at: 1) { $0.append($1); return $1 != 1 }
        // When a later slot's outcome comes
        sut.add(.ran(.success(2)), at: 2) { $0.append($1); return true }
        // Then only slots 0 and 1 were folded, and nothing waits
        #expect(sut.summary == [0, 1])
        #expect(sut.stop == 1)
        #expect(sut.waiting.isEmpty && sut.stopped(before: 2))
    }
}
