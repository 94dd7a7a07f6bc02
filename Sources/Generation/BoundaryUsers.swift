@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios

/// The users a scenario's `boundaries:` share plants: every `stride`-th user (from a phase drawn
/// from the seed) gets rows that sit on both sides of every `SpecBoundary` measured in `run`, laid
/// out day by day below, at the SPEC defaults (`min_fast` 10800 s, `max_attempts` 3). A boundary
/// user's plan fixes its UTC offset and protocol; plans 4 and 5 are the `users` rows just outside
/// the offset range (rejected, without rows of their own).
enum BoundaryPlan {
    /// UTC offset and protocol of each plan; the last two are rejected `malformed`.
    static let profiles: [(offset: Int32, fastingProtocol: FastingProtocol)] = [
        (-720, .sixteenEight), (0, .eighteenSix), (840, .twentyFour), (345, .omad), (-721, .sixteenEight), (841, .eighteenSix),
    ]
    /// Plans whose user is accepted.
    static let accepted = 4

    /// Every `stride`-th user, shifted by `phase`; `stride` 0: none.
    static func layout(share: Double, seed: UInt64) -> (stride: Int, phase: Int) {
        guard share > 0 else { return (0, 0) }
        let stride = max(1, Int((1 / share).rounded()))
        return (stride, Int(seed % UInt64(stride)))
    }
}

extension GenerationContext {
    /// The boundary plan of user `index`, nil for an ordinary user.
    func boundaryPlan(of index: Int) -> Int? {
        guard boundaryLayout.stride > 0 else { return nil }
        let shifted = index + boundaryLayout.phase
        guard shifted % boundaryLayout.stride == 0 else { return nil }
        return shifted / boundaryLayout.stride % BoundaryPlan.profiles.count
    }

    /// How many boundary users of the same plan come before boundary user `index` (0 for the first).
    func boundaryRound(of index: Int) -> Int {
        (index + boundaryLayout.phase) / boundaryLayout.stride / BoundaryPlan.profiles.count
    }
}

extension Simulator {
    /// Whether user `index` is one of the boundary users the scenario's `boundaries:` share plants.
    package func isBoundaryUser(_ index: Int) -> Bool { context.boundaryPlan(of: index) != nil }
}

extension UserHabits {
    /// The profile of a boundary user of `plan`.
    mutating func makeBoundary(plan: Int) {
        let profile = BoundaryPlan.profiles[plan]
        row.utcOffsetMinutes = profile.offset
        row.fastingProtocol = profile.fastingProtocol
        row.hasWatch = true
        row.fault = plan < BoundaryPlan.accepted ? nil : .malformed
        row.variant = 4 // written as it is: an offset out of range
    }
}

extension UserGenerator {
    private static let minute: Int64 = 60
    private static let hour: Int64 = 3600

    /// The instant `seconds` after local midnight of run day `day`.
    private func local(_ day: Int, _ seconds: Int64) -> Int64 { dayStart(day) + seconds }

