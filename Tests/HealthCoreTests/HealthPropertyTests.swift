@_spi(Tooling) import HealthCore
import PaymentsCore
import Testing
import TestSupport

/// Seeded random cases: a failing seed reproduces its case.
@Suite("Fasting and step properties (seeded random inputs)")
struct HealthPropertyTests {
    static let seeds: [UInt64] = Array(0..<300)

    static func fastingCase(seed: UInt64) -> (meals: [Meal], configuration: FastingConfiguration, random: SplitMix64) {
        var random = SplitMix64(seed: seed)
        let meals = RandomInputs.meals(using: &random)
        let configuration = FastingConfigurationBuilder()
            .offset(RandomInputs.offsets.randomElement(using: &random)!)
            .fastingProtocol(FastingProtocol.allCases.randomElement(using: &random)!)
            .minimumFast([0, 3_600, 10_800, 20_000].randomElement(using: &random)!)
            .build()
        return (meals, configuration, random)
    }

    @Test("fasting: shuffled input gives the same summary and days", arguments: seeds)
    func fastingShuffle(seed: UInt64) {
        // Given random meals and the same meals shuffled
        var (meals, configuration, random) = Self.fastingCase(seed: seed)
        let shuffled = meals.shuffled(using: &random)
        // When
        let sut = FastingAnalyzer.analyze(meals, configuration: configuration)
        let fromShuffled = FastingAnalyzer.analyze(shuffled, configuration: configuration)
        // Then
        #expect(fromShuffled.summary == sut.summary)
        #expect(fromShuffled.days == sut.days)
    }

    @Test("fasting: feeding the accumulator meal by meal equals the batch analysis", arguments: seeds)
    func fastingIncremental(seed: UInt64) {
        // Given random meals in processing order
        let (meals, configuration, _) = Self.fastingCase(seed: seed)
        let batch = FastingAnalyzer.analyze(meals, configuration: configuration)
        var sut = FastingAccumulator(configuration: configuration)
        var days: [FastingDay] = []
        // When
        for meal in meals.sorted(by: Meal.precedes) { sut.add(meal) { days.append($0) } }
        let summary = sut.finish { days.append($0) }
        // Then
        #expect(summary == batch.summary)
        #expect(days == batch.days)
    }

    @Test("fasting: the analyzer agrees with a literal model of SPEC §2", arguments: seeds)
    func fastingModel(seed: UInt64) {
        // Given random meals
        let (meals, configuration, _) = Self.fastingCase(seed: seed)
        // When
        let sut = FastingAnalyzer.analyze(meals, configuration: configuration)
        // Then
        let model = ReferenceModel.fasting(meals, configuration)
        #expect(sut.summary == model.summary)
        #expect(sut.days.map(DayRow.init) == model.days)
    }

    @Test("isFasting agrees with 'no meal contains t', at meal boundaries and random instants", arguments: seeds)
    func timeline(seed: UInt64) {
        // Given random meals and instants at and next to every meal boundary
        var (meals, _, random) = Self.fastingCase(seed: seed)
        var instants = meals.flatMap { [$0.start - 1, $0.start, $0.end, $0.end + 1] }
        for _ in 0..<20 { instants.append(Int64.random(in: -4 * TestTime.day...TestTime.instant(day: TestTime.referenceDay + 8), using: &random)) }
        // When
        let sut = FastingTimeline(meals: meals)
        // Then
        for t in instants {
            #expect(sut.isFasting(at: t) == !meals.contains { $0.start <= t && t <= $0.end }, "t = \(t)")
        }
    }

    static func stepCase(seed: UInt64) -> (samples: [StepSample], offset: Int32, random: SplitMix64) {
        var random = SplitMix64(seed: seed)
        let samples = RandomInputs.stepSamples(using: &random)
        return (samples, RandomInputs.offsets.randomElement(using: &random)!, random)
    }

    @Test("steps: shuffled input gives the same days", arguments: seeds)
    func stepsShuffle(seed: UInt64) {
        // Given random samples and the same samples shuffled
        var (samples, offset, random) = Self.stepCase(seed: seed)
        let shuffled = samples.shuffled(using: &random)
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: offset)
        // Then
        #expect(StepAggregator.aggregate(shuffled, utcOffsetMinutes: offset) == sut)
    }

    @Test("steps: feeding the accumulator sample by sample equals the batch aggregation", arguments: seeds)
    func stepsIncremental(seed: UInt64) {
        // Given random samples in processing order
        let (samples, offset, _) = Self.stepCase(seed: seed)
        let batch = StepAggregator.aggregate(samples, utcOffsetMinutes: offset)
        var sut = StepAccumulator(utcOffsetMinutes: offset)
        var days: [StepDay] = []
        // When
        for sample in samples.sorted(by: StepSample.precedes) { sut.add(sample) { days.append($0) } }
        sut.finish { days.append($0) }
        // Then
        #expect(days == batch)
    }

    @Test("steps: the aggregator agrees with an elementary-interval model of SPEC §3", arguments: seeds)
    func stepsModel(seed: UInt64) {
        // Given random samples
        let (samples, offset, _) = Self.stepCase(seed: seed)
        // When
        let sut = StepAggregator.aggregate(samples, utcOffsetMinutes: offset)
        // Then, to a relative 1e-9
        let model = ReferenceModel.steps(samples, utcOffsetMinutes: offset)
        #expect(sut.map(\.day.index) == model.map(\.day))
        for (row, want) in zip(sut, model) {
            #expect(abs(row.steps - want.steps) <= 1e-9 * max(1, want.steps), "day \(row.day.index)")
            #expect(abs(row.average7 - want.average7) <= 1e-9 * max(1, want.average7), "day \(row.day.index)")
        }
    }
}
