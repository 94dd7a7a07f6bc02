import Foundation
@_spi(Tooling) import Scenarios

/// A scenario and what `simharness run` reads from its `load:` and `thresholds:` sections.
@_spi(Tooling) public struct RunPlan: Sendable {
    /// The scenario, with any `--users`/`--days` applied.
    package var scenario: Scenario
    /// How the run loads the analyzers.
    package var load: LoadModel
    /// The scenario's thresholds, then the implicit ones (`invariant_violations == 0`, and the
    /// memory slope of a soak).
    package var thresholds: [Threshold]
    /// Users per batch; nil picks about `RunPlan.eventsPerBatch` events a batch.
    package var batchUsers: Int?

    /// The default size of a batch, in events.
    package static let eventsPerBatch = 8_192

    /// A plan of all its parts; the implicit thresholds are added.
    package init(scenario: Scenario, load: LoadModel = .fixed, thresholds: [Threshold] = [], batchUsers: Int? = nil) {
        self.scenario = scenario
        self.load = load
        self.thresholds = thresholds
        self.batchUsers = batchUsers
        addImplicitThresholds()
    }

    /// Loads a scenario by name or path as `generate` does (a path, `./Scenarios/NAME.yaml`, or the
    /// embedded copy) and reads its run sections.
    package static func load(_ nameOrPath: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws(ScenarioError) -> RunPlan {
        let scenario = try ScenarioCatalog.load(nameOrPath, currentDirectory: currentDirectory)
        return try parse(scenario, file: label(of: nameOrPath, currentDirectory: currentDirectory))
    }

    /// The plan of a parsed scenario: its load model, batching and thresholds (each threshold's
    /// text is checked here; errors name `file` and the threshold's line).
    @_spi(Tooling) public static func parse(_ scenario: Scenario, file: String) throws(ScenarioError) -> RunPlan {
        var plan = RunPlan(scenario: scenario, load: scenario.load, batchUsers: scenario.batchUsers)
        plan.thresholds = []
        for rule in scenario.thresholds {
            do {
                plan.thresholds.append(try ThresholdParser.parse(rule.text, abortOnFail: rule.abortOnFail))
            } catch {
                throw ScenarioError(file: file, line: rule.line, message: error.message)
            }
        }
        plan.addImplicitThresholds()
        if scenario.strictSchedule { plan.requireSchedule() }
        return plan
    }

    /// Makes a paced load fail when it drops events or falls behind (`run --strict`, `load.strict`):
    /// adds `ScheduleWarning.strictThresholds` on the metrics no threshold judges yet. Other loads
    /// have no schedule to keep and are left as they are.
    package mutating func requireSchedule() {
        guard load.schedule != nil else { return }
        thresholds += ScheduleWarning.unjudged(by: thresholds.map(\.metric))
    }

    private mutating func addImplicitThresholds() {
        if !thresholds.contains(where: { $0.metric == "invariant_violations" }) {
            thresholds.append(Threshold(metric: "invariant_violations", comparison: .equal, value: 0))
        }
        if case .soak(_, let slope) = load, !thresholds.contains(where: { $0.metric == "rss_slope_mb_per_min" }) {
            thresholds.append(Threshold(metric: "rss_slope_mb_per_min", comparison: .less, value: slope))
        }
    }

    /// The name `ScenarioCatalog` gives the file in its own errors.
    private static func label(of nameOrPath: String, currentDirectory: String) -> String {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml") { return nameOrPath }
        if FileManager.default.fileExists(atPath: currentDirectory + "/Scenarios/" + nameOrPath + ".yaml") {
            return "Scenarios/\(nameOrPath).yaml"
        }
        return "\(nameOrPath).yaml (embedded)"
    }
}

