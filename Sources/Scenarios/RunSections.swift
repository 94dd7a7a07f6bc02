import Yams

/// Reads the sections of a scenario that `simharness run` uses (`load:` and `thresholds:`), with
/// errors that name the file, line and key.
struct RunSectionReader {
    let file: String

    static let loadKeys = ["model", "duration", "rate", "start_rate", "stages", "max_rss_slope_mb_per_min", "batch_users", "strict"]
    static let modelKeys: [String: Set<String>] = [
        "fixed": [], "duration": ["duration"], "arrival_rate": ["rate", "duration", "strict"], "ramping": ["start_rate", "stages", "strict"],
        "soak": ["duration", "max_rss_slope_mb_per_min"],
    ]

    /// The node, or nil when it is absent or null.
    func present(_ node: Node?) -> Node? {
        guard let node else { return nil }
        if let scalar = node.scalar, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return nil }
        return node
    }

    func error(_ node: Node?, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node?.mark?.line, message: message)
    }

    func readLoad(_ node: Node, into scenario: inout Scenario) throws(ScenarioError) {
        guard let mapping = node.mapping else { throw error(node, "'load' must be a mapping of keys to values") }
        for (key, _) in mapping where !Self.loadKeys.contains(key.string ?? "") {
            throw error(key, "unknown key 'load.\(key.string ?? "\(key)")'")
        }
        let modelNode = present(mapping["model"])
        let model = modelNode?.scalar?.string ?? "fixed"
        guard let allowed = Self.modelKeys[model] else {
            throw error(modelNode, "'load.model' must be fixed, duration, arrival_rate, ramping or soak, not '\(model)'")
        }
        for (key, _) in mapping {
            let name = key.string ?? ""
            if ["model", "batch_users"].contains(name) || allowed.contains(name) { continue }
            throw error(key, "'load.\(name)' does not apply to the \(model) model")
        }
        func required<T>(_ key: String, _ read: (Node) throws(ScenarioError) -> T) throws(ScenarioError) -> T {
            guard let value = present(mapping[key]) else { throw error(node, "the \(model) model needs 'load.\(key)'") }
            return try read(value)
        }
        switch model {
        case "duration":
            scenario.load = .duration(try required("duration") { n throws(ScenarioError) in try duration(n, "load.duration") })
        case "arrival_rate":
            let rate = try required("rate") { n throws(ScenarioError) in try self.rate(n, "load.rate", allowingZero: false) }
            scenario.load = .arrivalRate(eventsPerSecond: rate, duration: try required("duration") { n throws(ScenarioError) in try duration(n, "load.duration") })
        case "ramping":
            let start = try present(mapping["start_rate"]).map { n throws(ScenarioError) in try rate(n, "load.start_rate", allowingZero: true) } ?? 0
            let stages = try required("stages") { n throws(ScenarioError) in try readStages(n) }
            let schedule = ArrivalSchedule(startRate: start, stages: stages)
            guard schedule.totalEvents > 0 else { throw error(node, "'load.stages' never let an event arrive (every rate is 0)") }
            scenario.load = .ramping(startRate: start, stages: stages)
        case "soak":
            let length = try required("duration") { n throws(ScenarioError) in try duration(n, "load.duration") }
            let slope = try present(mapping["max_rss_slope_mb_per_min"])
                .map { n throws(ScenarioError) in try number(n, "load.max_rss_slope_mb_per_min", above: 0) } ?? 1
            scenario.load = .soak(duration: length, maxRSSSlopeMBPerMinute: slope)
        default:
            scenario.load = .fixed
        }
        if let flag = present(mapping["strict"]) {
            guard let value = flag.bool else { throw error(flag, "'load.strict' must be true or false") }
            scenario.strictSchedule = value
        }
        if let n = present(mapping["batch_users"]) { scenario.batchUsers = Int(try number(n, "load.batch_users", in: 1...1_000_000)) }
    }

    func readStages(_ node: Node) throws(ScenarioError) -> [RampStage] {
        guard let sequence = node.sequence, !sequence.isEmpty else {
            throw error(node, "'load.stages' must be a list of {duration, target} stages")
        }
        var stages: [RampStage] = []
        for item in sequence {
            guard let stage = item.mapping else { throw error(item, "each of 'load.stages' must be a mapping {duration, target}") }
            for (key, _) in stage where !["duration", "target"].contains(key.string ?? "") {
                throw error(key, "unknown key 'load.stages.\(key.string ?? "\(key)")'")
            }
            guard let length = present(stage["duration"]), let target = present(stage["target"]) else {
                throw error(item, "each of 'load.stages' needs a 'duration' and a 'target'")
            }
            stages.append(RampStage(duration: try duration(length, "load.stages.duration"), target: try rate(target, "load.stages.target", allowingZero: true)))
        }
        return stages
    }

    func readThresholds(_ node: Node) throws(ScenarioError) -> [ThresholdRule] {
        guard let sequence = node.sequence else {
            throw error(node, "'thresholds' must be a list of rules such as 'total.events_per_s > 5e6'")
        }
        var rules: [ThresholdRule] = []
        for item in sequence {
            var textNode = item
            var abortOnFail = false
            if let mapping = item.mapping {
                for (key, _) in mapping where !["check", "abort_on_fail"].contains(key.string ?? "") {
                    throw error(key, "unknown key 'thresholds.\(key.string ?? "\(key)")' (use 'check' and 'abort_on_fail')")
                }
                guard let check = present(mapping["check"]) else { throw error(item, "a threshold mapping needs 'check'") }
                textNode = check
                if let flag = present(mapping["abort_on_fail"]) {
                    guard let value = flag.bool else { throw error(flag, "'abort_on_fail' must be true or false") }
                    abortOnFail = value
                }
            }
            guard let text = textNode.scalar?.string else { throw error(textNode, "a threshold must be a text such as 'peak_rss_mb < 300'") }
            rules.append(ThresholdRule(text: text, abortOnFail: abortOnFail, line: textNode.mark?.line))
        }
        return rules
    }

    /// The longest duration a scenario may ask for: a year (longer ones would overflow `Duration`).
    static let longestDuration = 8_760.0 * 3_600

    /// `500ms`, `10s`, `5m`, `2h`, `1h30m`, or a number of seconds; positive, at most a year.
    func duration(_ node: Node, _ key: String) throws(ScenarioError) -> Duration {
        let text = node.scalar?.string ?? ""
        let seconds = Double(text) ?? spelledSeconds(text)
        guard let seconds, seconds > 0, seconds <= Self.longestDuration else {
            throw error(node, "'\(key)' must be a positive duration up to 8760h such as 500ms, 30s, 5m or 1h30m, not '\(text)'")
        }
        return .seconds(seconds)
    }

    /// The seconds `text` spells with units (`1h30m`), or nil.
    private func spelledSeconds(_ text: String) -> Double? {
        var total = 0.0
        var digits = ""
        var rest = Substring(text)
        var parsedAny = false
        while let c = rest.first {
            if c.isNumber || c == "." {
                digits.append(c)
                rest = rest.dropFirst()
                continue
            }
            let unit: (String, Double)? = rest.hasPrefix("ms") ? ("ms", 0.001) : rest.hasPrefix("s") ? ("s", 1)
                : rest.hasPrefix("m") ? ("m", 60) : rest.hasPrefix("h") ? ("h", 3600) : nil
            guard let unit, let value = Double(digits) else { break }
            total += value * unit.1
            rest = rest.dropFirst(unit.0.count)
            digits = ""
            parsedAny = true
        }
        return parsedAny && rest.isEmpty && digits.isEmpty ? total : nil
    }

    /// The highest arrival rate a scenario may ask for, in events a second.
    static let highestRate = 1e9

    /// An arrival rate in events a second: above 0 (or 0 when `allowingZero`), at most `highestRate`.
    func rate(_ node: Node, _ key: String, allowingZero: Bool) throws(ScenarioError) -> Double {
        let value = try number(node, key)
        guard allowingZero ? value >= 0 : value > 0, value <= Self.highestRate else {
            let lower = allowingZero ? "at least 0" : "above 0"
            throw error(node, "'\(key)' must be \(lower) and at most 1e9 events a second, not \(value.compactText)")
        }
        return value
    }

    func number(_ node: Node, _ key: String, above lower: Double) throws(ScenarioError) -> Double {
        let value = try number(node, key)
        guard value > lower else { throw error(node, "'\(key)' must be above \(lower.compactText), not \(value.compactText)") }
        return value
    }

    func number(_ node: Node, _ key: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double {
        let value = try number(node, key)
        guard range.contains(value), value == value.rounded() else {
            throw error(node, "'\(key)' must be an integer in \(range.lowerBound.compactText)...\(range.upperBound.compactText), not \(value.compactText)")
        }
        return value
    }

    private func number(_ node: Node, _ key: String) throws(ScenarioError) -> Double {
        guard let text = node.scalar?.string, let value = Double(text.filter { $0 != "_" }), value.isFinite else {
            throw error(node, "'\(key)' must be a number")
        }
        return value
    }
}
