import ArgumentParser
import Foundation
@_spi(Tooling) import ServiceFixtures
@_spi(Tooling) import ServiceSimulation
@testable import SimHarnessKit
import Testing

/// The lines a command wrote.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// Runs `simulate` of `SimHarness.main(service:)` for `Service` in process; its exit status and output.
private func simulate<Service: ServiceUnderSimulation>(_ service: Service.Type, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    let lines = Lines()
    let runner = ServiceWorldRunner { ServiceWorld.run(Service.self, $0) }
    var status: Int32 = 0
    do {
        try await ServiceSession.$world.withValue(runner) {
            try await ServiceSession.$output.withValue(OutputSink { lines.append($0) }) {
                var command = try #require(try ServiceHarnessCommand.parseAsRoot(["simulate"] + arguments) as? AsyncParsableCommand)
                try await command.run()
            }
        }
    } catch let exit as ExitCode {
        status = exit.rawValue
    } catch {
        status = ServiceHarnessCommand.exitCode(for: error).rawValue == ExitCode.validationFailure.rawValue ? 2 : 3
    }
    return (status, lines.text)
}

/// The `trace hash 0x…` a run printed.
private func traceHash(_ output: String) -> Substring? {
    output.firstRange(of: "trace hash 0x").map { range in output[range.upperBound...].prefix { $0.isHexDigit } }
}

@Suite("simulate for a user's service (SimHarness.main(service:))")
struct ServiceSimulateCommandTests {
    @Test("the correct service passes a swarm, with the same swarm trace hash whatever --tasks is")
    func correctServicePasses() async throws {
        // Given the correct service; When a swarm runs with 1 and with 2 tasks
        let one = try await simulate(LedgerService<Correct>.self, ["--seeds", "40", "--payments", "30", "--tasks", "1"])
        let two = try await simulate(LedgerService<Correct>.self, ["--seeds", "40", "--payments", "30", "--tasks", "2"])

        // Then both pass, having run every world, and their traces are the same
        #expect(one.status == 0, "\(one.output)")
        #expect(one.output.contains("simulated 40 worlds of 30 payments and 8 clients"))
        #expect(one.output.contains("no violation"))
        let hash = try #require(traceHash(one.output))
        #expect(hash == traceHash(two.output))
    }

    @Test("a planted bug fails the swarm with a reproduce line; the line, run twice, fails the same way with the same trace")
    func plantedBugReproduces() async throws {
        // Given the service that answers before it syncs
        // When a swarm runs, then its reproduce line twice
        let swarm = try await simulate(LedgerService<AnswerBeforeSync>.self, ["--seeds", "200", "--payments", "40"])
        let line = try #require(swarm.output.split(separator: "\n").first { $0.hasPrefix("reproduce: ") })
        let arguments = try #require(line.split(separator: " ").drop { $0 != "simulate" }.dropFirst().map(String.init) as [String]?)
        let first = try await simulate(LedgerService<AnswerBeforeSync>.self, arguments)
        let second = try await simulate(LedgerService<AnswerBeforeSync>.self, arguments)

        // Then each fails (exit 1) naming the violation, and the two runs have the same trace hash
        #expect(swarm.status == 1)
        #expect(swarm.output.contains("broke an invariant; the first, seed"))
        #expect(first.status == 1 && second.status == 1, "\(first.output)")
        #expect(first.output.contains("violation: ledger-differs: "))
        let hash = try #require(traceHash(first.output))
        #expect(hash == traceHash(second.output))
        #expect(first.output.contains("power loss"))
    }

    @Test("shards split the seeds: their worlds add up to the whole swarm's")
    func shards() async throws {
        let zero = try await simulate(LedgerService<Correct>.self, ["--seeds", "9", "--payments", "10", "--shard", "0/2"])
        let one = try await simulate(LedgerService<Correct>.self, ["--seeds", "9", "--payments", "10", "--shard", "1/2"])
        #expect(zero.output.contains("simulated 5 worlds"))
        #expect(one.output.contains("simulated 4 worlds"))
    }

    @Test("options that do not fit exit 2", arguments: [
        ["--schedule", "fifo"], ["--seed", "3", "--shard", "0/2"], ["--payments", "0"], ["--schedule", "pct:99"],
    ])
    func badOptions(arguments: [String]) async throws {
        let sut = try await simulate(LedgerService<Correct>.self, arguments)
        #expect(sut.status == 2)
    }
}
