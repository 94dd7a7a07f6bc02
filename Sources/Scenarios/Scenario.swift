@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore

/// A simulated population and its habits, read from a scenario file (see `Scenarios/README.md`).
/// Every field has a default, so a scenario names only what it changes.
@_spi(Tooling) public struct Scenario: Sendable, Equatable {
    /// The scenario's name (by default the file's stem).
    @_spi(Tooling) public var name: String
    /// What it is for.
    @_spi(Tooling) public var description = ""
    /// The root seed.
    @_spi(Tooling) public var seed: UInt64 = 1
    /// Users to simulate.
    @_spi(Tooling) public var users = 1000
    /// Days of data per user.
    @_spi(Tooling) public var days = 7
    /// The first simulated day, in days since 1970-01-01 (local days of each user start there).
    @_spi(Tooling) public var startDay: Int64 = 20_094 // 2025-01-06
    /// Who the users are (`population:`).
    @_spi(Tooling) public var population = PopulationModel()
    /// How they eat (`meals:`).
    @_spi(Tooling) public var meals = MealModel()
    /// How they walk (`steps:`).
    @_spi(Tooling) public var steps = StepModel()
    /// How they pay (`payments:`).
    @_spi(Tooling) public var payments = PaymentModel()
    /// Bad data injected on purpose (`faults:`).
    @_spi(Tooling) public var faults = FaultModel()
    /// Share of users whose rows sit on both sides of every `SpecBoundary` (`boundaries:`, 0...1).
    @_spi(Tooling) public var boundaries = 0.0
    /// How `simharness run` loads the analyzers (`load:`); the generator ignores it.
    @_spi(Tooling) public var load = LoadModel.fixed
    /// Users per batch of `simharness run` (`load.batch_users`); nil: about 8,192 events a batch.
    @_spi(Tooling) public var batchUsers: Int?
    /// A paced load that falls behind its schedule or drops events fails the run (`load.strict`),
    /// instead of passing with a warning.
    @_spi(Tooling) public var strictSchedule = false
    /// The pass/fail rules of `simharness run` (`thresholds:`), as written.
    @_spi(Tooling) public var thresholds: [ThresholdRule] = []

    /// A scenario of every default, named `name`.
    @_spi(Tooling) public init(name: String) { self.name = name }

    /// The largest user count: user ids have 7 digits.
    @_spi(Tooling) public static let maximumUsers = 9_999_999
    /// The longest simulated period, in days.
    @_spi(Tooling) public static let maximumDays = 3650
}

/// One rule of a scenario's `thresholds:` section, as written (`simharness run` parses the text).
@_spi(Tooling) public struct ThresholdRule: Sendable, Equatable {
    /// The rule, e.g. `total.events_per_s > 5e6`.
    @_spi(Tooling) public var text: String
    /// Whether a failure stops the run at once.
    @_spi(Tooling) public var abortOnFail: Bool
    /// The line of the rule in its file, for messages.
    @_spi(Tooling) public var line: Int?

    /// A rule as written.
    @_spi(Tooling) public init(text: String, abortOnFail: Bool = false, line: Int? = nil) {
        self.text = text
        self.abortOnFail = abortOnFail
        self.line = line
    }
}

/// Who the users are.
@_spi(Tooling) public struct PopulationModel: Sendable, Equatable {
    /// UTC offsets in minutes east of UTC, with weights.
    @_spi(Tooling) public var utcOffsets = Categorical<Int32>([
        (-600, 1), (-480, 8), (-420, 4), (-360, 8), (-300, 14), (-210, 1), (-180, 5), (0, 8), (60, 16), (120, 6),
        (180, 4), (240, 2), (330, 10), (345, 1), (480, 6), (540, 4), (600, 2), (720, 1), (840, 1),
    ])
    /// Fasting protocols, with weights.
    @_spi(Tooling) public var protocols = Categorical<FastingProtocol>([
        (.sixteenEight, 40), (.eighteenSix, 15), (.twentyFour, 8), (.omad, 5), (.none, 32),
    ])
    /// Sexes, with weights.
    @_spi(Tooling) public var sexes = Categorical<Sex>([(.female, 50), (.male, 50)])
    /// Activity levels, with weights.
    @_spi(Tooling) public var activities = Categorical<ActivityLevel>([
        (.sedentary, 30), (.light, 30), (.moderate, 25), (.active, 10), (.veryActive, 5),
    ])
    /// The youngest age.
    @_spi(Tooling) public var ageMin = 18
    /// The oldest age.
    @_spi(Tooling) public var ageMax = 80
    /// Mean height by sex and its standard deviation, in cm.
    @_spi(Tooling) public var heightMale = 176.0
    /// Mean height of women, in cm.
    @_spi(Tooling) public var heightFemale = 163.0
    /// Standard deviation of height, in cm.
    @_spi(Tooling) public var heightSD = 7.0
    /// Body-mass index: weight is drawn as BMI × height².
    @_spi(Tooling) public var bmiMean = 26.0
    /// Standard deviation of the BMI.
    @_spi(Tooling) public var bmiSD = 4.0

    /// The default population.
    @_spi(Tooling) public init() {}
}

