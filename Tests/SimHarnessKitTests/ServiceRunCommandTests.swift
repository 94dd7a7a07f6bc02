import ArgumentParser
@_spi(Tooling) import ServiceFixtures
import Foundation
import ServiceLoad
@_spi(Tooling) import ServiceSimulation
@testable import SimHarnessKit
import Synchronization
import Testing
import TestSupport

/// Runs `run` (or another command) of `SimHarness.main(service:)` for `Service` in process; its exit status and
/// the lines it said.
private func run<Service: ServiceUnderSimulation>(
    _ service: Service.Type, _ arguments: [String], command: [String] = ["run"]
) async throws -> (status: Int32, output: String) {
    let lines = Mutex<[String]>([])
    var status: Int32 = 0
    do {
        try await ServiceSession.$load.withValue(LoadRunner { try await ServiceLoadRunner.run(Service.self, $0, options: $1) }) {
            try await ServiceSession.$output.withValue(OutputSink { line in lines.withLock { $0.append(line) } }) {
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
        // Given a folder for the baseline
        let folder = try ScratchDirectory(prefix: "service-baseline")
        // When a baseline of the correct service is recorded, and the same service and a service that charges
        // twice are checked against it, in a process of their own: CPU time, peak memory and allocations are
        // process-wide, and the suites running beside this one in the test process would move them by
        // thousands of times (what the machine moves is let go as well: the counts of answers are the point)
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [path = folder.file("smoke.json") as String] in
            let file = ["--file", path, "--users", "30", "--days", "7", "--tasks", "1"]
            let recorded = try await run(LedgerService<Correct>.self, file + ["--repetitions", "1"], command: ["baseline", "record"])
            let check = ["--file", path, "--repetitions", "1"]
                + ["--tolerance", "cpu_*=100", "--tolerance", "peak_rss_mb=100", "--tolerance", "allocations=100"]
            let same = try await run(LedgerService<Correct>.self, check, command: ["baseline", "check"])
            let other = try await run(DoubleChargingService.self, check, command: ["baseline", "check"])
            let statuses = "recorded \(recorded.status), same \(same.status), other \(other.status)"
            FileHandle.standardError.write(Data((statuses + "\n").utf8))
            if same.status != 0 { FileHandle.standardError.write(Data(same.output.utf8)) }
        }
        // Then the record succeeds, the first check holds and the second fails (its answers' counts moved)
        let said = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(said.contains("recorded 0, same 0, other 1"), "\(said)")
    }
}
