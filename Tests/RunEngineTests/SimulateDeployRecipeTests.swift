import Foundation
import Testing
import TestSupport
import Yams

/// The `simulate` recipes in `deploy/` run here as a cluster or a CI matrix would run them: the
/// commands read from the manifests, with their environment (the swarm swapped for a small one); the
/// merged summary must equal, byte for byte, the unsharded run's.
@Suite("deploy/ recipes for simulate, run on this machine", .budget(minutes: 3))
struct SimulateDeployRecipeTests {
    /// The small swarm the recipes run here instead of their million seeds.
    static let swarm = ["SEEDS": "9", "FROM": "40"]

    /// The unsharded run of `swarm`'s worlds, as JSON.
    private func unshardedSummary(in directory: ScratchDirectory) throws -> Data {
        let whole = try SimHarnessProcess.run(["simulate", "--seeds", "9", "--from", "40", "--json", directory.file("whole.json")])
        try #require(whole.status == 0, "\(whole.stderr)")
        return try #require(contents(directory.file("whole.json")))
    }

    /// The `/bin/sh -c` script of the one container of the Job in `file`, with the Job's spec and the
    /// container's environment.
    private func jobScript(_ file: String) throws -> (job: [String: Any], script: String, environment: [String: String]) {
        let documents = try Yams.load_all(yaml: String(contentsOf: DeployRecipe.folder.appendingPathComponent(file), encoding: .utf8))
        let job = try #require(documents.compactMap { $0 as? [String: Any] }.first { ($0["kind"] as? String) == "Job" }?["spec"] as? [String: Any])
        let container = try #require((((job["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?.first)
        let command = try #require(container["command"] as? [String]) + (try #require(container["args"] as? [String]))
        #expect(command.prefix(2) == ["/bin/sh", "-c"])
        let environment = (container["env"] as? [[String: String]] ?? []).map { ($0["name"]!, $0["value"]!) }
        return (job, command[2], Dictionary(uniqueKeysWithValues: environment))
    }

    @Test func theKubernetesIndexedJobAndItsMergeEqualTheUnshardedSwarm() throws {
        // Given the Indexed Job's shard container and the merge container, as the manifests hold them
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let whole = try unshardedSummary(in: directory)
        let shards = try jobScript("kubernetes/simulate-shards.yaml")
        let merge = try jobScript("kubernetes/simulate-merge.yaml")
        let completions = try #require(shards.job["completions"] as? Int)
        #expect(shards.job["parallelism"] as? Int == completions)
        #expect(shards.job["completionMode"] as? String == "Indexed")
        #expect(shards.environment["SHARDS"] == "\(completions)")

        // When each index runs as Kubernetes runs it (JOB_COMPLETION_INDEX set), the shared volume being
        // a folder here, and then the merge runs
        let volume = directory.file("results")
        try FileManager.default.createDirectory(atPath: volume, withIntermediateDirectories: true)
        for index in 0..<completions {
            let environment = shards.environment.merging(Self.swarm) { _, small in small }.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { _, new in new }
            let pod = try DeployRecipe.shell(shards.script.replacingOccurrences(of: "/results", with: volume), environment: environment, in: directory.path)
            try #require(pod.status == 0, "\(pod.output)")
        }
        let merged = try DeployRecipe.shell(merge.script.replacingOccurrences(of: "/results", with: volume), environment: [:], in: directory.path)

        // Then the merge succeeds and its summary is the unsharded run's
        #expect(merged.status == 0, "\(merged.output)")
        #expect(contents(volume + "/simulate.json") == whole)
    }

    @Test func theGitHubActionsMatrixAndItsMergeJobEqualTheUnshardedSwarm() throws {
        // Given the workflow's shard step, run once per matrix entry, and its merge step
        let directory = try ScratchDirectory(prefix: "harness-tests")
        let whole = try unshardedSummary(in: directory)
        let workflow = try #require(try Yams.load(yaml: String(
            contentsOf: DeployRecipe.folder.appendingPathComponent("github-actions/simharness-simulate.yml"), encoding: .utf8
        )) as? [String: Any])
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        let matrix = try #require((((jobs["shard"] as? [String: Any])?["strategy"] as? [String: Any])?["matrix"] as? [String: Any])?["shard"] as? [Int])
        func step(_ job: String, _ name: String) throws -> String {
            let steps = try #require((jobs[job] as? [String: Any])?["steps"] as? [[String: Any]])
            let script = try #require(steps.first { $0["name"] as? String == name }?["run"] as? String)
            return script.replacingOccurrences(of: ".build/release/simharness", with: SimHarnessProcess.executable.path)
        }
        let environment = try #require(workflow["env"] as? [String: Any]).mapValues { "\($0)" }.merging(Self.swarm) { _, small in small }
        #expect(environment["SHARDS"] == "\(matrix.count)")

        // When each matrix entry runs its step (SIMHARNESS_SHARD_INDEX from the matrix), and then the merge
        // job runs on the downloaded summaries, its text going to GITHUB_STEP_SUMMARY
        for shard in matrix {
            let run = try DeployRecipe.shell(
                try step("shard", "Run the shard"), environment: environment.merging(["SIMHARNESS_SHARD_INDEX": "\(shard)"]) { _, new in new },
                in: directory.path)
            try #require(run.status == 0, "\(run.output)")
        }
        let page = directory.file("step-summary.md")
        let merged = try DeployRecipe.shell(
            try step("merge", "Merge"), environment: environment.merging(["GITHUB_STEP_SUMMARY": page]) { _, new in new }, in: directory.path)

        // Then the merged summary is the unsharded run's, and it is posted to the run's page
        #expect(merged.status == 0, "\(merged.output)")
        #expect(contents(directory.file("results/simulate.json")) == whole)
        #expect(String(decoding: contents(page) ?? Data(), as: UTF8.self).contains("simulate: 9 worlds (seeds 0x28…0x30), store memory"))
    }
}
