/// The `type` of a meal row (SPEC §2).
@usableFromInline package enum MealType: UInt8, CaseIterable, Sendable {
    /// `breakfast`.
    case breakfast
    /// `lunch`.
    case lunch
    /// `dinner`.
    case dinner
    /// `snack`.
    case snack

    /// The spelling in dataset files.
    @usableFromInline package var name: String { spelling.description }

    /// The spelling in dataset files, as a literal (for writers that copy bytes).
    @inlinable package var spelling: StaticString {
        switch self {
        case .breakfast: "breakfast"
        case .lunch: "lunch"
        case .dinner: "dinner"
        case .snack: "snack"
        }
    }
}
