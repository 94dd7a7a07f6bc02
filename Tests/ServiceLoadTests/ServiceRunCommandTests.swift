import ArgumentParser
@_spi(Tooling) import BenchmarkWorkloads
import Foundation
import ServiceLoad
import ServiceSimulation
@testable import SimHarnessKit
import Synchronization
import Testing

/// Runs `run` (or another command) of `SimHarness.main(service:)` for `Service` in process; its exit status and
/// the lines it said.
private func run<Service: ServiceUnderSimulation>(
    _ service: Service.Type, _ arguments: [String], command: [String] = ["run"]
) async throws -> (status: Int32, output: String) {
    let lines = Mutex<[String]>([])
    var status: Int32 = 0
    do {
        try await ServiceSession.$load.withValue({ try await ServiceLoadRunner.run(Service.self, $0, options: $1) }) {
            try await ServiceSession.$output.withValue({ line in lines.withLock { $0.append(line) } }) {
                var command = try #require(try ServiceHarnessCommand.parseAsRoot(command + arguments) as? AsyncParsableCommand)
                try await command.run()
            }
        }
    } catch let exit as ExitCode {
        status = exit.rawValue
    } catch {
        status = ServiceHarnessCommand.exitCode(for: error).rawValue == ExitCode.validationFailure.rawValue ? 2 : 3
    }
    return (status, lines.withLock { $0.joined(separator: "\n") })
}

@Suite("run for a user's service (load mode)")
struct ServiceRunCommandTests {
    @Test("the correct service passes (exit 0)")
    func correctPasses() async throws {
        let sut = try await run(LedgerService<Correct>.self, ["--users", "30", "--days", "7", "--clients", "3"])
        #expect(sut.status == 0)
        #expect(sut.output.contains("every answer and the ledger match the SPEC reference"))
    }

    @Test("a double-charging service fails (exit 1), the first differing request named")
    func defectFails() async throws {
        let sut = try await run(DoubleChargingService.self, ["--users", "30", "--days", "7", "--clients", "3"])
        #expect(sut.status == 1)
        #expect(sut.output.contains("the first differing request: payment p"))
    }

    @Test("options that do not fit exit 2", arguments: [
        ["--clients", "0"], ["--rate", "1000"], ["--shard", "0/2"], ["--tasks", "2"], ["--scenario", "no-such-scenario"],
    ])
    func badOptions(arguments: [String]) async throws {
        let sut = try await run(LedgerService<Correct>.self, arguments)
        #expect(sut.status == 2)
    }

    @Test("a baseline of the service, recorded, holds for the same service and fails for a double-charging one")
    func baselineRecordAndCheck() async throws {
        // Given a baseline of the correct service's load run, in a folder of its own
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("service-baseline-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = ["--file", folder + "/smoke.json", "--users", "30", "--days", "7", "--tasks", "1"]
        let recorded = try await run(LedgerService<Correct>.self, file + ["--repetitions", "1"], command: ["baseline", "record"])
        #expect(recorded.status == 0)

        // When the same service, and a service that charges twice, are checked against it
        // (what the machine moves, CPU time, memory and allocations, let go: the counts of answers are the point)
        let check = ["--file", folder + "/smoke.json", "--repetitions", "1"]
            + ["--tolerance", "cpu_*=100", "--tolerance", "peak_rss_mb=100", "--tolerance", "allocations=100"]
        let same = try await run(LedgerService<Correct>.self, check, command: ["baseline", "check"])
        let other = try await run(DoubleChargingService.self, check, command: ["baseline", "check"])

        // Then the first holds and the second fails (its answers' counts moved)
        #expect(same.status == 0)
        #expect(other.status == 1)
    }
}
