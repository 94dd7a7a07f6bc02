@_spi(Tooling) import Analysis
import ArgumentParser
@_spi(Tooling) import Export
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import ServiceLoad
@_spi(Tooling) import Generation

extension ServiceSession {
    /// Runs a load plan through the service the command line was started with.
    @TaskLocal static var load: LoadRunner?
}

/// Runs a load plan through a service (a struct, not a bare closure: see `ServiceSession`).
struct LoadRunner: Sendable {
    let run: @Sendable (RunPlan, ServiceLoadRunner.Options) async throws -> RunResult
    init(_ run: @escaping @Sendable (RunPlan, ServiceLoadRunner.Options) async throws -> RunResult) { self.run = run }
}

/// `run` of `SimHarness.main(service:)`: load mode.
struct ServiceRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sends a scenario's payment stream through your service from concurrent clients, measures it and checks it against the SPEC reference.",
        discussion: """
            The scenario's generated payments (those a request can carry: validation faults are left out) go through \
            your service from --clients concurrent clients on every core, each user's in order on one client, under the \
            scenario's load model: fixed and duration are closed (a client sends its next request when the last is \
            answered), arrival_rate and ramping open (each request when it is due; its latency counts from then). The \
            gateway answers at once by each payment's script (A, D, T, L), the store is in memory, the clock never waits. \
            Each answer and the ledger are compared with the SPEC reference's, and the gateway's acts with SPEC §4's \
            invariants. Without --scenario: the smoke population, once through (fixed), the check its only threshold. Exit status: 0 every threshold held and no mismatch, 1 a threshold failed or a mismatch (the \
            first differing request named), 2 bad options or scenario, 3 the service could not start.
            """
    )

    @OptionGroup var workload: RunWorkloadArguments

    @OptionGroup var pacing: PacedRunArguments

    @Option(help: "Concurrent clients (default: 4 per core).", transform: OptionValue.integer(in: 1...10_000))
    var clients: Int?

    @Option(help: "Write every metric and histogram as versioned JSON to this file ('-' for stdout).")
    var json: String?

    @Option(help: "At the end, write result.json and every report (report.html, summary.md, junit.xml, metrics.txt, latency.hlog) in this folder.")
    var reportDir: String?

    func validate() throws {
        if workload.shard.count != 1 { throw ValidationError("--shard does not apply to load mode: run one process per machine, each the whole stream") }
        if workload.tasks != nil { throw ValidationError("--tasks does not apply to load mode: give --clients") }
        if workload.minFast != nil { throw ValidationError("--min-fast does not apply to load mode: it sends payments only") }
    }

    func run() async throws {
        guard let load = ServiceSession.load else { throw failure("run", "no service: start it with SimHarness.main(service:)", status: .internalError) }
        var (plan, options): (RunPlan, RunOptions)
        do { (plan, options) = try workload.resolve() } catch let error as InvalidInput {
            throw failure("run", error.message, status: HarnessExit.invalidInput)
        }
        if workload.scenario == "smoke" {
            // The embedded smoke scenario paces analyzers at 1 million events/s; a service goes once through its payments.
            plan.load = .fixed
            plan.thresholds = []
        }
        try pacing.apply(to: &plan)
        var loadOptions = ServiceLoadRunner.Options(clients: clients ?? 4 * Cores.count, seed: options.seed ?? plan.scenario.seed)
        loadOptions.maxAttempts = options.maxAttempts
        let (runPlan, runOptions) = (plan, loadOptions)
        let result: RunResult
        do {
            result = try await cancellingOnInterrupt { try await load.run(runPlan, runOptions) }
        } catch let error as ServiceLoadRunner.Failure {
            throw failure("run", "\(error)", status: HarnessExit.internalError)
        }
        printSummary(of: result, jsonToStdout: json == "-")
        let seconds = max(result.durationSeconds, 1e-9)
        let cpu = result.process.cpuUserSeconds + result.process.cpuSystemSeconds
        say("load mode: \(result.metrics.payments.events) requests from \(runOptions.clients) clients in \(String(format: "%.3f", seconds)) s: "
            + "\(Int(Double(result.metrics.payments.events) / seconds)) requests/s, \(String(format: "%.3f", cpu)) CPU s")
        if let check = result.check, let first = check.listed.first {
            say("\(check.mismatches) mismatches against the SPEC reference; the first differing request: \(first.row) of \(first.user): "
                + "\(first.field) is \(first.value), the reference's \(first.reference)")
        } else {
            say("every answer and the ledger match the SPEC reference")
        }
        try deliver(result, json: json, reportDir: reportDir)
    }
}

/// A line of the command's output.
private func say(_ line: String) { ServiceSession.output.write(line) }
