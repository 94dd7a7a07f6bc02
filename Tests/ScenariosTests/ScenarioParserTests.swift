import Foundation
@_spi(Tooling) import HealthCore
import PaymentsCore
import Testing
@_spi(Tooling) @testable import Scenarios
import TestSupport

@Suite("Scenario files")
struct ScenarioParserTests {
    @Test("every shipped scenario parses", arguments: ["smoke", "load", "stress", "soak", "spike", "faults", "edges"])
    func shippedScenarioParses(name: String) throws {
        // Given the embedded copy of a shipped scenario
        let text = try #require(ScenarioCatalog.embeddedText(name))
        // When it is parsed
        let sut = try ScenarioParser.parse(text, file: "\(name).yaml")
        // Then its name is the file's
        #expect(sut.name == name)
    }

    @Test("a minimal file takes every default")
    func defaults() throws {
        // Given a scenario naming only its size
        let yaml = "users: 12\ndays: 2\n"
        // When it is parsed
        let sut = try ScenarioParser.parse(yaml, file: "dir/tiny.yaml")
        // Then the name is the file's stem and the rest are the model defaults
        #expect(sut.name == "tiny")
        #expect(sut.users == 12)
        #expect(sut.days == 2)
        #expect(sut.startDay == 20_094)
        #expect(sut.meals == MealModel())
        #expect(sut.faults.defaultRate == 0.0005)
        #expect(sut.load == .fixed)
        #expect(sut.thresholds.isEmpty)
    }

    @Test("sections set their values")
    func sections() throws {
        // Given a scenario with a value in each section
        let yaml = """
            seed: 5
            start_date: 2024-02-29
            population:
              protocols: {"16:8": 1, omad: 3}
              utc_offsets: {345: 1, -210: 1}
            meals: {break_rate: 0.25}
            steps: {bout_minutes: {min: 2, max: 9}, watch_share: 1}
            payments:
              currencies: {JPY: 1, KWD: 1}
              gateway: {timeout: 0.5, lost: 0.25, decline: 0.25}
            faults:
              default: 0
              meals: {too_long: 0.1, out_of_order: 0.2}
            """
        // When it is parsed
        let sut = try ScenarioParser.parse(yaml, file: "s.yaml")
        // Then each value lands in its model (2024-02-29 is day 19782 since 1970-01-01)
        #expect(sut.seed == 5)
        #expect(sut.startDay == 19_782)
        #expect(sut.population.protocols.values == [.sixteenEight, .omad])
        #expect(sut.population.protocols.probabilities == [0.25, 0.75])
        #expect(sut.population.utcOffsets.values == [345, -210])
        #expect(sut.meals.breakRate == 0.25)
        #expect(sut.steps.boutMinutesMin == 2)
        #expect(sut.steps.boutMinutesMax == 9)
        #expect(sut.steps.watchShare == 1)
        #expect(sut.payments.currencies.values == [.jpy, .kwd])
        #expect(sut.payments.lostRate == 0.25)
        #expect(sut.faults.rate(MealRejection.tooLong) == 0.1)
        #expect(sut.faults.rate(MealRejection.duplicate) == 0)
        #expect(sut.faults.mealsOutOfOrder == 0.2)
    }

