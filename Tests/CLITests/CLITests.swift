import Foundation
import Testing
import TestSupport

/// The repository's root, found from this source file.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("simharness analyze from the command line", .budget(minutes: 2))
struct AnalyzeCLITests {
    let sample = repository.appendingPathComponent("Tests/AnalysisTests/Fixtures/sample")
    let expected = repository.appendingPathComponent("Tests/AnalysisTests/Fixtures/sample-expected")

    @Test("the sample dataset gives the committed expected files and exit status 0")
    func sampleDataset() throws {
        // Given an empty output directory
        let out = try ScratchDirectory(prefix: "cli-tests")
        // When analyze runs on the sample
        let sut = try SimHarnessProcess.run(["analyze", "--input", sample.path, "--out", out.path, "--tasks", "2"])
        // Then it succeeds and every file matches
        #expect(sut.status == 0, "\(sut.stderr)")
        #expect(sut.stdout.contains("analyzed 73 rows (33 rejected)"))
        let names = try FileManager.default.contentsOfDirectory(atPath: expected.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == names)
        for name in names {
            let got = try String(contentsOfFile: out.file(name), encoding: .utf8)
            let want = try String(contentsOf: expected.appendingPathComponent(name), encoding: .utf8)
            #expect(got == want, "\(name) differs")
        }
    }

    @Test("a refused input exits 2, names file, line and reason, and writes nothing")
    func refusedInput() throws {
        // Given a meals file without its user_id column
        let input = try ScratchDirectory(prefix: "cli-tests")
        let out = input.file("out")
        try FileManager.default.copyItem(atPath: sample.appendingPathComponent("users.csv").path, toPath: input.file("users.csv"))
        try "meal_id,start\nm1,5\n".write(toFile: input.file("meals.csv"), atomically: true, encoding: .utf8)
        // When analyze runs
        let sut = try SimHarnessProcess.run(["analyze", "--input", input.path, "--out", out])
        // Then it exits 2 with a message naming the file, line and reason, and no output file exists
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("meals.csv:1: missing required column 'user_id'"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? [] == [])
    }

    @Test("usage errors exit 2, as in every command", arguments: [
        ["analyze", "--input", "x"], ["analyze", "--input", "x", "--out", "y", "--max-attempts", "0"],
        ["analyze", "--input", "x", "--out", "y", "--min-fast", "-1"], ["analyze", "--input", "x", "--out", "y", "--tasks", "0"],
    ])
    func usageErrors(arguments: [String]) throws {
        // When the arguments are invalid
        let sut = try SimHarnessProcess.run(arguments)
        // Then the CLI's one status for a bad option is returned (SPEC §5 allows 64; the CLI chooses 2 everywhere)
        #expect(sut.status == 2)
    }

    @Test("a missing input directory is refused with status 2")
    func missingDirectory() throws {
        let sut = try SimHarnessProcess.run(["analyze", "--input", "/nonexistent/simharness", "--out", "/tmp/unused"])
        #expect(sut.status == 2)
        #expect(sut.stderr.contains("/nonexistent/simharness"))
    }
}
