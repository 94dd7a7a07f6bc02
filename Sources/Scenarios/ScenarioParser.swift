@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
import Yams

/// Why a scenario cannot be used; the message names the file, line and key.
@_spi(Tooling) public struct ScenarioError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The scenario file.
    @_spi(Tooling) public var file: String
    /// The line, when known.
    @_spi(Tooling) public var line: Int?
    /// What is wrong, naming the key.
    @_spi(Tooling) public var message: String

    /// An error of `file` at `line`.
    @_spi(Tooling) public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`.
    @_spi(Tooling) public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}

/// Reads scenario YAML (schema: `Scenarios/README.md`): unknown keys and bad values are errors
/// naming the key and its line.
@_spi(Tooling) public enum ScenarioParser {
    /// Parses `yaml`; `file` names it in errors and gives the default `name` (its stem).
    @_spi(Tooling) public static func parse(_ yaml: String, file: String) throws(ScenarioError) -> Scenario {
        let node: Node?
        do {
            node = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ScenarioError(file: file, line: Self.line(of: error), message: "invalid YAML: \(Self.problem(of: error))")
        } catch {
            throw ScenarioError(file: file, line: nil, message: "invalid YAML: \(error)")
        }
        let stem = String(file.split(separator: "/").last ?? Substring(file)).replacingSuffix(".yaml").replacingSuffix(".yml")
        var scenario = Scenario(name: stem)
        guard let node else { return scenario }
        var root = try Section(node, path: "", file: file)
        if let v = try root.string("name") { scenario.name = v }
        if let v = try root.string("description") { scenario.description = v }
        if let v = try root.int("seed", in: 0...Int.max) { scenario.seed = UInt64(v) }
        if let v = try root.int("users", in: 1...Scenario.maximumUsers) { scenario.users = v }
        if let v = try root.int("days", in: 1...Scenario.maximumDays) { scenario.days = v }
        if let v = try root.date("start_date") { scenario.startDay = v }
        if var s = try root.section("population") { try population(&s, into: &scenario.population) }
        if var s = try root.section("meals") { try meals(&s, into: &scenario.meals) }
        if var s = try root.section("steps") { try steps(&s, into: &scenario.steps) }
        if var s = try root.section("payments") { try payments(&s, into: &scenario.payments) }
        if var s = try root.section("faults") { try faults(&s, into: &scenario.faults) }
        if let v = try root.double("boundaries", in: 0...1) { scenario.boundaries = v }
        let run = RunSectionReader(file: file)
        if let load = run.present(root.node("load")) { try run.readLoad(load, into: &scenario) }
        if let thresholds = run.present(root.node("thresholds")) { scenario.thresholds = try run.readThresholds(thresholds) }
        try root.finish()
        return scenario
    }

    private static func population(_ s: inout Section, into p: inout PopulationModel) throws(ScenarioError) {
        if let v = try s.weights("utc_offsets", { Int32($0).flatMap { UserProfile.utcOffsetRange.contains(Int64($0)) ? $0 : nil } },
                                 expected: "an integer in -720...840") { p.utcOffsets = v }
        if let v = try s.weights("protocols", { FastingProtocol(name: $0) }, expected: "16:8, 18:6, 20:4, omad or none") { p.protocols = v }
        if let v = try s.weights("sex", { Sex(rawValue: $0) }, expected: "female or male") { p.sexes = v }
        if let v = try s.weights("activity", { ActivityLevel(rawValue: $0) }, expected: "sedentary, light, moderate, active or very_active") {
            p.activities = v
        }
        if var age = try s.section("age") {
            if let v = try age.int("min", in: 1...120) { p.ageMin = v }
            if let v = try age.int("max", in: 1...120) { p.ageMax = v }
            try age.finish()
            guard p.ageMin <= p.ageMax else { throw age.error("'min' (\(p.ageMin)) is above 'max' (\(p.ageMax))") }
        }
        if var height = try s.section("height_cm") {
            if let v = try height.double("male", in: 100...230) { p.heightMale = v }
            if let v = try height.double("female", in: 100...230) { p.heightFemale = v }
            if let v = try height.double("sd", in: 0...30) { p.heightSD = v }
            try height.finish()
        }
        if var bmi = try s.section("bmi") {
            if let v = try bmi.double("mean", in: 15...50) { p.bmiMean = v }
            if let v = try bmi.double("sd", in: 0...15) { p.bmiSD = v }
            try bmi.finish()
        }
        try s.finish()
    }

    private static func meals(_ s: inout Section, into m: inout MealModel) throws(ScenarioError) {
        if let v = try s.double("window_jitter_minutes", in: 0...180) { m.windowJitterMinutes = v }
        if let v = try s.double("break_rate", in: 0...1) { m.breakRate = v }
        if let v = try s.double("late_snack_rate", in: 0...1) { m.lateSnackRate = v }
        if let v = try s.double("intake_sd", in: 0...0.5) { m.intakeSD = v }
        try s.finish()
    }

    private static func steps(_ s: inout Section, into m: inout StepModel) throws(ScenarioError) {
        if let v = try s.double("bouts_per_day", in: 0...40) { m.boutsPerDay = v }
        if var bout = try s.section("bout_minutes") {
            if let v = try bout.int("min", in: 1...240) { m.boutMinutesMin = v }
            if let v = try bout.int("max", in: 1...240) { m.boutMinutesMax = v }
            try bout.finish()
            guard m.boutMinutesMin <= m.boutMinutesMax else {
                throw bout.error("'min' (\(m.boutMinutesMin)) is above 'max' (\(m.boutMinutesMax))")
            }
        }
        if let v = try s.double("steps_per_minute", in: 0...200) { m.stepsPerMinute = v }
        if let v = try s.double("phone_carry", in: 0...1) { m.phoneCarry = v }
        if let v = try s.double("watch_share", in: 0...1) { m.watchShare = v }
        if let v = try s.double("watch_off_rate", in: 0...0.5) { m.watchOffRate = v }
        try s.finish()
    }

    private static func payments(_ s: inout Section, into m: inout PaymentModel) throws(ScenarioError) {
        if let v = try s.double("per_user_per_day", in: 0...50) { m.perUserPerDay = v }
        if let v = try s.weights("currencies", { Currency(code: $0) }, expected: "a supported ISO 4217 code (SPEC §0)") { m.currencies = v }
        if let v = try s.double("travel_rate", in: 0...1) { m.travelRate = v }
        if let v = try s.double("amount_scale", in: 0.001...1000) { m.amountScale = v }
        if let v = try s.double("amount_sigma", in: 0...3) { m.amountSigma = v }
        if let v = try s.double("refund_rate", in: 0...1) { m.refundRate = v }
        if let v = try s.double("partial_refund_share", in: 0...1) { m.partialRefundShare = v }
        if let v = try s.double("repeat_refund_rate", in: 0...1) { m.repeatRefundRate = v }
        if let v = try s.double("retry_rate", in: 0...1) { m.retryRate = v }
        if var gateway = try s.section("gateway") {
            if let v = try gateway.double("timeout", in: 0...1) { m.timeoutRate = v }
            if let v = try gateway.double("lost", in: 0...1) { m.lostRate = v }
            if let v = try gateway.double("decline", in: 0...1) { m.declineRate = v }
            try gateway.finish()
            guard m.timeoutRate + m.lostRate + m.declineRate <= 1 else {
                throw gateway.error("'timeout' + 'lost' + 'decline' must not exceed 1")
            }
        }
        try s.finish()
    }

    private static func faults(_ s: inout Section, into f: inout FaultModel) throws(ScenarioError) {
        if let v = try s.double("default", in: 0...0.1) { f.defaultRate = v }
        if var users = try s.section("users") {
            for fault in UserFault.allCases { if let v = try users.double(fault.rawValue, in: 0...0.2) { f.users[fault] = v } }
            try users.finish()
        }
        if var meals = try s.section("meals") {
            for reason in MealRejection.allCases { if let v = try meals.double(reason.rawValue, in: 0...0.2) { f.meals[reason] = v } }
            f.mealsOutOfOrder = try meals.double("out_of_order", in: 0...0.5)
            try meals.finish()
        }
        if var steps = try s.section("steps") {
            for reason in StepRejection.allCases { if let v = try steps.double(reason.rawValue, in: 0...0.2) { f.steps[reason] = v } }
            f.stepsOutOfOrder = try steps.double("out_of_order", in: 0...0.5)
            try steps.finish()
        }
        if var payments = try s.section("payments") {
            for reason in PaymentRejection.allCases {
                if let v = try payments.double(reason.rawValue, in: 0...0.2) { f.payments[reason] = v }
            }
            f.paymentsOutOfOrder = try payments.double("out_of_order", in: 0...0.5)
            try payments.finish()
        }
        try s.finish()
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        default: "\(error)"
        }
    }
}

/// A YAML mapping being read: remembers which keys were read so `finish()` can name the others.
struct Section {
    let mapping: Node.Mapping
    let path: String
    let file: String
    let line: Int?
    private var read: Set<String> = []

    init(_ node: Node, path: String, file: String) throws(ScenarioError) {
        guard let mapping = node.mapping else {
            throw ScenarioError(file: file, line: node.mark?.line, message: "\(path.isEmpty ? "the scenario" : "'\(path)'") must be a mapping of keys to values")
        }
        self.mapping = mapping
        self.path = path
        self.file = file
        line = node.mark?.line
    }

    func error(_ message: String, at node: Node? = nil) -> ScenarioError {
        ScenarioError(file: file, line: node?.mark?.line ?? line, message: path.isEmpty ? message : "in '\(path)': \(message)")
    }

    func qualified(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The node of `key`, marked as read; nil when absent.
    mutating func node(_ key: String) -> Node? {
        read.insert(key)
        return mapping[key]
    }

    /// Fails on the first key that no reader asked for.
    func finish() throws(ScenarioError) {
        for (key, _) in mapping {
            let name = key.string ?? "\(key)"
            if !read.contains(name) {
                throw ScenarioError(file: file, line: key.mark?.line, message: "unknown key '\(qualified(name))'")
            }
        }
    }

    private mutating func value(_ key: String) -> Node? {
        read.insert(key)
        guard let node = mapping[key] else { return nil }
        if let scalar = node.scalar, scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) { return nil }
        return node
    }

    mutating func section(_ key: String) throws(ScenarioError) -> Section? {
        guard let node = value(key) else { return nil }
        return try Section(node, path: qualified(key), file: file)
    }

    mutating func string(_ key: String) throws(ScenarioError) -> String? {
        guard let node = value(key) else { return nil }
        guard let text = node.scalar?.string else { throw bad(key, node, "must be a text") }
        return text
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int? {
        guard let node = value(key) else { return nil }
        guard let text = node.scalar?.string, let v = Int(text.filter { $0 != "_" }) else {
            throw bad(key, node, "must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        guard range.contains(v) else { throw bad(key, node, "must be in \(range.lowerBound)...\(range.upperBound), not \(v)") }
        return v
    }

    mutating func double(_ key: String, in range: ClosedRange<Double>) throws(ScenarioError) -> Double? {
        guard let node = value(key) else { return nil }
        guard let text = node.scalar?.string, let v = Double(text.filter { $0 != "_" }), v.isFinite else {
            throw bad(key, node, "must be a number in \(range.lowerBound)...\(range.upperBound)")
        }
        guard range.contains(v) else { throw bad(key, node, "must be in \(range.lowerBound)...\(range.upperBound), not \(text)") }
        return v
    }

    /// A `YYYY-MM-DD` date as days since 1970-01-01.
    mutating func date(_ key: String) throws(ScenarioError) -> Int64? {
        guard let node = value(key) else { return nil }
        let parts = (node.scalar?.string ?? "").split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]), (1...12).contains(m), (1...31).contains(d),
              let days = Self.days(year: y, month: m, day: d), LocalDay(index: days).civil == (y, Int(m), Int(d))
        else { throw bad(key, node, "must be a date written YYYY-MM-DD") }
        return days
    }

    /// A mapping of values to non-negative weights with a positive sum.
    mutating func weights<Value>(_ key: String, _ parse: (String) -> Value?, expected: String) throws(ScenarioError) -> Categorical<Value>? {
        guard let node = value(key) else { return nil }
        guard let entries = node.mapping, !entries.isEmpty else { throw bad(key, node, "must map values to weights") }
        var pairs: [(Value, Double)] = []
        for (k, w) in entries {
            let name = k.string ?? ""
            guard let parsed = parse(name) else { throw bad(key, k, "'\(name)' is not \(expected)") }
            guard let weight = w.scalar.flatMap({ Double($0.string) }), weight >= 0, weight.isFinite else {
                throw bad(key, w, "the weight of '\(name)' must be a number >= 0")
            }
            pairs.append((parsed, weight))
        }
        guard pairs.contains(where: { $0.1 > 0 }) else { throw bad(key, node, "needs at least one positive weight") }
        return Categorical(pairs)
    }

    private func bad(_ key: String, _ node: Node, _ message: String) -> ScenarioError {
        ScenarioError(file: file, line: node.mark?.line ?? line, message: "'\(qualified(key))' \(message)")
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64? {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension String {
    func replacingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