/// How users eat.
@_spi(Tooling) public struct MealModel: Sendable, Equatable {
    /// Day-to-day standard deviation of the eating window's placement, in minutes.
    @_spi(Tooling) public var windowJitterMinutes = 30.0
    /// Share of days with a meal outside the protocol's window.
    @_spi(Tooling) public var breakRate = 0.08
    /// Share of days with a late-night snack, often crossing local midnight.
    @_spi(Tooling) public var lateSnackRate = 0.05
    /// Relative standard deviation of a day's intake around the user's energy need.
    @_spi(Tooling) public var intakeSD = 0.12

    /// The default habits.
    @_spi(Tooling) public init() {}
}

/// How users walk and what their devices record.
@_spi(Tooling) public struct StepModel: Sendable, Equatable {
    /// Mean walking bouts per day (Poisson).
    @_spi(Tooling) public var boutsPerDay = 8.0
    /// Bout length range, in minutes.
    @_spi(Tooling) public var boutMinutesMin = 5
    /// The longest bout, in minutes.
    @_spi(Tooling) public var boutMinutesMax = 60
    /// Mean cadence while walking, in steps per minute.
    @_spi(Tooling) public var stepsPerMinute = 60.0
    /// Probability that the phone is carried during a bout (and records it).
    @_spi(Tooling) public var phoneCarry = 0.85
    /// Share of users who own a watch.
    @_spi(Tooling) public var watchShare = 0.45
    /// Mean probability that an owner's watch is off the wrist during a bout.
    @_spi(Tooling) public var watchOffRate = 0.15

    /// The default habits.
    @_spi(Tooling) public init() {}
}

/// How users pay.
@_spi(Tooling) public struct PaymentModel: Sendable, Equatable {
    /// Mean payments per user per day (a Poisson process with a daily cycle).
    @_spi(Tooling) public var perUserPerDay = 0.6
    /// Users' home currencies, with weights.
    @_spi(Tooling) public var currencies = Categorical<Currency>([
        (.usd, 35), (.eur, 25), (.gbp, 8), (.chf, 2), (.cad, 4), (.aud, 3), (.sek, 2), (.inr, 10), (.brl, 5),
        (.jpy, 4), (.kwd, 1), (.bhd, 1),
    ])
    /// Share of payments in a currency other than the user's home currency.
    @_spi(Tooling) public var travelRate = 0.1
    /// Multiplies every currency's typical amount.
    @_spi(Tooling) public var amountScale = 1.0
    /// Log-normal spread of amounts (σ of the logarithm).
    @_spi(Tooling) public var amountSigma = 0.9
    /// Share of captured charges that get refunded.
    @_spi(Tooling) public var refundRate = 0.05
    /// Share of refunds that return part of the charge only.
    @_spi(Tooling) public var partialRefundShare = 0.5
    /// Share of partial refunds followed by a second one.
    @_spi(Tooling) public var repeatRefundRate = 0.3
    /// Share of payments that the client sends again with the same idempotency key.
    @_spi(Tooling) public var retryRate = 0.03
    /// Per-attempt probabilities of the gateway outcomes `T`, `L` and `D` (the rest is `A`).
    @_spi(Tooling) public var timeoutRate = 0.02
    /// Per-attempt probability of `L`.
    @_spi(Tooling) public var lostRate = 0.005
    /// Per-attempt probability of `D`.
    @_spi(Tooling) public var declineRate = 0.04

    /// The default habits.
    @_spi(Tooling) public init() {}
}

/// Bad data injected into `users` rows.
@_spi(Tooling) public enum UserFault: String, CaseIterable, Sendable {
    /// A broken field: the user is rejected, and every row naming them is `unknown_user`.
    case malformed
    /// The row is written twice (the second copy is rejected `duplicate`).
    case duplicate
}

/// Per-row rates of bad data injected on purpose, one per rejection reason of SPEC, plus
/// out-of-order delivery. Every rate not given in the scenario takes `defaultRate`.
@_spi(Tooling) public struct FaultModel: Sendable, Equatable {
    /// Rates of the `users` faults given in the scenario.
    @_spi(Tooling) public var users: [UserFault: Double] = [:]
    /// Rates of the `meals` faults given in the scenario.
    package var meals: [MealRejection: Double] = [:]
    /// Rates of the `steps` faults given in the scenario.
    package var steps: [StepRejection: Double] = [:]
    /// Rates of the `payments` faults given in the scenario.
    @_spi(Tooling) public var payments: [PaymentRejection: Double] = [:]
    /// Share of meal rows delivered late, when given.
    @_spi(Tooling) public var mealsOutOfOrder: Double?
    /// Share of step rows delivered late, when given.
    @_spi(Tooling) public var stepsOutOfOrder: Double?
    /// Share of payment rows delivered late, when given.
    @_spi(Tooling) public var paymentsOutOfOrder: Double?
    /// The rate of every fault not given.
    @_spi(Tooling) public var defaultRate = 0.0005

    /// Every rate at its default.
    @_spi(Tooling) public init() {}

    /// The rate of a `users` fault.
    @_spi(Tooling) public func rate(_ fault: UserFault) -> Double { users[fault] ?? defaultRate }
    /// The rate of a `meals` fault.
    package func rate(_ fault: MealRejection) -> Double { meals[fault] ?? defaultRate }
    /// The rate of a `steps` fault.
    package func rate(_ fault: StepRejection) -> Double { steps[fault] ?? defaultRate }
    /// The rate of a `payments` fault.
    @_spi(Tooling) public func rate(_ fault: PaymentRejection) -> Double { payments[fault] ?? defaultRate }
}
