@_spi(Tooling) import HealthCore
import PaymentsCore

/// Seeded random test data for property tests: every generator draws only from `random`, so a
/// seed reproduces a failing case.
public enum RandomInputs {
    /// The UTC offsets the generators pick from: both signs, half and quarter hours, both extremes.
    public static let offsets: [Int32] = [-720, -210, 0, 330, 345, 840]

    /// Up to 40 meals of one user over about a week, some touching or overlapping the previous one,
    /// some before 1970.
    public static func meals(using random: inout some RandomNumberGenerator) -> [Meal] {
        let base = Bool.random(using: &random) ? TestTime.instant() : -3 * TestTime.day
        var meals: [Meal] = []
        for _ in 0..<Int.random(in: 0...40, using: &random) {
            var start = base + Int64.random(in: 0..<(7 * TestTime.day), using: &random)
            if let previous = meals.last, Int.random(in: 0..<4, using: &random) == 0 {
                start = Int64.random(in: previous.start...previous.end, using: &random)
            }
            let duration = Int.random(in: 0..<10, using: &random) == 0 ? 0 : Int64.random(in: 1...14_400, using: &random)
            meals.append(Meal(start: start, end: start + duration, kcalMicros: Int64.random(in: 0...2_000_000_000, using: &random)))
        }
        return meals
    }

    /// Up to 25 step samples of one user over 4 or 12 days, of both sources, some zero counts, some
    /// starting where the previous one starts or ends.
    public static func stepSamples(using random: inout some RandomNumberGenerator) -> [StepSample] {
        let base = Bool.random(using: &random) ? TestTime.instant() : -2 * TestTime.day
        let span = (Bool.random(using: &random) ? 4 : 12) * TestTime.day
        var samples: [StepSample] = []
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            var start = base + Int64.random(in: 0..<span, using: &random)
            if let previous = samples.last, Int.random(in: 0..<4, using: &random) == 0 {
                start = Bool.random(using: &random) ? previous.start : previous.end
            }
            let longest: Int64 = [3_600, 21_600, 86_400][Int.random(in: 0..<3, using: &random)]
            let duration = Int64.random(in: 1...longest, using: &random)
            let count = Int.random(in: 0..<10, using: &random) == 0 ? 0 : Double(Int.random(in: 0...100_000, using: &random)) / 1_000
            let source: StepSource = Bool.random(using: &random) ? .watch : .phone
            samples.append(StepSample(start: start, end: start + duration, count: count, source: source))
        }
        return samples
    }

    /// Up to 30 payments of one user in processing order, ids `firstId...`: new charges and
    /// refunds (of earlier rows, of unknown ids, without `refund_of`), client retries that reuse an
    /// earlier row's key and values, reused keys with other values, and some invalid fields.
    public static func userPayments(firstId: UInt32, using random: inout some RandomNumberGenerator) -> [PaymentRequest] {
        let currencies: [Currency?] = [.usd, .usd, .usd, .eur, .eur, .jpy, .kwd, nil]
        let tokens: [GatewayResponse] = [.approved, .declined, .timedOut, .lost]
        var payments: [PaymentRequest] = []
        for index in 0..<Int.random(in: 1...30, using: &random) {
            let id = firstId + UInt32(index)
            var script = GatewayScript([])
            for _ in 0..<Int.random(in: 1...4, using: &random) { script.append(tokens.randomElement(using: &random)!) }
            let roll = Int.random(in: 0..<100, using: &random)
            if let earlier = payments.randomElement(using: &random), roll < 25 {
                var copy = earlier
                copy.id = id
                copy.createdAt = Int64(index)
                copy.script = script
                if roll >= 18 { copy.amountMinor = (copy.amountMinor ?? 0) + 1 }
                payments.append(copy)
                continue
            }
            let kind: PaymentKind = Int.random(in: 0..<5, using: &random) < 3 ? .charge : .refund
            var refundOf: UInt32?
            if kind == .refund {
                switch Int.random(in: 0..<10, using: &random) {
                case 0: refundOf = nil
                case 1: refundOf = firstId + 10_000
                default: refundOf = payments.randomElement(using: &random)?.id
                }
            }
            let keyLength = Int.random(in: 0..<20, using: &random) == 0
                ? [0, 256].randomElement(using: &random)! : Int.random(in: 1...255, using: &random)
            let currency = currencies.randomElement(using: &random)!
            var amount: Int64? = Int64.random(in: 1...20_000, using: &random)
            switch Int.random(in: 0..<30, using: &random) {
            case 0: amount = nil
            case 1: amount = -Int64.random(in: 0...5, using: &random)
            case 2: amount = (currency ?? .usd).limitMinor + Int64.random(in: 0...1, using: &random)
            default: break
            }
            payments.append(
                PaymentRequest(
                    id: id, key: UInt32.random(in: 1...12, using: &random), keyLength: keyLength, kind: kind,
                    amountMinor: amount, currency: currency, createdAt: Int64(index), refundOf: refundOf, script: script
                )
            )
        }
        return payments
    }
}
