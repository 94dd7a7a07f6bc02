@_spi(Tooling) import HealthCore
@_spi(Tooling) import Scenarios

extension UserGenerator {
    /// A planned meal: local second of day, duration range in minutes, type, share of the day's kcal.
    private struct Plan {
        var at: Int64
        var minMinutes: Int64
        var maxMinutes: Int64
        var type: MealType
        var share: Double
    }

    private static let hour: Int64 = 3600

    /// The meals a protocol plans, around its usual time: with each meal moved by up to ±10 minutes,
    /// the last one still ends within the protocol's limit after the first one starts.
    private static func plans(_ fastingProtocol: FastingProtocol) -> [Plan] {
        switch fastingProtocol {
        case .sixteenEight:
            [Plan(at: 11 * hour + 1800, minMinutes: 20, maxMinutes: 45, type: .lunch, share: 0.40),
             Plan(at: 15 * hour, minMinutes: 5, maxMinutes: 15, type: .snack, share: 0.12),
             Plan(at: 18 * hour + 1200, minMinutes: 20, maxMinutes: 40, type: .dinner, share: 0.48)]
        case .eighteenSix:
            [Plan(at: 12 * hour + 1800, minMinutes: 20, maxMinutes: 45, type: .lunch, share: 0.45),
             Plan(at: 17 * hour + 600, minMinutes: 20, maxMinutes: 40, type: .dinner, share: 0.55)]
        case .twentyFour:
            [Plan(at: 15 * hour, minMinutes: 15, maxMinutes: 30, type: .lunch, share: 0.40),
             Plan(at: 18 * hour, minMinutes: 20, maxMinutes: 40, type: .dinner, share: 0.60)]
        case .omad:
            [Plan(at: 18 * hour, minMinutes: 30, maxMinutes: 55, type: .dinner, share: 1)]
        case .none:
            [Plan(at: 7 * hour + 1800, minMinutes: 15, maxMinutes: 30, type: .breakfast, share: 0.25),
             Plan(at: 12 * hour + 1800, minMinutes: 20, maxMinutes: 45, type: .lunch, share: 0.33),
             Plan(at: 15 * hour + 1800, minMinutes: 5, maxMinutes: 15, type: .snack, share: 0.07),
             Plan(at: 19 * hour, minMinutes: 30, maxMinutes: 60, type: .dinner, share: 0.35)]
        }
    }

    private static let allPlans: [[Plan]] = FastingProtocol.allCases.map { plans($0) }

    /// Appends the user's meals, day by day in time order, with the injected faults.
    func meals(into batch: inout SimulationBatch) {
        guard boundaryPlan == nil else { return boundaryMeals(into: &batch) }
        let model = scenario.meals
        let gaussian = context.gaussian
        var random = stream(.meals)
        var faults = stream(.mealFaults)
        let rates = context.mealFaults
        let plans = Self.allPlans[Int(profile.row.fastingProtocol.rawValue)]
        let user = profile.row.index
        let first = batch.meals.count
        var ordinal: UInt32 = 0

        func add(_ start: Int64, minutes: Int64, type: MealType, kcal: Double, batch: inout SimulationBatch) {
            let protein = random.uniform(0.15, 0.30)
            let fat = random.uniform(0.25, 0.40)
            let carbs = 1 - protein - fat
            var row = MealRow(
                user: user, ordinal: ordinal, start: start, end: start + minutes * 60,
                kcalMilli: Int32(kcal * 1000), proteinMilli: Int32(kcal * protein * 250), carbsMilli: Int32(kcal * carbs * 250),
                fatMilli: Int32(kcal * fat * 1000 / 9), type: type, fault: nil, variant: 0, late: false
            )
            ordinal += 1
            let injected = rates.draw(&faults)
            switch injected {
            case .none: break
            case .some(.duplicate):
                // An exact redelivered copy: only the tag differs, never the written bytes.
                batch.meals.append(row)
                row.fault = .duplicate
            case .some(let fault):
                row.fault = fault
                switch fault {
                case .malformed: row.variant = UInt8(faults.below(4))
                case .endBeforeStart: row.end = row.start - faults.integer(60, 3600)
                case .tooLong: row.end = row.start + MealRejection.maximumDuration + faults.integer(1, 7200)
                case .negativeValue:
                    if faults.chance(0.5) { row.kcalMilli = -row.kcalMilli - 1 } else { row.fatMilli = -row.fatMilli - 1 }
                default: break
                }
            }
            batch.meals.append(row)
        }

        for day in 0..<scenario.days {
            let midnight = dayStart(day)
            let shift = profile.windowShift + Int64(gaussian.draw(&random, mean: 0, sd: model.windowJitterMinutes * 60))
            let intake = profile.energyNeed * max(0.3, gaussian.draw(&random, mean: 1, sd: model.intakeSD))
            let breaks = random.chance(model.breakRate)
            let lateSnack = random.chance(model.lateSnackRate)
            let eatsSnack = random.chance(0.6)
            var shares = 0.0
            for plan in plans where plan.type != .snack || eatsSnack { shares += plan.share }
            let breakShare = breaks ? 0.15 : 0
            let snackShare = lateSnack ? 0.08 : 0
            let total = shares + breakShare + snackShare
            if breaks {
                let at = profile.row.fastingProtocol == .none ? 21 * Self.hour + 1800 : 8 * Self.hour
                add(midnight + at + shift, minutes: random.integer(10, 25), type: profile.row.fastingProtocol == .none ? .snack : .breakfast,
                    kcal: intake * breakShare / total, batch: &batch)
            }
            for plan in plans where plan.type != .snack || eatsSnack {
                let at = plan.at + shift + random.integer(-600, 600)
                add(midnight + at, minutes: random.integer(plan.minMinutes, plan.maxMinutes), type: plan.type,
                    kcal: intake * plan.share / total, batch: &batch)
            }
            if lateSnack {
                let at = 23 * Self.hour + 1200 + random.integer(0, 3600)
                add(midnight + at, minutes: random.integer(10, 40), type: .snack, kcal: intake * snackShare / total, batch: &batch)
            }
        }
        shuffleLate(&batch.meals, from: first, chance: rates.outOfOrder, using: &faults)
    }
}
