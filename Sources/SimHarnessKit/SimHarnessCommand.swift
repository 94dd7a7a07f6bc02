@_exported import HealthCore
@_exported import PaymentsCore
@_exported import ServiceSimulation
@_exported import UserAlgorithms
import ArgumentParser
import Foundation
@_spi(Tooling) import Generation
import SpecKernel

/// The `simharness` command line, for the SPEC's own implementations or for yours.
public enum SimHarness {
    /// The whole `simharness` tool: every command, the SPEC reference implementations.
    public static func main() async {
        await SimHarnessCommand.mainWithHarnessExits()
    }

    /// A command line that load-tests your implementations: `run`, `baseline`, `merge`, `generate`
    /// and `report`, with the same scenarios, thresholds, metrics and exit statuses as
    /// `simharness`. The algorithms you do not give are the reference's. A run checks yours
    /// against the reference unless told `--no-check`.
    ///
    /// ```swift
    /// @main struct Load {
    ///     static func main() async { await SimHarness.main(fasting: MyAnalyzer.self) }
    /// }
    /// ```
    public static func main(
        fasting: (any FastingAnalyzing.Type)? = nil, steps: (any StepAggregating.Type)? = nil, payments: (any PaymentProcessing.Type)? = nil
    ) async {
        let reference = Implementations.reference
        let implementations = Implementations(
            fasting: fasting ?? reference.fasting, steps: steps ?? reference.steps, payments: payments ?? reference.payments
        )
        await Session.$implementations.withValue(implementations) { await CustomHarnessCommand.mainWithHarnessExits() }
    }
}

/// What the command line was started with.
enum Session {
    /// The implementations `run` and `baseline` drive.
    @TaskLocal static var implementations = Implementations.reference
}

struct SimHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simharness",
        abstract: "Load-tests the fasting, step and payment algorithms with simulated data.",
        version: toolVersionLine,
        subcommands: [AnalyzeCommand.self, GenerateCommand.self, RunCommand.self, BaselineCommand.self, MergeCommand.self, ReportCommand.self, SimulateCommand.self]
    )
}

/// The release of SimHarness (`--version`, `manifest.json`); docs/versioning.md says how it moves.
let toolVersion = "0.1.0"

/// What `--version` prints: the release and the commit built (`0.1.0 (commit 9293f50c1d2e)`).
let toolVersionLine = "\(toolVersion) (commit \(buildCommit))"

/// The command line of a user's own executable (`SimHarness.main(fasting:steps:payments:)`).
struct CustomHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: URL(fileURLWithPath: CommandLine.arguments.first ?? "simharness").lastPathComponent,
        abstract: "Load-tests your implementations of the fasting, step and payment algorithms with simulated data, "
            + "and checks them against the SPEC reference (simharness \(toolVersion)).",
        version: toolVersionLine,
        subcommands: [RunCommand.self, BaselineCommand.self, MergeCommand.self, GenerateCommand.self, ReportCommand.self]
    )
}
