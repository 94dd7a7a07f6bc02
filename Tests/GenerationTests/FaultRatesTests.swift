@_spi(Tooling) import HealthCore
import Testing
@_spi(Tooling) @testable import Generation

/// `Chance` and `FaultRates` compare integers where the generator used to compare `unit()` with a
/// rate: the same draws must come true, so that every dataset stays byte-identical.
@Suite("FaultRates: integer bounds that draw exactly as the floating-point rates did")
struct FaultRatesTests {
    static let rates: [Double] = [0, 1e-300, 0x1p-53, 0.0005, 0.01, 0.1, 1.0 / 3, 0.5, 0.999_999, 1 - 0x1p-53, 1, 1.5, -0.1, .nan]

    @Test("a chance comes true on the same draws as `chance(_: Double)`", arguments: rates)
    func sameDrawsAsTheRate(p: Double) {
        // Given two generators in the same state
        var reference = Xoshiro256StarStar(seed: 42)
        var sut = reference
        // When each asks 20,000 times, one with the rate, one with its chance
        let expected = (0..<20_000).map { _ in reference.chance(p) }
        let chance = Chance(p)
        let drawn = (0..<20_000).map { _ in sut.chance(chance) }
        // Then the answers are the same
        #expect(drawn == expected)
    }

    static let bounds: [(p: Double, bound: UInt64)] = [
        (12_345 * 0x1p-53, 12_345), ((12_345 + 0.5) * 0x1p-53, 12_346), (0.5, 1 << 52), (0.25 + 0x1p-53, (1 << 51) + 1),
    ]

    @Test("the bound is the first draw that no longer comes true, also for a rate that is a whole number of steps", arguments: bounds)
    func exactBound(p: Double, bound: UInt64) {
        // Given a rate near a step of 2⁻⁵³
        // When it becomes a chance
        let sut = Chance(p)
        // Then draws below the bound are below the rate, and the bound itself is not
        #expect(sut.bound == bound)
        #expect(Double(bound - 1) * 0x1p-53 < p)
        #expect(!(Double(bound) * 0x1p-53 < p))
    }

    static let stepRates: [[Double]] = [
        [0.0005, 0.0005, 0.0005, 0.0005, 0.0005], [0.01, 0, 0.2, 0.05, 0.3], [0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0, 0],
    ]

    @Test("faults come on the same rows, with the same reasons, as cumulative rates compared as doubles", arguments: stepRates)
    func sameFaultsAsDoubles(rates: [Double]) {
        // Given a step stream's rates and two generators in the same state
        let sut = FaultRates<StepRejection>(rate: { rates[StepRejection.allCases.firstIndex(of: $0)!] }, outOfOrder: 0)
        var reference = Xoshiro256StarStar(seed: 7)
        var random = reference
        // When 20,000 rows draw their faults, by the bounds and by the doubles
        let drawn = (0..<20_000).map { _ in sut.draw(&random) }
        let expected = (0..<20_000).map { _ in Self.doubleDraw(rates: rates, random: &reference) }
        // Then every row has the same fault (or none)
        #expect(drawn == expected)
    }

    /// The draw as it was made with doubles: the first reason whose cumulative rate exceeds `unit()`.
    private static func doubleDraw(rates: [Double], random: inout Xoshiro256StarStar) -> StepRejection? {
        let u = random.unit()
        var running = 0.0
        for (reason, rate) in zip(StepRejection.allCases, rates) {
            running += rate
            if u < running { return reason }
        }
        return nil
    }

    @Test("a late chance of 0 leaves the rows alone and draws nothing; of 1, moves rows and marks them late")
    func lateDelivery() {
        // Given ten step rows in order
        let rows = (0..<10).map { StepRow(user: 1, ordinal: UInt32($0), start: 100 * Int64($0), end: 100 * Int64($0) + 60,
                                          countMilli: 1000, source: .phone, fault: nil, variant: 0, late: false) }
        var random = Xoshiro256StarStar(seed: 3)
        var untouched = random
        // When they are shuffled with no chance, then with certainty
        var never = rows
        shuffleLate(&never, from: 0, chance: Chance(0), using: &random)
        var next = random
        let generatorUnused = next.next() == untouched.next()
        var always = rows
        shuffleLate(&always, from: 0, chance: Chance(1), using: &random)
        // Then the first are unchanged and the generator was not used; the second hold the same rows, not in order, some late
        #expect(never == rows)
        #expect(generatorUnused)
        #expect(always.map(\.ordinal).sorted() == rows.map(\.ordinal))
        #expect(always.map(\.ordinal) != rows.map(\.ordinal))
        #expect(always.contains { $0.late })
    }
}