    /// A boundary user's meals: days 0-5 each hold boundaries of SPEC §2, later days two plain meals
    /// (none for the second user of plan 2); plan 2 ends with two meals on the last local day of Int64's range.
    func boundaryMeals(into batch: inout SimulationBatch) {
        guard profile.row.isAccepted else { return }
        // The second user of plan 2 has no meals at all (an accepted user without rows); the others cover SPEC §2.
        if boundaryPlan == 2, context.boundaryRound(of: index) == 1 { return }
        var random = stream(.meals)
        let shift = random.integer(0, 59) * Self.minute
        let limit = profile.row.fastingProtocol.windowLimitSeconds ?? 8 * Self.hour
        let fast = FastingConfiguration.defaultMinimumFast
        let user = profile.row.index
        var ordinal: UInt32 = 0
        func add(_ start: Int64, _ end: Int64, kcalMilli: Int32 = 400_000, fault: MealRejection? = nil) {
            batch.meals.append(MealRow(
                user: user, ordinal: ordinal, start: start, end: end, kcalMilli: kcalMilli, proteinMilli: max(0, kcalMilli / 20),
                carbsMilli: max(0, kcalMilli / 10), fatMilli: max(0, kcalMilli / 30), type: .lunch, fault: fault, variant: 0, late: false
            ))
            ordinal += 1
        }
        let noon = 12 * Self.hour + shift
        for day in 0..<scenario.days {
            switch day {
            case 0: // a window of exactly the limit; a zero-length meal; a meal starting at the episode's end;
                // the user's first meal arrives third (its sort must move it to the front)
                add(local(day, noon + 10 * Self.minute), local(day, noon + 10 * Self.minute))
                add(local(day, noon + 20 * Self.minute), local(day, noon + 25 * Self.minute))
                add(local(day, noon), local(day, noon + 20 * Self.minute))
                add(local(day, noon + limit - 20 * Self.minute), local(day, noon + limit))
            case 1: // a window one second over; a meal one second after the episode's end
                add(local(day, noon), local(day, noon + 20 * Self.minute))
                add(local(day, noon + 20 * Self.minute + 1), local(day, noon + 25 * Self.minute))
                add(local(day, noon + limit - 20 * Self.minute + 1), local(day, noon + limit + 1))
            case 2: // a gap of exactly min_fast, then one of min_fast - 1
                let first = 7 * Self.hour + shift
                add(local(day, first), local(day, first + 30 * Self.minute))
                let second = first + 30 * Self.minute + fast
                add(local(day, second), local(day, second + 15 * Self.minute))
                let third = second + 15 * Self.minute + fast - 1
                add(local(day, third), local(day, third + 15 * Self.minute))
            case 3: // episodes (and the fasts before them) at local midnight and one second before the next
                add(local(day, 0), local(day, 20 * Self.minute))
                add(local(day, LocalDay.secondsPerDay - 1), local(day, LocalDay.secondsPerDay + 10 * Self.minute))
            case 5: // rejections at their limits
                add(local(day, 6 * Self.hour), local(day, 6 * Self.hour + MealRejection.maximumDuration))
                add(local(day, 11 * Self.hour), local(day, 11 * Self.hour + MealRejection.maximumDuration + 1), fault: .tooLong)
                add(local(day, 20 * Self.hour), local(day, 20 * Self.hour - 1), fault: .endBeforeStart)
                add(local(day, 16 * Self.hour), local(day, 16 * Self.hour + 10 * Self.minute), kcalMilli: 0)
                add(local(day, 17 * Self.hour), local(day, 17 * Self.hour + 10 * Self.minute), kcalMilli: -1, fault: .negativeValue)
            default:
                add(local(day, noon), local(day, noon + 30 * Self.minute))
                add(local(day, noon + 6 * Self.hour), local(day, noon + 6 * Self.hour + 40 * Self.minute))
            }
        }
        if boundaryPlan == 2 { // two episodes on the last local day, whose end lies past Int64's range (SPEC §0)
            let start = Self.lastLocalDayStart(utcOffsetMinutes: profile.row.utcOffsetMinutes)
            add(start + 10 * Self.minute, start + 30 * Self.minute)
            add(start + 90 * Self.minute, start + 100 * Self.minute)
        }
    }

    /// The start of the last local day that starts within Int64's range, for a user `utcOffsetMinutes` east of UTC.
    static func lastLocalDayStart(utcOffsetMinutes: Int32) -> Int64 {
        LocalDay(instant: .max, utcOffsetMinutes: utcOffsetMinutes).exactStartInstant(utcOffsetMinutes: utcOffsetMinutes)!
    }

