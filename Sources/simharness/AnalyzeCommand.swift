import ArgumentParser

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Reads a dataset directory and writes the outputs of SPEC §5."
    )

    @Option(help: "Directory holding users, meals, steps and payments files.")
    var input: String

    @Option(help: "Directory to write the output files to.")
    var out: String

    func run() async throws {
        throw ExitCode(1)
    }
}
