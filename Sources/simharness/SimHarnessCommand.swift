import ArgumentParser
import Simulation

@main
struct SimHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simharness",
        abstract: "Load-tests the fasting, step and payment algorithms with simulated data.",
        version: Manifest.toolVersion,
        subcommands: [AnalyzeCommand.self, GenerateCommand.self, RunCommand.self, BaselineCommand.self, MergeCommand.self, ReportCommand.self, SimulateCommand.self]
    )
}