    /// A boundary user's step samples (SPEC §3): rows on days 0-4, then 6, 7 and 13 (even plans: 6 and 7 days
    /// after the first row, 6 days after the last) or 11 and 12 (plan 1: 7 days after the last; its first sample
    /// lies before 1970, on 1969-12-31 UTC, a negative day); plan 2 ends with a sample across the start of the
    /// last local day of Int64's range. Plan 3 has only two samples, in reverse order.
    func boundarySteps(into batch: inout SimulationBatch) {
        guard profile.row.isAccepted else { return }
        var random = stream(.steps)
        let shift = random.integer(0, 59) * Self.minute
        let user = profile.row.index
        var ordinal: UInt32 = 0
        func add(_ start: Int64, _ end: Int64, _ countMilli: Int32, _ source: StepSource, fault: StepRejection? = nil) {
            batch.steps.append(StepRow(
                user: user, ordinal: ordinal, start: start, end: end, countMilli: countMilli, source: source, fault: fault, variant: 0, late: false
            ))
            ordinal += 1
        }
        let h = Self.hour, m = Self.minute
        if boundaryPlan == 3 { // only two samples, delivered in reverse order
            add(local(1, 10 * h + shift), local(1, 10 * h + 30 * m + shift), 1_200_000, .watch)
            add(local(0, 10 * h + shift), local(0, 10 * h + 30 * m + shift), 1_100_000, .watch)
            return
        }
        let even = (boundaryPlan ?? 0) % 2 == 0
        if !even { // a first sample before 1970 (SPEC §0: any integer): a negative local day, 1969-12-31
            add(9 * h + shift - LocalDay.secondsPerDay, 9 * h + 20 * m + shift - LocalDay.secondsPerDay, 700_000, .watch)
        }
        for day in 0..<scenario.days {
            switch day {
            case 0: // a phone under a zero-count watch sample, and one under a counting watch sample
                add(local(day, 9 * h + 55 * m + shift), local(day, 10 * h + 40 * m + shift), 0, .watch)
                add(local(day, 10 * h + shift), local(day, 10 * h + 30 * m + shift), 1_800_000, .phone)
                add(local(day, 13 * h + 59 * m + shift), local(day, 14 * h + 21 * m + shift), 1_300_000, .watch)
                add(local(day, 14 * h + shift), local(day, 14 * h + 20 * m + shift), 1_000_000, .phone)
            case 1: // watch and phone sharing an edge either way, and one second of overlap
                add(local(day, 10 * h + shift), local(day, 10 * h + 30 * m + shift), 2_000_000, .watch)
                add(local(day, 10 * h + 30 * m + shift), local(day, 11 * h + shift), 1_500_000, .phone)
                add(local(day, 14 * h + 30 * m + shift), local(day, 15 * h + shift), 900_000, .phone)
                add(local(day, 15 * h + shift), local(day, 15 * h + 30 * m + shift), 1_100_000, .watch)
                add(local(day, 17 * h + shift), local(day, 17 * h + 30 * m + shift), 1_700_000, .watch)
                add(local(day, 17 * h + 30 * m + shift - 1), local(day, 18 * h + shift), 1_600_000, .phone)
            case 2: // the longest and the shortest samples, zero and negative counts
                add(local(day, 12 * h + shift), local(day, 12 * h + shift + StepRejection.maximumDuration), 5_000_000, .phone)
                add(local(day, 13 * h + shift), local(day, 13 * h + shift + StepRejection.maximumDuration + 1), 5_000_000, .phone,
                    fault: .badInterval)
                add(local(day, 19 * h + shift), local(day, 19 * h + 10 * m + shift), 0, .phone)
                add(local(day, 19 * h + 30 * m + shift), local(day, 19 * h + 40 * m + shift), -1, .phone, fault: .negativeValue)
                add(local(day, 20 * h + shift), local(day, 20 * h + shift + 1), 1000, .phone)
                add(local(day, 21 * h + shift), local(day, 21 * h + shift), 1000, .phone, fault: .badInterval)
            case 4: // ends at local midnight: day 5 stays untouched
                add(local(day, 23 * h + 30 * m), local(day + 1, 0), 500_000, .watch)
            case 6 where even, 11 where !even: // ends one second after midnight: the next day is touched
                add(local(day, 23 * h + 30 * m), local(day + 1, 1), 500_000, .watch)
            case 13 where even: // 6 days after the last row
                add(local(day, 9 * h + shift), local(day, 9 * h + 40 * m + shift), 2_400_000, .watch)
            default:
                break
            }
        }
        if boundaryPlan == 2 { // a sample across the start of the last local day (its UTC midnight lies past Int64's range)
            let start = Self.lastLocalDayStart(utcOffsetMinutes: profile.row.utcOffsetMinutes)
            add(start - 5 * m, start + 5 * m, 600_000, .phone)
        }
    }

