import Foundation
import MutationKit

/// simharness-mutate: the mutation score of SimHarness's reference algorithms (docs/mutation.md).
let usage = """
    usage: simharness-mutate list [--repo DIR] [--out DIR]
           simharness-mutate run [--repo DIR] [--out DIR] [--scenario NAME|FILE] [--sample N] [--seed TEXT] [--only ID,…] [--keys FILE]
                                 [--jobs N] [--timeout SECONDS] [--configuration debug|release] [--equivalents FILE] [--open FILE] [--no-build] [--scratch-path DIR]
                                 [-- RUN-ARGS…]
      list  generates the schemata package (default DIR/.build-mutants) and prints every mutant: id, file:line, key
      run   generates and builds it, checks that the original passes, then runs `run --scenario NAME` once per mutant
            (SIMHARNESS_MUTANT=id) and prints the score and the survivors; --equivalents (default Mutation/equivalent-mutants.txt)
            lists the equivalent mutants, --open (default Mutation/open-survivors.txt) the known open survivors; --only and --keys (a file in the format of
            Mutation/equivalent-mutants.txt) choose mutants, --sample draws that many of them by --seed. Exit 0: every survivor is listed (equivalent or known open);
            1: a survivor is in neither list; 2: bad input, or the original fails the scenario.
    """

struct Options {
    var command = ""
    var repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var output: URL?
    var scenario = "edges"
    var sample: Int?
    var seed = "0"
    var only: [Int]?
    var jobs = 2
    var timeout: Int?
    var configuration = "debug"
    var equivalents: String?
    var open: String?
    var keys: String?
    var build = true
    var scratchPath: String?
    var runArguments: [String] = []

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        guard let command = rest.popFirst(), ["list", "run"].contains(command) else { throw MutationError(usage) }
        self.command = command
        while let argument = rest.popFirst() {
            if argument == "--no-build" {
                build = false
                continue
            }
            if argument == "--" {
                runArguments = Array(rest)
                break
            }
            guard let value = rest.popFirst() else { throw MutationError("\(argument): a value is missing\n\(usage)") }
            switch argument {
            case "--repo": repository = URL(fileURLWithPath: value)
            case "--out": output = URL(fileURLWithPath: value)
            case "--scenario": scenario = value
            case "--sample": sample = try Self.number(value, argument)
            case "--seed": seed = value
            case "--only": only = try value.split(separator: ",").map { try Self.number(String($0), argument) }
            case "--jobs": jobs = try Self.number(value, argument)
            case "--timeout": timeout = try Self.number(value, argument)
            case "--configuration":
                guard ["debug", "release"].contains(value) else { throw MutationError("--configuration: debug or release, not \(value)") }
                configuration = value
            case "--equivalents": equivalents = value
            case "--open": open = value
            case "--keys": keys = value
            case "--scratch-path": scratchPath = value
            default: throw MutationError("unknown option \(argument)\n\(usage)")
            }
        }
    }

    static func number(_ text: String, _ option: String) throws -> Int {
        guard let value = Int(text), value >= 0 else { throw MutationError("\(option): expected a number, not '\(text)'") }
        return value
    }

    var outputDirectory: URL { output ?? repository.appending(path: ".build-mutants") }
}

/// A line on stdout, written at once (the runs report from several threads).
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func shell(_ arguments: [String], log: URL) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

func tail(_ log: URL, lines: Int = 30) -> String {
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
}

