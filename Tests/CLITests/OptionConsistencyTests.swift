import Foundation
import Testing
import TestSupport

/// Every command reads its options the same way: a bad value is a usage error (status 2) that
/// names the option and what it allows.
@Suite("Options are typed alike in every command", .budget(minutes: 2))
struct OptionConsistencyTests {
    @Test("a bad option value is a usage error naming the option and what it allows", arguments: [
        (["analyze", "--input", "x", "--out", "y", "--tasks", "0"], "--tasks", "must be an integer in 1...1024, not '0'"),
        (["generate", "--scenario", "smoke", "--out", "/tmp/unused-generate", "--tasks", "zero"], "--tasks", "must be an integer in 1...1024"),
        (["generate", "--scenario", "smoke", "--out", "/tmp/unused-generate", "--format", "xml"], "--format", "xml"),
        (["generate", "--scenario", "smoke", "--out", "/tmp/unused-generate", "--users", "0"], "--users", "must be an integer in 1...9999999"),
        (["run", "--tasks", "0"], "--tasks", "must be an integer in 1...1024, not '0'"),
        (["run", "--shard", "2/2"], "--shard", "must be k/n with 0 <= k < n, or env/n, not '2/2'"),
        (["run", "--seed=-1"], "--seed", "must be an integer in 0..."),
        (["run", "--interval", "50ms"], "--interval", "must be a duration from 100ms to 60m"),
        (["run", "--interval", "9999999999999999m"], "--interval", "must be a duration from 100ms to 60m"),
        (["baseline", "record", "--repetitions", "0"], "--repetitions", "must be an integer in 1...1000, not '0'"),
        (["baseline", "check", "--tolerance", "total"], "--tolerance", "must be METRIC=FRACTION, not 'total'"),
        (["simulate", "--tasks", "0"], "--tasks", "must be an integer in 1...1024, not '0'"),
        (["simulate", "--seed", "0xZZ"], "--seed", "must be an integer in 0...18446744073709551615, decimal or 0x hex, not '0xZZ'"),
        (["simulate", "--time-limit", "soon"], "--time-limit", "must be a positive duration up to 8760h such as 500ms, 30s, 5m or 1h30m"),
        (["run", "--duration", "soon"], "--duration", "must be a positive duration up to 8760h such as 500ms, 30s, 5m or 1h30m"),
    ])
    func badValue(arguments: [String], option: String, message: String) throws {
        // When a command gets a value its option does not allow
        let sut = try SimHarnessProcess.run(arguments)
        // Then it stops before doing anything, with the usage status and a message naming the option
        #expect(sut.status == 2, "\(sut.stderr)")
        #expect(sut.stderr.contains(option), "\(sut.stderr)")
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("every command exits 2 for an unknown option, a missing value or a bad one, with the reason on stderr", arguments: [
        (["run", "--bogus"], "Unknown option '--bogus'"),
        (["analyze", "--input", "x", "--out", "y", "--bogus"], "Unknown option '--bogus'"),
        (["generate", "--scenario", "smoke", "--out", "/tmp/unused-generate", "--bogus"], "Unknown option '--bogus'"),
        (["merge", "r.json", "--bogus"], "Unknown option '--bogus'"),
        (["report", "r.json", "--markdown", "-", "--bogus"], "Unknown option '--bogus'"),
        (["baseline", "check", "--bogus"], "Unknown option '--bogus'"),
        (["baseline", "record", "--bogus"], "Unknown option '--bogus'"),
        (["simulate", "--bogus"], "Unknown option '--bogus'"),
        (["simulate", "--seeds", "-5"], "--seeds"),
        (["simulate", "--seeds", "x"], "'--seeds <seeds>': must be an integer"),
        (["--bogus"], "Unknown option '--bogus'"),
        (["nosuchcommand"], "nosuchcommand"),
    ])
    func badOptionOfEveryCommand(arguments: [String], message: String) throws {
        // When a command is given an option it does not know, or a value it does not allow
        let sut = try SimHarnessProcess.run(arguments)
        // Then it exits 2 (not ArgumentParser's 64) and says why
        #expect(sut.status == 2, "\(sut.stderr)")
        #expect(sut.stderr.contains(message), "\(sut.stderr)")
    }

    @Test("generate exits 3 when its output cannot be written, as run and report do")
    func generateCannotWrite() throws {
        // Given an output directory under a regular file
        let scratch = try ScratchDirectory(prefix: "cli-tests")
        try "x".write(toFile: scratch.file("file"), atomically: true, encoding: .utf8)
        // When generate is asked to write there
        let sut = try SimHarnessProcess.run(["generate", "--scenario", "smoke", "--users", "2", "--days", "1", "--out", scratch.file("file/out")])
        // Then it exits 3, the status of an output that cannot be written
        #expect(sut.status == 3, "\(sut.stderr)")
        #expect(sut.stderr.contains("simharness generate: cannot create the output directory"), "\(sut.stderr)")
    }

    @Test("--version prints the tool's version, the one the manifest records, and the commit built")
    func version() throws {
        // When asked for its version
        let sut = try SimHarnessProcess.run(["--version"])
        // Then it prints the version and an abbreviated commit of this repository, and succeeds (the
        // commit built, which is HEAD's unless a commit was made since the build)
        #expect(sut.status == 0)
        let line = sut.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let pattern = /^\d+\.\d+\.\d+ \(commit ([0-9a-f]{12})\)$/
        let commit = try #require(line.wholeMatch(of: pattern), "\(line)").output.1
        #expect(try git(["cat-file", "-t", String(commit)]) == "commit", "\(line)")
    }

    @Test("generate takes --tasks like run and analyze, and still --jobs, its old name", arguments: ["--tasks", "--jobs"])
    func generateTasks(option: String) throws {
        // Given an empty directory
        let out = try ScratchDirectory(prefix: "cli-tests")
        // When a tiny dataset is generated with two tasks
        let sut = try SimHarnessProcess.run(["generate", "--scenario", "smoke", "--users", "5", "--days", "1", "--out", out.path, option, "2"])
        // Then it is written
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.file("meals.csv")))
    }
}

/// What `git` prints, trimmed, for `arguments` in this repository.
private func git(_ arguments: [String]) throws -> String {
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "-C", repository.path] + arguments
    let out = Pipe()
    git.standardOutput = out
    git.standardError = FileHandle.nullDevice
    try git.run()
    let text = out.fileHandleForReading.readDataToEndOfFile()
    git.waitUntilExit()
    return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
