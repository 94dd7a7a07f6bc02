import Foundation
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import RunEngine
import PaymentsCore
import TestSupport

@Suite("Run results: JSON and merging")
struct ResultJSONTests {
    private static let builder = ScenarioBuilder(users: 90, days: 3, seed: 21).faulty()

    private func run(shard: Int = 0, of shards: Int = 1, tasks: Int = 2) async throws -> RunResult {
        var options = RunOptions.test(tasks: tasks)
        options.shard = shard
        options.shardCount = shards
        return try await ScenarioRunner.run(Self.builder.plan(thresholds: [try ThresholdParser.parse("payments.p99_latency_ms < 60000")]), options: options)
    }

    @Test("a result survives encoding and decoding unchanged")
    func roundTrip() async throws {
        // Given a run's result
        let result = try await run()
        // When it is written as JSON and read back
        let sut = try ResultJSON.decode(try ResultJSON.encode(result))
        // Then nothing is lost
        #expect(sut == result)
    }

    @Test("a check's mismatches keep their user's UTC offset and protocol, as utc_offset_min and protocol")
    func mismatchProfileRoundTrip() async throws {
        // Given a result with a check listing a mismatch of a user at +345 min on 16:8, and one without a profile
        var result = try await run()
        var check = CheckReport(sample: 1)
        check.mismatches = 2
        check.listed = [
            Mismatch(user: "u0000003", row: "day 2025-01-06", field: "fasting_daily.compliant", value: "0", reference: "1",
                     utcOffsetMinutes: 345, fastingProtocol: "16:8"),
            Mismatch(user: "u0000004", row: "summary", field: "fasting_summary", value: "no row", reference: "a row"),
        ]
        result.check = check
        // When it is written as JSON and read back
        let json = String(decoding: try ResultJSON.encode(result), as: UTF8.self)
        let sut = try ResultJSON.decode(Data(json.utf8))
        // Then the profile is there under its JSON names, and nothing is lost
        #expect(json.contains(#""utc_offset_min" : 345"#))
        #expect(json.contains(#""protocol" : "16:8""#))
        #expect(sut.check == check)
    }

    @Test("the document names its schema and version")
    func versioned() async throws {
        let json = try JSONSerialization.jsonObject(with: try ResultJSON.encode(try await run())) as! [String: Any]
        #expect(json["schema"] as? String == "simharness-run")
        #expect(json["version"] as? Int == 2)
    }