func main() throws -> Int32 {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let directory = options.outputDirectory
    let mutants = try PackageWriter.generate(repository: options.repository, into: directory)
    if options.command == "list" {
        for mutant in mutants { say("\(mutant.id)\t\(mutant.file):\(mutant.line)\t\(mutant.key)") }
        return 0
    }
    let equivalentsPath = options.equivalents ?? options.repository.appending(path: "Mutation/equivalent-mutants.txt").path
    let equivalents = try Equivalents(
        parsing: (try? String(contentsOfFile: equivalentsPath, encoding: .utf8)) ?? "", file: equivalentsPath
    )
    let openPath = options.open ?? options.repository.appending(path: "Mutation/open-survivors.txt").path
    let open = try Equivalents(parsing: (try? String(contentsOfFile: openPath, encoding: .utf8)) ?? "", file: openPath)
    let keys = Set(mutants.map(\.key))
    for (path, list) in [(equivalentsPath, equivalents), (openPath, open)] {
        for stale in list.reasons.keys.sorted() where !keys.contains(stale) {
            say("mutation: \(path) lists a mutant the sources no longer have: \(stale)")
        }
    }
    for both in equivalents.reasons.keys.sorted() where open.reasons[both] != nil {
        say("mutation: \(both) is listed both as equivalent and as open: equivalent wins")
    }

    let started = Date()
    let configuration = ["-c", options.configuration] + (options.configuration == "release" ? ["-Xswiftc", "-enable-testing"] : [])
        + (options.scratchPath.map { ["--scratch-path", $0] } ?? [])
    let buildLog = directory.appending(path: "build.log")
    say("mutation: \(mutants.count) mutants generated in \(directory.path); building (\(options.configuration))…")
    let buildCommand = ["swift", "build", "--package-path", directory.path] + configuration
    // SwiftPM can keep a path dependency's old file list in its build description: a file added since is then
    // missing from the build. Once failed, the build is tried again without that description.
    let builds = try !options.build || shell(buildCommand, log: buildLog) == 0 || {
        let scratch = options.scratchPath.map { URL(fileURLWithPath: $0) } ?? directory.appending(path: ".build")
        try? FileManager.default.removeItem(at: scratch.appending(path: "\(options.configuration).yaml"))
        return try shell(buildCommand, log: buildLog) == 0
    }()
    guard builds else {
        say(tail(buildLog))
        throw MutationError("the schemata package did not build (log: \(buildLog.path))")
    }
    let binLog = directory.appending(path: "bin-path.log")
    _ = try shell(["swift", "build", "--package-path", directory.path, "--show-bin-path"] + configuration, log: binLog)
    let bin = tail(binLog, lines: 2).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last.map(String.init) ?? ""
    let built = Date().timeIntervalSince(started)
    say(String(format: "mutation: built in %.0f s", built))

    var runner = MutantRunner(
        executable: "\(bin)/\(PackageWriter.executable)", arguments: ["run", "--scenario", options.scenario, "--progress", "never"] + options.runArguments,
        jobs: options.jobs, timeoutSeconds: options.timeout ?? 600
    )
    let baselineLog = directory.appending(path: "original.log")
    let baselineStart = Date()
    let baseline = try runner.status(ofMutant: 0, log: baselineLog.path)
    let baselineSeconds = Date().timeIntervalSince(baselineStart)
    guard baseline == 0 else {
        say(tail(baselineLog))
        say("mutation: the original code fails `run --scenario \(options.scenario)` (exit \(baseline)): no mutant can be judged")
        return 2
    }
    if options.timeout == nil { runner.timeoutSeconds = max(10, Int(20 * baselineSeconds)) }
    say(String(format: "mutation: the original passes `run --scenario %@` in %.1f s; a mutant's run is killed after %d s",
                 options.scenario, baselineSeconds, runner.timeoutSeconds))

    var selected = mutants
    if let only = options.only {
        let unknown = Set(only).subtracting(mutants.map(\.id))
        guard unknown.isEmpty else { throw MutationError("--only: no mutant \(unknown.sorted())") }
        selected = mutants.filter { only.contains($0.id) }
    }
    if let keys = options.keys {
        let listed = try Equivalents(parsing: String(contentsOfFile: keys, encoding: .utf8), file: keys).reasons.keys
        selected = selected.filter { listed.contains($0.key) }
    }
    if let sample = options.sample { selected = MutantSample.draw(sample, of: selected, seed: options.seed) }
    say("mutation: running \(selected.count) of \(mutants.count) mutants, \(options.jobs) at a time (seed \(options.seed))…")
    let runStart = Date()
    let results = runner.run(selected, equivalents: equivalents, open: open) { result in
        if result.verdict == .survived { say("  survived: \(result.mutant.description)") }
        if result.verdict == .open { say("  OPEN (known, listed in \(openPath)): \(result.mutant.description)") }
    }
    let score = Score(results: results, seconds: Date().timeIntervalSince(runStart))
    say(score.report)
    say(String(format: "mutation: %.1f minutes in all (build %.0f s)", Date().timeIntervalSince(started) / 60, built))
    return score.survivors.isEmpty ? 0 : 1
}

do { exit(try main()) } catch { FileHandle.standardError.write(Data("simharness-mutate: \(error)\n".utf8)); exit(2) }
