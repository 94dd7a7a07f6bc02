import ArgumentParser
@_spi(Tooling) import BenchmarkWorkloads
import Foundation
import ServiceLoad
import ServiceSimulation
@testable import SimHarnessKit
import Synchronization
import Testing

/// Runs `run` of `SimHarness.main(service:)` for `Service` in process; its exit status and the lines it said.
private func run<Service: ServiceUnderSimulation>(_ service: Service.Type, _ arguments: [String]) async throws -> (status: Int32, output: String) {
    let lines = Mutex<[String]>([])
    var status: Int32 = 0
    do {
        try await ServiceSession.$load.withValue({ try await ServiceLoadRunner.run(Service.self, $0, options: $1) }) {
            try await ServiceSession.$output.withValue({ line in lines.withLock { $0.append(line) } }) {
                var command = try #require(try ServiceHarnessCommand.parseAsRoot(["run"] + arguments) as? AsyncParsableCommand)
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
}
