@_spi(Tooling) import Analysis
import ArgumentParser
@_spi(Tooling) import Export
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import ServiceLoad
@_spi(Tooling) import Generation

struct BaselineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Records a scenario's performance baseline, or checks a new build against it.",
        discussion: """
            Both run one fixed-volume pass of the scenario's users × days several times and keep the medians, with \
            the machine's description and a calibration score, so that times recorded on one machine are scaled \
            to another. Exit status: 0 recorded / no regression (improvements are reported, never failures), \
            1 regression, 2 invalid scenario or baseline file or a bad option, 3 internal error, 130 interrupted.
            """,
        subcommands: [BaselineRecordCommand.self, BaselineCheckCommand.self]
    )
}

struct BaselineRecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "Runs the scenario and stores its baseline.")

    @OptionGroup var workload: RunWorkloadArguments

    @Option(help: "Runs to take the medians of.", transform: OptionValue.integer(in: 1...1000))
    var repetitions = 5

    @Option(help: "The baseline file (default: Baselines/<scenario>.json).")
    var file: String?

    func run() async throws {
        let (plan, options): (RunPlan, RunOptions)
        let count = repetitions
        do {
            (plan, options) = try workload.resolve()
        } catch let error as InvalidInput {
            throw failure("baseline record", error.message, status: HarnessExit.invalidInput)
        }
        let path = file ?? "Baselines/\(plan.scenario.name).json"
        let measurement = try await measure(plan, options, count, command: "baseline record")
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try writeOutput(try BaselineJSON.encode(measurement), to: path)
        } catch {
            throw failure("baseline record", "cannot write \(path): \(error)", status: HarnessExit.internalError)
        }
        let throughput = measurement.metrics["total.events_per_s"].map { Summary.compact($0.value) } ?? "?"
        print("recorded \(path): \(measurement.repetitions) runs of \(plan.scenario.name) (\(measurement.users) users × \(measurement.days) days, "
            + "\(measurement.tasks) tasks), median \(throughput) events/s, calibration \(Summary.compact(measurement.calibration.score)) "
            + "on \(measurement.machine.summary)")
    }
}

struct BaselineCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Runs the scenario as recorded and compares it with its baseline.",
        discussion: "Seed, users, days and tasks are the baseline's unless given (then they must match it)."
    )

    @OptionGroup var workload: RunWorkloadArguments

    @Option(help: "Runs to take the medians of.", transform: OptionValue.integer(in: 1...1000))
    var repetitions = 3

    @Option(help: "The baseline file (default: Baselines/<scenario>.json).")
    var file: String?

    @Option(help: "A relative tolerance as METRIC=FRACTION (METRIC may end in *), e.g. total.events_per_s=0.1; repeatable.",
            transform: BaselineCheckCommand.tolerance)
    var tolerance: [(metric: String, fraction: Double)] = []
    @Option(help: ArgumentHelp(
        "A tolerance table (JSON, docs/run.md): its baseline gate's tolerances replace the defaults of the metrics it names.",
        discussion: "--tolerance still overrides the relative part of any metric, after the table."))
    var tolerances: String?
    @Option(help: ArgumentHelp(
        "Which metrics can fail the check: portable or all.",
        discussion: """
            portable (the default) judges what holds from one runner to another: counts, allocations, memory, and CPU \
            time scaled by the CPU calibration measured beside the runs. Wall-clock times and rates are compared and \
            shown, never failed: a slower or busier runner moves them. all judges them too (a dedicated, quiet runner).
            """))
    var gate: BaselineGateOption = .portable

    /// `METRIC=FRACTION`.
    @Sendable static func tolerance(_ text: String) throws -> (metric: String, fraction: Double) {
        let parts = text.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, let value = Double(parts[1]), value >= 0 else { throw ValidationError("must be METRIC=FRACTION, not '\(text)'") }
        return (String(parts[0]), value)
    }

    func run() async throws {
        var (plan, options): (RunPlan, RunOptions)
        let count = repetitions
        let baseline: BaselineMeasurement
        var relativeTolerances: [String: Double] = [:]
        var table: ToleranceTable?
        do {
            (plan, options) = try workload.resolve()
            let path = file ?? "Baselines/\(plan.scenario.name).json"
            guard let data = FileManager.default.contents(atPath: path) else { throw InvalidInput(message: "cannot read the baseline \(path)") }
            do { baseline = try BaselineJSON.decode(data) } catch { throw InvalidInput(message: "\(path): \(error.message)") }
            guard baseline.scenario == plan.scenario.name else {
                throw InvalidInput(message: "\(path) is a baseline of '\(baseline.scenario)', not of '\(plan.scenario.name)'")
            }
            try match(workload.size.users, baseline.users, "--users")
            try match(workload.size.days, baseline.days, "--days")
            try match(workload.size.seed, baseline.seed, "--seed")
            try match(workload.tasks, baseline.tasks, "--tasks")
            plan.scenario.users = baseline.users
            plan.scenario.days = baseline.days
            options.seed = baseline.seed
            options.tasks = baseline.tasks
            for (metric, fraction) in tolerance { relativeTolerances[metric] = fraction }
            if let tolerances {
                do { table = try ToleranceTable.load(tolerances) } catch { throw InvalidInput(message: error.description) }
                guard table?.gates["baseline"] != nil else { throw InvalidInput(message: "\(tolerances): gates.baseline is missing") }
            }
        } catch let error as InvalidInput {
            throw failure("baseline check", error.message, status: HarnessExit.invalidInput)
        }
        let current = try await measure(plan, options, count, command: "baseline check")
        let report = BaselineReport(
            baseline: baseline, current: current, table: table, relativeTolerances: relativeTolerances, gate: gate.value)
        print(Summary.render(report, scenario: plan.scenario.name, baseline: baseline, current: current, style: stdoutStyle), terminator: "")
        if !report.passed { throw HarnessExit.failed.code }
    }

    private func match<T: Equatable>(_ given: T?, _ recorded: T, _ name: String) throws {
        guard let given else { return }
        guard given == recorded else { throw InvalidInput(message: "\(name) \(given) differs from the baseline's \(recorded)") }
    }
}

/// `--gate`: which metrics can fail `baseline check`.
enum BaselineGateOption: String, ExpressibleByArgument, CaseIterable {
    case portable, all

    var value: BaselineGate { self == .all ? .all : .portable }
}

/// Runs the baseline measurement, mapping failures to exit statuses.
private func measure(_ plan: RunPlan, _ options: RunOptions, _ repetitions: Int, command: String) async throws -> BaselineMeasurement {
    do {
        guard let service = ServiceSession.load else {
            return try await cancellingOnInterrupt { try await BaselineRunner.measure(plan, options: options, repetitions: repetitions) }
        }
        // A user's service (`SimHarness.main(service:)`): each run is load mode's, --tasks its clients.
        let clients = options.tasks
        return try await cancellingOnInterrupt {
            try await BaselineRunner.measure(plan, options: options, repetitions: repetitions) { plan, options in
                var load = ServiceLoadRunner.Options(clients: clients, seed: options.seed ?? plan.scenario.seed)
                load.maxAttempts = options.maxAttempts
                return try await service.run(plan, load)
            }
        }
    } catch is CancellationError {
        throw failure(command, "interrupted", status: HarnessExit.interrupted)
    } catch let error as BaselineError {
        throw failure(command, error.message, status: HarnessExit.internalError)
    } catch {
        throw failure(command, "\(error)", status: HarnessExit.internalError)
    }
}
