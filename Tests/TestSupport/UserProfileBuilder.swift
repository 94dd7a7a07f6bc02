@_spi(Tooling) import HealthCore
import UserProfiles

/// Builds a `UserProfile`: by default a 30-year-old man, 80 kg, 180 cm, moderately active, UTC, 16:8.
public struct UserProfileBuilder: Sendable {
    public var id = "u0000001"
    public var utcOffsetMinutes: Int32 = 0
    public var fastingProtocol: FastingProtocol = .sixteenEight
    public var sex: Sex? = .male
    public var age = 30
    public var weightKg = 80.0
    public var heightCm = 180.0
    public var activity: ActivityLevel? = .moderate

    public init() {}

    public func id(_ value: String) -> Self { modified(self) { $0.id = value } }
    public func offset(_ minutes: Int32) -> Self { modified(self) { $0.utcOffsetMinutes = minutes } }
    public func fastingProtocol(_ value: FastingProtocol) -> Self { modified(self) { $0.fastingProtocol = value } }
    public func sex(_ value: Sex?) -> Self { modified(self) { $0.sex = value } }
    public func age(_ value: Int) -> Self { modified(self) { $0.age = value } }
    public func weight(_ kg: Double) -> Self { modified(self) { $0.weightKg = kg } }
    public func height(_ cm: Double) -> Self { modified(self) { $0.heightCm = cm } }
    public func activity(_ value: ActivityLevel?) -> Self { modified(self) { $0.activity = value } }

    public func build() -> UserProfile {
        UserProfile(
            id: id, utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, sex: sex,
            age: age, weightKg: weightKg, heightCm: heightCm, activity: activity
        )
    }

    /// The fasting analyzer's view of this user.
    package func fastingConfiguration(minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast) -> FastingConfiguration {
        FastingConfiguration(utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, minimumFastSeconds: minimumFastSeconds)
    }
}