    /// A boundary user's payments (SPEC §4), on days 0-3; one key has exactly the maximum length, and
    /// retries of a charge's key and of refunds' keys each change one field of the fingerprint alone.
    func boundaryPayments(into batch: inout SimulationBatch) {
        guard profile.row.isAccepted else { return }
        let user = profile.row.index
        var ordinal: UInt32 = 0
        @discardableResult
        func add(_ day: Int, _ minutes: Int64, _ amount: Int64, _ currency: Currency, kind: PaymentKind = .charge,
                 script: [GatewayResponse] = [.approved], key: UInt32? = nil, refundOf: UInt32 = PaymentRow.noCharge,
                 fault: PaymentRejection? = nil, longKey: Bool = false) -> UInt32 {
            guard day < scenario.days else { return ordinal }
            batch.payments.append(PaymentRow(
                user: user, ordinal: ordinal, keyOrdinal: key ?? ordinal, refundOf: refundOf, amountMinor: amount,
                createdAt: local(day, 9 * Self.hour + minutes * Self.minute), script: CompactScript(script), kind: kind, currency: currency,
                fault: fault, variant: longKey ? PaymentRow.longKeyVariant : 0, late: false
            ))
            ordinal += 1
            return ordinal - 1
        }
        for (i, currency) in [Currency.jpy, .usd, .kwd].enumerated() {
            add(0, Int64(10 * i), currency.limitMinor, currency)
            add(0, Int64(10 * i + 5), currency.limitMinor + 1, currency, fault: .overLimit)
        }
        add(0, 30, 1, .eur, longKey: true) // and an idempotency key of exactly the maximum length
        add(0, 35, 0, .eur, fault: .invalidAmount)
        add(1, 0, 5000, .eur, script: [.timedOut, .timedOut, .approved])
        add(1, 5, 5000, .eur, script: [.timedOut, .timedOut, .timedOut, .approved])
        add(1, 10, 5000, .eur, script: [.timedOut, .timedOut, .lost])
        add(1, 15, 5000, .eur, script: [.timedOut, .timedOut, .timedOut])
        for (i, excess) in [Int64(0), 1].enumerated() {
            let charge = add(2, Int64(30 * i), 10_000, .gbp)
            add(2, Int64(30 * i + 10), 4000, .gbp, kind: .refund, refundOf: charge)
            add(2, Int64(30 * i + 20), 6000 + excess, .gbp, kind: .refund, refundOf: charge, fault: excess > 0 ? .refundExceeds : nil)
        }
        let original = add(3, 0, 2500, .chf)
        add(3, 5, 2500, .chf, key: original)
        add(3, 10, 2501, .chf, key: original, fault: .idempotencyConflict)
        // Retries whose key matches while exactly one field of the fingerprint (kind, amount_minor, currency,
        // refund_of) differs: each is idempotency_conflict (SPEC §4 step 2). The charge's amount changed alone
        // above; here its kind (a refund naming nothing) and its currency. A charge's refund_of is always
        // empty (SPEC §0), so only a refund's differs alone.
        add(3, 15, 2500, .chf, kind: .refund, key: original, fault: .idempotencyConflict)
        add(3, 20, 2500, .eur, key: original, fault: .idempotencyConflict)
        // A refund of a captured charge, then its key with the amount, the currency or refund_of changed alone.
        let first = add(3, 25, 3000, .chf), second = add(3, 30, 3000, .chf)
        let refund = add(3, 35, 1000, .chf, kind: .refund, refundOf: first)
        add(3, 40, 1001, .chf, kind: .refund, key: refund, refundOf: first, fault: .idempotencyConflict)
        add(3, 45, 1000, .eur, kind: .refund, key: refund, refundOf: first, fault: .idempotencyConflict)
        add(3, 50, 1000, .chf, kind: .refund, key: refund, refundOf: second, fault: .idempotencyConflict)
        add(3, 55, 1000, .chf, kind: .refund, key: refund, fault: .idempotencyConflict)
        // A refund naming nothing (unknown_charge: its key is recorded all the same), then its key as a charge.
        let orphan = add(3, 60, 700, .chf, kind: .refund, fault: .unknownCharge)
        add(3, 65, 700, .chf, key: orphan, fault: .idempotencyConflict)
    }
}

/// The boundary users every check adds to a scenario's own (`DifferentialCheck`), so that a check
/// reaches every measured `SpecBoundary` whatever the scenario: `size` users of the same seed, all
/// boundary users (share 1, ten per plan), over the `days` the layout needs, numbered right after
/// the scenario's users (`u0000300` to `u0000359` for smoke's 300). They are checked only: never
/// timed, written or counted in a run's outputs.
package struct BoundaryPopulation: Sendable {
    /// Boundary users checked.
    package static let size = 60
    /// Days of the layout: the last row sits on day 13.
    package static let days = 14

    /// The generator of the population (the scenario with `boundaries: 1`, `days` days).
    package let simulator: Simulator
    /// The population's users: `size` indices after the scenario's.
    package let users: UserSelection

    /// The population added to `scenario`'s users, from `seed`.
    package init(after scenario: Scenario, seed: UInt64) {
        var copy = scenario
        copy.boundaries = 1
        copy.days = Self.days
        copy.users = scenario.users + Self.size
        simulator = Simulator(scenario: copy, seed: seed)
        users = UserSelection(users: scenario.users..<copy.users)
    }

    /// Whether user `index` is one of the population's.
    package func contains(_ index: Int) -> Bool { users.users.contains(index) }
}
