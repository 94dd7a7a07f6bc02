import ArgumentParser
@_spi(Tooling) import Export
import Foundation
import Datasets
@_spi(Tooling) import RunEngine
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// `run --dump-user`: writes one user's input rows, as `generate` would, so that a mismatch the
/// check lists becomes a test case of its own (`analyze` reads the folder).
struct UserDumpArguments: ParsableArguments {
    @Option(help: """
        Write this user's input rows (users, meals, steps and payments CSV files, as generate writes them, with the \
        run's scenario, seed, --users and --days) to --dump-dir and exit without running; analyze reads the folder. \
        The user as the check lists it (u0000042) or its index (42); a boundary user the check adds too.
        """, transform: OptionValue.userIndex)
    var dumpUser: Int?

    @Option(help: "The folder --dump-user writes (created if missing; default: the user id, e.g. u0000042).")
    var dumpDir: String?

    func validate() throws {
        if dumpDir != nil, dumpUser == nil { throw ValidationError("--dump-dir goes with --dump-user") }
    }

    /// Writes the user's rows when `--dump-user` was given; returns whether it did.
    func writeIfAsked(_ plan: RunPlan, seed: UInt64?) async throws -> Bool {
        guard let index = dumpUser else { return false }
        let id = Ids.user(UInt32(index))
        let simulator = Simulator(scenario: plan.scenario, seed: seed)
        let population = BoundaryPopulation(after: plan.scenario, seed: simulator.seed)
        guard index < plan.scenario.users || population.contains(index) else {
            let last = { Ids.user(UInt32($0 - 1)) }
            throw failure("run", "--dump-user \(id): the scenario has \(plan.scenario.users) users (u0000000 to \(last(plan.scenario.users))), "
                          + "the check \(BoundaryPopulation.size) boundary users (\(Ids.user(UInt32(plan.scenario.users))) to \(last(population.users.users.upperBound)))",
                          status: HarnessExit.invalidInput)
        }
        let folder = dumpDir ?? id
        let generator = population.contains(index) ? population.simulator : simulator
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let manifest = try await DatasetExport.run(generator, selection: UserSelection(users: index..<index + 1), options: ExportOptions(directory: folder, toolVersion: toolVersion))
            let files = manifest.files.values.sorted { $0.path < $1.path }.map { "\(($0.path as NSString).lastPathComponent) \($0.rows)" }
            print("wrote the input rows of \(id) (scenario \(plan.scenario.name), seed \(simulator.seed)) to \(folder): \(files.joined(separator: ", "))")
        } catch {
            throw failure("run", "cannot write \(id)'s rows to \(folder): \(error)", status: HarnessExit.internalError)
        }
        return true
    }
}

extension OptionValue {
    /// A user as the check lists it (`u0000042`) or its index (`42`).
    @Sendable static func userIndex(_ text: String) throws -> Int {
        let digits = text.first == "u" ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let index = Int(digits), (0...Scenario.maximumUsers).contains(index) else {
            throw ValidationError("must be a user id such as u0000042 or an index such as 42, not '\(text)'")
        }
        return index
    }
}
