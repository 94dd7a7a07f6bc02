#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import HealthCore
import PaymentsCore

/// Lookup tables built once per scenario.
struct SimulationTables: Sendable {
    let gaussian = GaussianTable()
    /// Local hour of the start of a walking bout.
    let boutHours: Categorical<Int64>
    /// Local hour of a payment.
    let paymentHours: Categorical<Int64>
    /// `exp(-mean)` of the daily bout count.
    let boutExpMinusMean: Double

    init(scenario: Scenario) {
        let bouts: [Double] = [0.2, 0.1, 0.05, 0.05, 0.1, 0.3, 1.0, 2.5, 3.5, 3.0, 2.5, 2.8, 3.5, 3.0, 2.5, 2.5, 3.0, 4.0, 4.0, 3.0, 2.2, 1.5, 0.8, 0.4]
        let payments: [Double] = [0.3, 0.2, 0.1, 0.1, 0.1, 0.2, 0.5, 1.2, 2.0, 2.5, 3.0, 3.5, 4.0, 3.5, 3.0, 3.0, 3.2, 3.8, 4.2, 4.0, 3.5, 2.5, 1.5, 0.8]
        boutHours = Categorical(bouts.enumerated().map { (Int64($0.offset), $0.element) })
        paymentHours = Categorical(payments.enumerated().map { (Int64($0.offset), $0.element) })
        boutExpMinusMean = exp(-scenario.steps.boutsPerDay)
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
    let simulator: Simulator
    let index: Int
    let profile: UserHabits

    var scenario: Scenario { simulator.scenario }
    var tables: SimulationTables { simulator.tables }

    init(simulator: Simulator, index: Int) {
        self.simulator = simulator
        self.index = index
        profile = Self.makeProfile(simulator: simulator, index: index)
    }

    func stream(_ kind: RandomStream) -> Xoshiro256StarStar {
        RandomStream.generator(seed: simulator.seed, user: index, stream: kind)
    }

    /// The UTC instant at which local day `day` (0-based in the run) starts for this user.
    func dayStart(_ day: Int) -> Int64 {
        LocalDay(index: scenario.startDay + Int64(day)).startInstant(utcOffsetMinutes: profile.row.utcOffsetMinutes)
    }

    static func makeProfile(simulator: Simulator, index: Int) -> UserHabits {
        let population = simulator.scenario.population
        let gaussian = simulator.tables.gaussian
        var random = RandomStream.generator(seed: simulator.seed, user: index, stream: .profile)
        let sex = population.sexes.draw(&random)
        let age = Int32(random.integer(Int64(population.ageMin), Int64(population.ageMax)))
        let meanHeight = sex == .male ? population.heightMale : population.heightFemale
        let height = min(max(gaussian.draw(&random, mean: meanHeight, sd: population.heightSD), 130), 220)
        let bmi = min(max(gaussian.draw(&random, mean: population.bmiMean, sd: population.bmiSD), 15), 50)
        let weight = bmi * (height / 100) * (height / 100)
        let steps = simulator.scenario.steps
        let payments = simulator.scenario.payments
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

        var faults = RandomStream.generator(seed: simulator.seed, user: index, stream: .userFaults)
        let rates = simulator.scenario.faults
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
