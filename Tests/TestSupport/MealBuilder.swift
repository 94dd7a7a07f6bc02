@_spi(Tooling) import HealthCore

/// Builds a `Meal`: by default a 30-minute, 500 kcal meal at 08:00 UTC on `TestTime.referenceDay`.
public struct MealBuilder: Sendable {
    public var start = TestTime.instant(hour: 8)
    public var end = TestTime.instant(hour: 8, minute: 30)
    public var kcalMicros: Int64 = 500_000_000

    public init() {}

    /// The meal spans `[start, end]` (UTC instants).
    public func from(_ start: Int64, to end: Int64) -> Self {
        modified(self) {
            $0.start = start
            $0.end = end
        }
    }

    /// The meal starts at local `hour:minute` of `day` and lasts `seconds`.
    public func at(
        day: Int64 = TestTime.referenceDay, hour: Int64, minute: Int64 = 0, lasting seconds: Int64 = 1_800,
        utcOffsetMinutes: Int32 = 0
    ) -> Self {
        let start = TestTime.instant(day: day, hour: hour, minute: minute, utcOffsetMinutes: utcOffsetMinutes)
        return from(start, to: start + seconds)
    }

    /// Energy in millionths of a kcal.
    public func kcalMicros(_ micros: Int64) -> Self { modified(self) { $0.kcalMicros = micros } }

    public func build() -> Meal { Meal(start: start, end: end, kcalMicros: kcalMicros) }
}

/// Builds a `FastingConfiguration`: by default UTC, 16:8, the default `min_fast`.
public struct FastingConfigurationBuilder: Sendable {
    public var utcOffsetMinutes: Int32 = 0
    public var fastingProtocol: FastingProtocol = .sixteenEight
    public var minimumFastSeconds = FastingConfiguration.defaultMinimumFast

    public init() {}

    public func offset(_ minutes: Int32) -> Self { modified(self) { $0.utcOffsetMinutes = minutes } }
    public func fastingProtocol(_ value: FastingProtocol) -> Self { modified(self) { $0.fastingProtocol = value } }
    public func minimumFast(_ seconds: Int64) -> Self { modified(self) { $0.minimumFastSeconds = seconds } }

    package func build() -> FastingConfiguration {
        FastingConfiguration(utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, minimumFastSeconds: minimumFastSeconds)
    }
}
