#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios

/// What every user's generator reads, made once per simulator: the scenario, the root seed and the
/// tables derived from them. A class, so that a user's generator holds one reference instead of a
/// copy of the scenario, whose dozens of arrays and strings each cost a retain and a release per
/// user, on reference counts that the tasks generating side by side contend for.
final class GenerationContext: Sendable {
    let scenario: Scenario
    let seed: UInt64
    let gaussian = GaussianTable()
    /// Local hour of the start of a walking bout.
    let boutHours: Categorical<Int64>
    /// Local hour of a payment.
    let paymentHours: Categorical<Int64>
    /// `exp(-mean)` of the daily bout count.
    let boutExpMinusMean: Double
    /// Each row stream's fault rates (made per user, they were an allocation per stream and user).
    let mealFaults: FaultRates<MealRejection>
    let stepFaults: FaultRates<StepRejection>
    let paymentFaults: FaultRates<PaymentRejection>
    /// Which users are boundary users (`BoundaryPlan.layout`).
    let boundaryLayout: (stride: Int, phase: Int)

    init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
        let bouts: [Double] = [0.2, 0.1, 0.05, 0.05, 0.1, 0.3, 1.0, 2.5, 3.5, 3.0, 2.5, 2.8, 3.5, 3.0, 2.5, 2.5, 3.0, 4.0, 4.0, 3.0, 2.2, 1.5, 0.8, 0.4]
        let payments: [Double] = [0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.5, 1.2, 2.0, 2.5, 3.0, 3.5, 4.0, 3.5, 3.0, 3.0, 3.2, 3.8, 4.2, 4.0, 3.5, 2.5, 1.5, 0.8]
        boutHours = Categorical(bouts.enumerated().map { (Int64($0.offset), $0.element) })
        paymentHours = Categorical(payments.enumerated().map { (Int64($0.offset), $0.element) })
        boutExpMinusMean = exp(-scenario.steps.boutsPerDay)
        let faults = scenario.faults
        mealFaults = FaultRates(rate: faults.rate, outOfOrder: faults.mealsOutOfOrder ?? faults.defaultRate)
        stepFaults = FaultRates(rate: faults.rate, outOfOrder: faults.stepsOutOfOrder ?? faults.defaultRate)
        paymentFaults = FaultRates(rate: faults.rate, outOfOrder: faults.paymentsOutOfOrder ?? faults.defaultRate)
        boundaryLayout = BoundaryPlan.layout(share: scenario.boundaries, seed: seed)
    }
}

/// A user's profile row and the habits that shape their rows.
struct UserHabits {
    var row: UserRow
    var energyNeed: Double
    /// Where the user's eating window sits relative to the protocol's usual time, in seconds.
    var windowShift: Int64
    /// Early bird (negative) or night owl (positive), in seconds.
    var chronotype: Int64
    var cadence: Double
    var watchOffRate: Double
    var paymentExpMinusMean: Double
    var homeCurrency: Currency
    var amountFactor: Double
}

/// Generates one user's rows from their own random streams.
struct UserGenerator {
    let context: GenerationContext
    let index: Int
    let profile: UserHabits
    /// The user's `BoundaryPlan`, nil for an ordinary user.
    let boundaryPlan: Int?

    var scenario: Scenario { context.scenario }

    init(context: GenerationContext, index: Int) {
        self.context = context
        self.index = index
        var profile = Self.makeProfile(context: context, index: index)
        boundaryPlan = context.boundaryPlan(of: index)
        if let boundaryPlan { profile.makeBoundary(plan: boundaryPlan) }
        self.profile = profile
    }

    func stream(_ kind: RandomStream) -> Xoshiro256StarStar {
        RandomStream.generator(seed: context.seed, user: index, stream: kind)
    }

    /// The UTC instant at which local day `day` (0-based in the run) starts for this user.
    func dayStart(_ day: Int) -> Int64 {
        LocalDay(index: scenario.startDay + Int64(day)).startInstant(utcOffsetMinutes: profile.row.utcOffsetMinutes)
    }

    static func makeProfile(context: GenerationContext, index: Int) -> UserHabits {
        let population = context.scenario.population
        let gaussian = context.gaussian
        var random = RandomStream.generator(seed: context.seed, user: index, stream: .profile)
        let sex = population.sexes.draw(&random)
        let age = Int32(random.integer(Int64(population.ageMin), Int64(population.ageMax)))
        let meanHeight = sex == .male ? population.heightMale : population.heightFemale
        let height = min(max(gaussian.draw(&random, mean: meanHeight, sd: population.heightSD), 130), 220)
        let bmi = min(max(gaussian.draw(&random, mean: population.bmiMean, sd: population.bmiSD), 15), 50)
        let weight = bmi * (height / 100) * (height / 100)
        let steps = context.scenario.steps
        let payments = context.scenario.payments
        var row = UserRow(
            index: UInt32(index), utcOffsetMinutes: population.utcOffsets.draw(&random),
            fastingProtocol: population.protocols.draw(&random), sex: sex, activity: population.activities.draw(&random),
            age: age, weightMilli: Int32((weight * 10).rounded()) * 100, heightMilli: Int32((height * 10).rounded()) * 100,
            hasWatch: random.chance(steps.watchShare), fault: nil, variant: 0
        )
        let windowShift = Int64(gaussian.draw(&random, mean: 0, sd: 45 * 60))
        let chronotype = Int64(gaussian.draw(&random, mean: 0, sd: 60 * 60))
        let cadence = steps.stepsPerMinute * max(0.3, 1 + 0.25 * gaussian.draw(&random))
        let watchOffRate = min(1, random.uniform(0, 2 * steps.watchOffRate))
        let paymentRate = payments.perUserPerDay * exp(0.5 * gaussian.draw(&random) - 0.125)
        let homeCurrency = payments.currencies.draw(&random)
        let amountFactor = exp(0.4 * gaussian.draw(&random))

        var faults = RandomStream.generator(seed: context.seed, user: index, stream: .userFaults)
        let rates = context.scenario.faults
        let u = faults.unit()
        if u < rates.rate(UserFault.malformed) {
            row.fault = .malformed
            row.variant = UInt8(faults.below(4))
        } else if u < rates.rate(UserFault.malformed) + rates.rate(UserFault.duplicate) {
            row.fault = .duplicate
        }
        return UserHabits(
            row: row, energyNeed: row.energyNeedKcal, windowShift: windowShift, chronotype: chronotype, cadence: cadence,
            watchOffRate: watchOffRate, paymentExpMinusMean: exp(-paymentRate), homeCurrency: homeCurrency,
            amountFactor: amountFactor
        )
    }
}
