import Foundation
@_spi(Tooling) import RunResults
import Testing
@_spi(Tooling) import RunEngine
import TestSupport
import Yams

/// The recipes in `deploy/` run here exactly as a cluster or a CI matrix would run them: the same
/// commands, read from the manifests, with the same environment variables (the scenario swapped
/// for a small fixed one); their merged result must equal the unsharded run's.
@Suite("deploy/ recipes, run on this machine", .budget(minutes: 3))
struct DeployRecipeTests {
    static let deploy = DeployRecipe.folder

    /// A small fixed scenario in `directory`, and its unsharded result.
    private func unshardedRun(in directory: ScratchDirectory) throws -> (scenario: String, result: RunResult) {
        let scenario = directory.file("tiny.yaml")
        try "name: tiny\nseed: 9\nusers: 120\ndays: 3\nthresholds:\n  - invariant_violations == 0\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let whole = try SimHarnessProcess.run(["run", "--scenario", scenario, "--json", directory.file("whole.json")])
        try #require(whole.status == 0, "\(whole.stderr)")
        return (scenario, try ResultJSON.decode(try #require(contents(directory.file("whole.json")))))
    }

    private func expectSameWork(_ merged: RunResult, _ whole: RunResult, shards: Int) {
        #expect(merged.shards.count == shards)
        #expect(merged.metrics.users == whole.metrics.users)
        #expect(merged.metrics.events == whole.metrics.events)
        #expect(merged.metrics.meals.rejected == whole.metrics.meals.rejected)
        #expect(merged.metrics.steps.rejected == whole.metrics.steps.rejected)
        #expect(merged.metrics.payments.rejected == whole.metrics.payments.rejected)
        #expect(merged.metrics.paymentStates == whole.metrics.paymentStates)
        #expect(merged.digestText == whole.digestText)
    }

    @Test func theKubernetesIndexedJobAndItsMergeEqualTheUnshardedRun() throws {
        // Given the Indexed Job's shard container and the merge container, as the manifests hold them
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let (scenario, whole) = try unshardedRun(in: directory)
        let shards = try Yams.load_all(yaml: String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/shards.yaml"), encoding: .utf8))
            .compactMap { $0 as? [String: Any] }.first { ($0["kind"] as? String) == "Job" }
        let job = try #require(shards?["spec"] as? [String: Any])
        let completions = try #require(job["completions"] as? Int)
        #expect(job["parallelism"] as? Int == completions)
        #expect(job["completionMode"] as? String == "Indexed")
        let container = try #require(((job["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]]).first
        let shardCommand = try #require(container?["command"] as? [String]) + (try #require(container?["args"] as? [String]))
        var environment = Dictionary(uniqueKeysWithValues: try #require(container?["env"] as? [[String: String]]).map { ($0["name"]!, $0["value"]!) })
        #expect(environment["SHARDS"] == "\(completions)")
        environment["SCENARIO"] = scenario
        let merge = try Yams.load(yaml: String(contentsOf: Self.deploy.appendingPathComponent("kubernetes/merge.yaml"), encoding: .utf8)) as? [String: Any]
        let mergeContainer = try #require(((((merge?["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?.first)
        let mergeCommand = try #require(mergeContainer["command"] as? [String]) + (try #require(mergeContainer["args"] as? [String]))
        #expect(shardCommand.prefix(2) == ["/bin/sh", "-c"] && mergeCommand.prefix(2) == ["/bin/sh", "-c"])

        // When each index runs as Kubernetes runs it (JOB_COMPLETION_INDEX set), the shared volume
        // being a folder here, and then the merge runs
        let volume = directory.file("results")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        for index in 0..<completions {
            var podEnvironment = environment
            podEnvironment["JOB_COMPLETION_INDEX"] = "\(index)"
            let pod = try DeployRecipe.shell(shardCommand[2].replacingOccurrences(of: "/results", with: volume), environment: podEnvironment, in: directory.path)
            try #require(pod.status == 0, "\(pod.output)")
        }
        let merged = try DeployRecipe.shell(mergeCommand[2].replacingOccurrences(of: "/results", with: volume), environment: [:], in: directory.path)

        // Then the merge succeeds, writes its reports, and counts what the unsharded run counts
        #expect(merged.status == 0, "\(merged.output)")
        expectSameWork(try ResultJSON.decode(try #require(contents(volume + "/merged.json"))), whole, shards: completions)
        for report in ["report.html", "summary.md", "junit.xml", "metrics.txt"] {
            #expect(FileManager.default.fileExists(atPath: volume + "/" + report), "\(report)")
        }
    }

    @Test func theGitHubActionsMatrixAndItsMergeJobEqualTheUnshardedRun() throws {
        // Given the workflow's shard step, run once per matrix entry, and its merge step
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let (scenario, whole) = try unshardedRun(in: directory)
        let workflow = try #require(try Yams.load(yaml: String(
            contentsOf: Self.deploy.appendingPathComponent("github-actions/simharness-shards.yml"), encoding: .utf8
        )) as? [String: Any])
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let shardJob = try #require(jobs["shard"] as? [String: Any])
        let matrix = try #require(((shardJob["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["shard"] as? [Int])
        func step(_ job: String, _ name: String) throws -> String {
            let steps = try #require((jobs[job] as? [String: Any])?["steps"] as? [[String: Any]])
            return try #require(steps.first { $0["name"] as? String == name }?["run"] as? String)
        }
        let binary = SimHarnessProcess.executable.path
        let runShard = try step("shard", "Run the shard").replacingOccurrences(of: ".build/release/simharness", with: binary)
        let mergeAndReport = try step("merge", "Merge and report").replacingOccurrences(of: ".build/release/simharness", with: binary)
        var environment = try #require(workflow["env"] as? [String: Any]).mapValues { "\($0)" }
        #expect(environment["SHARDS"] == "\(matrix.count)")
        environment["SCENARIO"] = scenario

        // When each matrix entry runs its step (SIMHARNESS_SHARD_INDEX from the matrix), and then the
        // merge job runs on the downloaded results, its summary going to GITHUB_STEP_SUMMARY
        for shard in matrix {
            let run = try DeployRecipe.shell(runShard, environment: environment.merging(["SIMHARNESS_SHARD_INDEX": "\(shard)"]) { _, new in new }, in: directory.path)
            try #require(run.status == 0, "\(run.output)")
        }
        let summary = directory.file("step-summary.md")
        let merged = try DeployRecipe.shell(mergeAndReport, environment: environment.merging(["GITHUB_STEP_SUMMARY": summary]) { _, new in new }, in: directory.path)

        // Then the merged result counts what the unsharded run counts, and the summary is posted
        #expect(merged.status == 0, "\(merged.output)")
        expectSameWork(try ResultJSON.decode(try #require(contents(directory.file("results/merged.json")))), whole, shards: matrix.count)
        #expect(String(decoding: contents(summary) ?? Data(), as: UTF8.self).hasPrefix("### SimHarness · tiny: 🟢 passed"))
        #expect(FileManager.default.fileExists(atPath: directory.file("results/report.html")))
    }
}
