import HealthCore

/// Physical activity level and its energy multiplier (SPEC §1).
public enum ActivityLevel: String, CaseIterable, Sendable {
    /// `sedentary`: × 1.2.
    case sedentary
    /// `light`: × 1.375.
    case light
    /// `moderate`: × 1.55.
    case moderate
    /// `active`: × 1.725.
    case active
    /// `very_active`: × 1.9.
    case veryActive = "very_active"

    /// The spelling in dataset files (`rawValue`), as a literal (for writers that copy bytes).
    @inlinable public var spelling: StaticString {
        switch self {
        case .sedentary: "sedentary"
        case .light: "light"
        case .moderate: "moderate"
        case .active: "active"
        case .veryActive: "very_active"
        }
    }

    /// The factor of the basal metabolic rate (SPEC §1).
    public var multiplier: Double {
        switch self {
        case .sedentary: 1.2
        case .light: 1.375
        case .moderate: 1.55
        case .active: 1.725
        case .veryActive: 1.9
        }
    }
}

/// The sex of the revised Harris–Benedict formula (SPEC §1).
public enum Sex: String, CaseIterable, Sendable {
    /// The male formula.
    case male
    /// The female formula.
    case female

    /// The spelling in dataset files (`rawValue`), as a literal (for writers that copy bytes).
    @inlinable public var spelling: StaticString { self == .male ? "male" : "female" }
}

/// A user of `users.csv` with the fields the algorithms need.
public struct UserProfile: Hashable, Sendable {
    /// `user_id`.
    public var id: String
    /// `utc_offset_minutes`: minutes east of UTC, fixed for the user.
    public var utcOffsetMinutes: Int32
    /// `protocol`.
    public var fastingProtocol: FastingProtocol
    /// `nil` when the file holds a value outside `male`/`female`.
    public var sex: Sex?
    /// `age`, in years.
    public var age: Int
    /// `weight_kg`.
    public var weightKg: Double
    /// `height_cm`.
    public var heightCm: Double
    /// `nil` when the file holds an unknown activity level.
    public var activity: ActivityLevel?

    /// A profile of all its fields.
    public init(
        id: String, utcOffsetMinutes: Int32, fastingProtocol: FastingProtocol, sex: Sex?,
        age: Int, weightKg: Double, heightCm: Double, activity: ActivityLevel?
    ) {
        self.id = id
        self.utcOffsetMinutes = utcOffsetMinutes
        self.fastingProtocol = fastingProtocol
        self.sex = sex
        self.age = age
        self.weightKg = weightKg
        self.heightCm = heightCm
        self.activity = activity
    }

    /// The allowed range of `utc_offset_minutes`.
    public static let utcOffsetRange: ClosedRange<Int64> = -720...840
}
