import ArgumentParser
import Foundation

/// The exit statuses of every command (docs/exit-codes.md): one convention for the whole CLI, and
/// the one type a command exits with (`throw HarnessExit.failed.code`, `failure(_:_:status:)`).
enum HarnessExit: Int32, CaseIterable {
    /// Done: every threshold held, no regression, no violation, the files were written.
    case success = 0
    /// The check failed: a threshold, a regression, a violation; for `analyze`, any failure other
    /// than a refused input (SPEC §5).
    case failed = 1
    /// Bad options or values (an unknown option, a value an option does not allow, an impossible
    /// mix), or input the command cannot use (scenario, dataset, result, baseline or store file).
    case invalidInput = 2
    /// The tool itself failed (an output file could not be written, …).
    case internalError = 3
    /// Interrupted by Ctrl-C (128 + SIGINT); the summary covers what was done.
    case interrupted = 130

    /// The status as ArgumentParser ends a command with it.
    var code: ExitCode { ExitCode(rawValue) }
}

extension AsyncParsableCommand {
    /// Parses the command line and runs the command it names, as ArgumentParser's `main()` does,
    /// except that a bad option or value exits `HarnessExit.invalidInput` (2), not the library's 64,
    /// with the library's message and usage on stderr.
    static func mainWithHarnessExits(_ arguments: [String]? = nil) async {
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(HarnessExit.invalidInput.rawValue)
        }
    }
}
