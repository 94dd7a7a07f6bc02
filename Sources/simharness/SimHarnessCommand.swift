import ArgumentParser

@main
struct SimHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simharness",
        abstract: "Load-tests the fasting, step and payment algorithms with simulated data.",
        subcommands: [AnalyzeCommand.self, GenerateCommand.self, RunCommand.self, BaselineCommand.self, MergeCommand.self]
    )
}
