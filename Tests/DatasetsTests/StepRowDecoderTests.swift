import Datasets
@_spi(Tooling) import HealthCore
import Testing

@Suite("RowDecoders.step: steps.csv rows (SPEC §3)")
struct StepRowDecoderTests {
    static func candidate(start: Int64 = 1_700_000_000, count: Double = 1234.5, user: UInt32 = 0, duration: UInt32 = 3_600, source: StepSource = .watch) -> StepCandidate {
        StepCandidate(start: start, count: count, user: user, duration: duration, source: source)
    }

    @Test("a valid sample becomes a candidate of its user", arguments: [("watch", StepSource.watch), ("phone", .phone)])
    func accepted(source: String, expected: StepSource) throws {
        // Given the default one-hour sample of u0000001 with 1234.5 steps
        // When decoded from this source
        let sut = try decodeStep(CSVRowBuilder.step.with("source", source))
        // Then it is a candidate with that source
        #expect(sut == .accepted(Self.candidate(source: expected), idHash: hashOf("s0000001")))
    }

    @Test("the candidate's sample spans [start, start + duration) with its count and source")
    func candidateSample() throws {
        // Given a 24-hour phone sample of u0000002
        let row = CSVRowBuilder.step.with("user_id", "u0000002").with("source", "phone").with("start", "0").with("end", "86400").with("count", "0.5")
        // When decoded
        let sut = try decodeStep(row)
        // Then the candidate keeps all of it
        let candidate = try #require(sut.accepted)
        #expect(candidate.user == 1)
        #expect(candidate.duration == 86_400)
        #expect(candidate.source == .phone)
        #expect(candidate.duplicate == false)
        #expect(candidate.sample == StepSample(start: 0, end: 86_400, count: 0.5, source: .phone))
    }

    @Test("marking a candidate duplicate keeps its duration and source")
    func duplicateMark() {
        // Given a watch candidate of 86400 s
        var sut = Self.candidate(duration: 86_400, source: .watch)
        // When marked duplicate, then unmarked
        sut.duplicate = true
        let marked = sut
        sut.duplicate = false
        // Then only the mark changes
        #expect(marked.duplicate)
        #expect(marked.duration == 86_400)
        #expect(marked.source == .watch)
        #expect(sut == Self.candidate(duration: 86_400, source: .watch))
    }

    @Test("each malformed column is named, the user still resolved", arguments: [
        ("sample_id", ""), ("source", "Watch"), ("source", "tablet"), ("source", ""), ("source", "phones"),
        ("start", "1.0"), ("start", "+1"), ("start", ""), ("end", "1e9"), ("end", "-9223372036854775809"),
        ("count", "1e3"), ("count", ".5"), ("count", "5."), ("count", ""), ("count", "NaN"),
    ])
    func malformed(column: String, text: String) throws {
        // Given the sample of u0000002 with one bad column
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("user_id", "u0000002").with(column, text))
        // Then it is malformed on that column and names user index 1
        #expect(sut == .rejected("malformed", column: column, user: 1))
    }

    @Test("an empty user_id is malformed on user_id, with no user")
    func emptyUser() throws {
        // Given a sample without user
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("user_id", ""))
        // Then it is malformed and names no user
        #expect(sut == .rejected("malformed", column: "user_id", user: .max))
    }

    @Test("a user that is not in the directory is unknown_user")
    func unknownUser() throws {
        // Given a sample of an unknown user
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("user_id", "u0000009"))
        // Then it is unknown_user
        #expect(sut == .rejected("unknown_user", column: "user_id", user: .max))
    }

    @Test("end <= start or end − start > 86400 is bad_interval", arguments: [("100", "100"), ("100", "99"), ("0", "86401"), ("-86401", "0")])
    func badInterval(start: String, end: String) throws {
        // Given a sample with an empty, backwards or too long interval
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("start", start).with("end", end))
        // Then it is bad_interval
        #expect(sut == .rejected("bad_interval", column: nil, user: 0))
    }

    @Test("a 1-second and a 86400-second sample are accepted", arguments: [(Int64(100), UInt32(1)), (-86_400, 86_400)])
    func intervalBounds(start: Int64, duration: UInt32) throws {
        // Given samples at the bounds
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("start", "\(start)").with("end", "\(start + Int64(duration))"))
        // Then they are accepted
        #expect(sut == .accepted(Self.candidate(start: start, duration: duration), idHash: hashOf("s0000001")))
    }

    @Test("a count below zero is negative_value", arguments: ["-0.5", "-1", "-0.000001"])
    func negative(count: String) throws {
        // Given a negative count
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("count", count))
        // Then it is negative_value
        #expect(sut == .rejected("negative_value", column: nil, user: 0))
    }

    @Test("a count of 0 or -0 is accepted as +0 (a worn watch that saw no steps)", arguments: ["0", "-0", "-0.0"])
    func zeroCount(count: String) throws {
        // Given a zero count
        // When decoded
        let sut = try decodeStep(CSVRowBuilder.step.with("count", count))
        // Then it is accepted with a positive zero
        let candidate = try #require(sut.accepted)
        #expect(candidate.count == 0)
        #expect(candidate.count.sign == .plus)
    }

    @Test("a row breaking two rules gets the first reason in SPEC order", arguments: [
        (CSVRowBuilder.step.with("user_id", "nobody").with("source", "x"), Decoded<StepCandidate>.rejected("malformed", column: "source", user: .max)),
        (CSVRowBuilder.step.with("user_id", "nobody").with("end", "0"), .rejected("unknown_user", column: "user_id", user: .max)),
        (CSVRowBuilder.step.with("end", "0").with("count", "-1"), .rejected("bad_interval", column: nil, user: 0)),
        (CSVRowBuilder.step.with("source", "x").with("start", "x").with("count", "x"), .rejected("malformed", column: "source", user: 0)),
        (CSVRowBuilder.step.with("sample_id", "").with("source", "x"), .rejected("malformed", column: "sample_id", user: 0)),
    ])
    func firstReason(row: CSVRowBuilder, expected: Decoded<StepCandidate>) throws {
        // Given a sample that breaks two rules
        // When decoded
        let sut = try decodeStep(row)
        // Then the first reason wins
        #expect(sut == expected)
    }

    @Test("a sample from Int64.min to Int64.max is decoded without trapping (it is bad_interval)")
    func extremeTimes() throws {
        // Given a sample whose end − start exceeds Int64
        let row = CSVRowBuilder.step.with("start", "-9223372036854775808").with("end", "9223372036854775807")
        // When it is decoded
        let sut = try decodeStep(row)
        // Then the span, which overflows Int64, is rejected instead of trapping
        #expect(sut == .rejected("bad_interval", column: nil, user: 0))
    }
}