    @Test("the run sections are read once into the document: the load model and each threshold with its line")
    func runSections() throws {
        // Given a scenario with load and thresholds sections
        let yaml = "users: 3\nload:\n  model: arrival_rate\n  rate: 5e6\n  duration: 10s\n  batch_users: 7\nthresholds:\n"
            + "  - total.events_per_s > 5e6\n  - check: peak_rss_mb < 300\n    abort_on_fail: true\n"
        // When it is parsed
        let sut = try ScenarioParser.parse(yaml, file: "run.yaml")
        // Then the document holds the load model, the batching and the rules as written, with their lines
        #expect(sut.users == 3)
        #expect(sut.load == .arrivalRate(eventsPerSecond: 5e6, duration: .seconds(10)))
        #expect(sut.batchUsers == 7)
        #expect(sut.thresholds == [
            ThresholdRule(text: "total.events_per_s > 5e6", line: 8),
            ThresholdRule(text: "peak_rss_mb < 300", abortOnFail: true, line: 9),
        ])
    }

    @Test("a bad load section is refused when the scenario is read, naming the line")
    func badLoad() throws {
        // Given a scenario with an unknown load model
        let yaml = "users: 3\nload:\n  model: constant_rate\n"
        // When it is parsed
        // Then the error names the file, the line and the key
        #expect(throws: ScenarioError(file: "run.yaml", line: 3,
                                      message: "'load.model' must be fixed, duration, arrival_rate, ramping or soak, not 'constant_rate'")) {
            try ScenarioParser.parse(yaml, file: "run.yaml")
        }
    }

    @Test("invalid input names the key and line", arguments: [
        ("users: 3\nmealz: {}\n", 2, "unknown key 'mealz'"),
        ("meals:\n  break_rate: 0.1\n  brake_rate: 0.2\n", 3, "unknown key 'meals.brake_rate'"),
        ("users: 0\n", 1, "'users' must be in 1...9999999, not 0"),
        ("users: many\n", 1, "'users' must be an integer in 1...9999999"),
        ("days: 2\nmeals:\n  break_rate: 1.5\n", 3, "'meals.break_rate' must be in 0.0...1.0, not 1.5"),
        ("population:\n  protocols: {\"5:2\": 1}\n", 2, "'population.protocols' '5:2' is not 16:8, 18:6, 20:4, omad or none"),
        ("population:\n  utc_offsets: {900: 1}\n", 2, "'population.utc_offsets' '900' is not an integer in -720...840"),
        ("payments:\n  currencies: {USD: 0}\n", 2, "'payments.currencies' needs at least one positive weight"),
        ("start_date: 2025-02-30\n", 1, "'start_date' must be a date written YYYY-MM-DD"),
        ("steps:\n  bout_minutes: {min: 9, max: 2}\n", 2, "in 'steps.bout_minutes': 'min' (9) is above 'max' (2)"),
        ("faults:\n  meals:\n    duplicat: 0.1\n", 3, "unknown key 'faults.meals.duplicat'"),
        ("meals: 3\n", 1, "'meals' must be a mapping of keys to values"),
        ("users: [1\n", 2, "invalid YAML"),
    ] as [(String, Int, String)])
    func invalidInput(yaml: String, line: Int, message: String) {
        // Given a scenario with one mistake
        // When it is parsed
        // Then the error names the file, the line and the key
        #expect {
            try ScenarioParser.parse(yaml, file: "bad.yaml")
        } throws: { error in
            let error = error as! ScenarioError
            return error.file == "bad.yaml" && error.line == line && error.message.contains(message)
        }
    }

    @Test("the catalog finds a name in ./Scenarios, then the embedded copy, and reads paths")
    func catalog() throws {
        // Given a directory without Scenarios/ and a scenario file elsewhere
        let directory = try ScratchDirectory(prefix: "simulation-tests")
        try "users: 4\n".write(toFile: directory.file("mine.yaml"), atomically: true, encoding: .utf8)
        // When scenarios are looked up by name and by path
        let embedded = try ScenarioCatalog.load("smoke", currentDirectory: directory.path)
        let byPath = try ScenarioCatalog.load(directory.file("mine.yaml"), currentDirectory: "/")
        // Then the name gives the embedded smoke scenario and the path the file
        #expect(embedded.name == "smoke")
        #expect(byPath.users == 4)
        let unknown = #expect(throws: ScenarioError.self) { try ScenarioCatalog.load("nosuch", currentDirectory: directory.path) }
        let missing = #expect(throws: ScenarioError.self) { try ScenarioCatalog.load(directory.file("missing.yaml")) }
        #expect(unknown?.description == "nosuch: no such scenario: not a file, not in ./Scenarios, and not one of edges, faults, load, smoke, soak, spike, stress")
        #expect(missing?.description == directory.file("missing.yaml") + ": cannot read the scenario file")
    }
}

@Suite("Embedded scenarios")
struct EmbeddedScenarioTests {
    @Test("the embedded copies equal Scenarios/*.yaml (SIMHARNESS_RECORD=1 regenerates them)")
    func embeddedMatchFiles() throws {
        // Given the shipped scenario files
        let directory = repositoryRoot + "/Scenarios"
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
        var files: [String: String] = [:]
        for name in names { files[String(name.dropLast(5))] = try String(contentsOfFile: directory + "/" + name, encoding: .utf8) }
        if ProcessInfo.processInfo.environment["SIMHARNESS_RECORD"] == "1" {
            try record(files)
            Issue.record("recorded Sources/Scenarios/EmbeddedScenarios.swift: rebuild and run the tests again without SIMHARNESS_RECORD")
        }
        // When they are compared with the embedded texts
        let sut = Dictionary(uniqueKeysWithValues: ScenarioCatalog.names.map { ($0, ScenarioCatalog.embeddedText($0)! + "\n") })
        // Then they are the same
        #expect(sut == files)
    }

    private func record(_ files: [String: String]) throws {
        var out = "// Generated from Scenarios/*.yaml: run `SIMHARNESS_RECORD=1 swift test --filter EmbeddedScenarioTests` after editing them.\n\n"
        out += "enum EmbeddedScenarios {\n    static let texts: [String: String] = [\n"
        for name in files.keys.sorted() {
            out += "        \"\(name)\": #\"\"\"\n\(files[name]!.trimmingCharacters(in: .newlines))\n\"\"\"#,\n"
        }
        out += "    ]\n}\n"
        try out.write(toFile: repositoryRoot + "/Sources/Scenarios/EmbeddedScenarios.swift", atomically: true, encoding: .utf8)
    }
}
