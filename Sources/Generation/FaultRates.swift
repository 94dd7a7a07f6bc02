/// A probability as a bound on the 53 random bits that `Xoshiro256StarStar.unit()` scales:
/// `random.chance(Chance(p))` is `random.chance(p)` exactly (`k · 2⁻⁵³ < p` ⇔ `k < ⌈p · 2⁵³⌉` for an
/// integer `k`), in one integer comparison instead of a conversion, a multiplication and a
/// floating-point comparison.
struct Chance: Sendable, Equatable {
    /// Draws of `next() >> 11` below this come true.
    let bound: UInt64

    /// `p` at or below 0 (or NaN) never comes true; at or above 1, always.
    init(_ p: Double) {
        bound = !(p > 0) ? 0 : p >= 1 ? 1 << 53 : UInt64((p * 0x1p53).rounded(.up))
    }
}

extension Xoshiro256StarStar {
    /// True with the probability `chance` stands for; draws one number, as `chance(_: Double)` does.
    @inline(__always) mutating func chance(_ chance: Chance) -> Bool { next() >> 11 < chance.bound }
}

/// The fault rates of one row stream: each row draws one number and gets the first reason (in
/// `Reason.allCases` order) whose cumulative rate exceeds it, or none; and the rate at which a row is
/// delivered out of order.
struct FaultRates<Reason: CaseIterable & Sendable>: Sendable {
    private let reasons: [Reason]
    /// The cumulative rate after each reason, as bounds.
    private let cumulative: [UInt64]
    /// The last of `cumulative`: draws at or above it bring no fault.
    private let anyFault: UInt64
    /// The chance of each row of being delivered late (`shuffleLate`).
    let outOfOrder: Chance

    /// `rate` gives each reason's share of the rows.
    init(rate: (Reason) -> Double, outOfOrder: Double) {
        reasons = Array(Reason.allCases)
        var running = 0.0
        cumulative = reasons.map { running += rate($0); return Chance(running).bound }
        anyFault = cumulative.last ?? 0
        self.outOfOrder = Chance(outOfOrder)
    }

    /// The fault of the next row, if any.
    @inline(__always) func draw(_ random: inout Xoshiro256StarStar) -> Reason? {
        let k = random.next() >> 11
        guard k < anyFault else { return nil }
        for i in cumulative.indices where k < cumulative[i] { return reasons[i] }
        return nil
    }
}

/// Out-of-order delivery: each row after `from`, with the chance `late`, is swapped with one of the
/// next five rows and marked late.
func shuffleLate<Row: LateMarkable>(_ rows: inout [Row], from first: Int, chance late: Chance, using random: inout Xoshiro256StarStar) {
    guard late.bound > 0 else { return }
    var i = first
    while i < rows.count - 1 {
        if random.chance(late) {
            let j = min(rows.count - 1, i + 1 + random.below(5))
            rows.swapAt(i, j)
            rows[j].late = true
        }
        i += 1
    }
}

protocol LateMarkable { var late: Bool { get set } }
extension MealRow: LateMarkable {}
extension StepRow: LateMarkable {}
extension PaymentRow: LateMarkable {}