    @Test("a document of another schema or version is refused", arguments: [
        (#"{"schema": "k6", "version": 1}"#, "not a simharness run result (schema 'k6')"),
        (#"{"schema": "simharness-run", "version": 3}"#, "result schema version 3 is not supported (this tool reads versions 1 and 2)"),
        ("[]", "not a valid run result"),
    ])
    func refused(text: String, message: String) {
        let error = #expect(throws: ResultDecodingError.self) { try ResultJSON.decode(Data(text.utf8)) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "no error")")
    }

    @Test("a busy time too large for nanoseconds is refused, naming the field (FuzzResultJSON: it crashed the reader)")
    func busyTimeOutOfRange() throws {
        // Given the result FuzzResultJSON made: a valid document whose steps stream was busy 2.5779e105 s,
        // committed in the target's seed corpus
        let input = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Fuzz/Corpus/FuzzResultJSON/regression-busy-s-out-of-range.json"
        )
        let data = try Data(contentsOf: input)
        // When it is read
        let error = #expect(throws: ResultDecodingError.self) { try ResultJSON.decode(data) }
        // Then it is refused, naming the stream and the field
        #expect(error?.message == "streams.steps.busy_s is out of range: 2.5779e+105")
    }

    @Test("rss_samples bytes that are no integer are refused", arguments: ["1e300", "-1e300"])
    func rssSampleBytesOutOfRange(bytes: String) async throws {
        // Given a valid result whose first RSS sample holds `bytes` bytes
        var json = try JSONSerialization.jsonObject(with: try ResultJSON.encode(try await run())) as! [String: Any]
        var process = json["process"] as! [String: Any]
        process["rss_samples"] = [[0.5, Double(bytes)!]]
        json["process"] = process
        let data = try JSONSerialization.data(withJSONObject: json)
        // When it is read
        let error = #expect(throws: ResultDecodingError.self) { try ResultJSON.decode(data) }
        // Then it is refused
        #expect(error?.message.hasPrefix("rss_samples bytes out of range") == true, "\(error?.message ?? "no error")")
    }

    @Test("merged shard results count what the whole run counts")
    func mergeShards() async throws {
        // Given the whole run and its two shards, the shards passed through JSON as from two machines
        let whole = try await run()
        let first = try ResultJSON.decode(try ResultJSON.encode(try await run(shard: 0, of: 2)))
        let second = try ResultJSON.decode(try ResultJSON.encode(try await run(shard: 1, of: 2, tasks: 1)))
        // When they are merged
        let sut = try RunResult.merged([first, second])
        // Then every count, the payment latencies and the output digest equal the whole run's
        #expect(sut.shards == ["0/2", "1/2"])
        #expect(sut.metrics.users == whole.metrics.users)
        #expect(sut.metrics.userRejections == whole.metrics.userRejections)
        #expect(sut.metrics.meals.events == whole.metrics.meals.events)
        #expect(sut.metrics.meals.rejected == whole.metrics.meals.rejected)
        #expect(sut.metrics.steps.rejected == whole.metrics.steps.rejected)
        #expect(sut.metrics.payments.rejected == whole.metrics.payments.rejected)
        #expect(sut.metrics.paymentStates == whole.metrics.paymentStates)
        #expect(sut.metrics.paymentLatency == whole.metrics.paymentLatency)
        #expect(sut.metrics.digest == whole.metrics.digest)
        // And the histograms hold every batch, rates add, the thresholds are evaluated again
        #expect(sut.metrics.total.batchLatency.count == first.metrics.total.batchLatency.count + second.metrics.total.batchLatency.count)
        #expect(sut.eventsPerSecond.total == first.eventsPerSecond.total + second.eventsPerSecond.total)
        #expect(sut.thresholds.map(\.threshold.text) == ["payments.p99_latency_ms < 60000", "invariant_violations == 0"])
        #expect(sut.passed)
        // And the series add up interval by interval
        #expect(sut.series.intervals.map { $0.events[3] }.reduce(0, +) == whole.metrics.total.events)
        #expect(sut.series.intervals.map(\.batches).reduce(0, +) == first.metrics.total.batches + second.metrics.total.batches)
    }

    @Test("a version 1 result (no series, [seconds, bytes] memory samples) is still read")
    func readsVersion1() async throws {
        // Given a result written as version 1 was: no series, no CPU in the memory samples
        var json = try JSONSerialization.jsonObject(with: try ResultJSON.encode(try await run())) as! [String: Any]
        json["version"] = 1
        json["series"] = nil
        var process = json["process"] as! [String: Any]
        process["rss_samples"] = [[0.5, 1_000_000.0], [1.5, 2_000_000.0]]
        json["process"] = process
        // When it is read
        let sut = try ResultJSON.decode(try JSONSerialization.data(withJSONObject: json))
        // Then it has no series, and its samples no CPU time
        #expect(sut.series.intervals.isEmpty)
        #expect(sut.process.rssSamples == [RSSSample(seconds: 0.5, bytes: 1_000_000), RSSSample(seconds: 1.5, bytes: 2_000_000)])
    }

    @Test("a series that is not in increasing order, or has a bad interval, is refused", arguments: [
        ("interval_s", "0", "series.interval_s must be positive, not 0.0"),
        ("order", "", "series.intervals must be in increasing index order from 0"),
    ])
    func badSeries(field: String, value: String, message: String) async throws {
        // Given a result with at least two intervals, spoiled in `field`
        var json = try JSONSerialization.jsonObject(with: try ResultJSON.encode(try await run())) as! [String: Any]
        var series = json["series"] as! [String: Any]
        if field == "interval_s" { series["interval_s"] = Double(value)! }
        if field == "order" {
            var intervals = series["intervals"] as! [[String: Any]]
            intervals.append(intervals[0])
            series["intervals"] = intervals
        }
        json["series"] = series
        // When it is read / Then it is refused
        let error = #expect(throws: ResultDecodingError.self) { try ResultJSON.decode(try JSONSerialization.data(withJSONObject: json)) }
        #expect(error?.message == message)
    }

    @Test("results of different runs, or the same shard twice, do not merge")
    func mismatch() async throws {
        let result = try await run(shard: 0, of: 2)
        var other = result
        other.shards = ["1/2"]
        other.seed += 1
        let error = #expect(throws: MergeError.self) { try RunResult.merged([result, other]) }
        #expect(error?.message == "cannot merge a result of scenario 'test' (seed 22, 90 users, 3 days, fixed) with one of scenario 'test' (seed 21, 90 users, 3 days, fixed)")
        let repeated = #expect(throws: MergeError.self) { try RunResult.merged([result, result]) }
        #expect(repeated?.message == "shard 0/2 appears in more than one result")
    }

    @Test("a payment state's position is its place in allCases, the order of the counts and the digest", arguments: PaymentState.allCases)
    func statePosition(state: PaymentState) {
        // Given metrics that counted one payment in `state`
        var sut = RunMetrics()
        sut.paymentStates[PaymentState.allCases.firstIndex(of: state)!] = 1
        // When / Then
        #expect(PaymentState.allCases[state.position] == state)
        #expect(sut.count(of: state) == 1)
    }
}
