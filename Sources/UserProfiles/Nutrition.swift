/// Why a body measurement or energy figure cannot be used.
package enum BodyMetricError: Error, Equatable, Sendable {
    /// A weight (kg) of 0 or less.
    case nonPositiveWeight(Double)
    /// A height (cm) of 0 or less.
    case nonPositiveHeight(Double)
    /// An age (years) of 0 or less.
    case nonPositiveAge(Int)
    /// A meal's `kcal` of 0 or less: it has no macro ratios.
    case nonPositiveCalories(Double)
    /// A macro (g) below 0.
    case negativeMacro(Double)
}

/// Daily energy need: revised Harris–Benedict BMR × activity multiplier (SPEC §1).
package enum EnergyNeed {
    /// Basal metabolic rate in kcal/day.
    package static func basalMetabolicRate(sex: Sex, weightKg: Double, heightCm: Double, age: Int) throws(BodyMetricError) -> Double {
        guard weightKg > 0 else { throw .nonPositiveWeight(weightKg) }
        guard heightCm > 0 else { throw .nonPositiveHeight(heightCm) }
        guard age > 0 else { throw .nonPositiveAge(age) }
        let a = Double(age)
        switch sex {
        case .male: return 88.362 + 13.397 * weightKg + 4.799 * heightCm - 5.677 * a
        case .female: return 447.593 + 9.247 * weightKg + 3.098 * heightCm - 4.330 * a
        }
    }

    /// Daily energy need in kcal/day.
    package static func dailyKcal(sex: Sex, weightKg: Double, heightCm: Double, age: Int, activity: ActivityLevel) throws(BodyMetricError) -> Double {
        try basalMetabolicRate(sex: sex, weightKg: weightKg, heightCm: heightCm, age: age) * activity.multiplier
    }
}

/// The share of a meal's own energy (`kcal`) that each macronutrient gives, at 4 kcal/g for protein
/// and carbohydrate and 9 kcal/g for fat (SPEC §1): 30 / 50 / 15 g in a 500 kcal meal give 24 / 40 /
/// 27 %. The three need not add up to 1.
package struct MacroRatios: Equatable, Sendable {
    /// Share of the meal's kcal from protein.
    package var protein: Double
    /// Share of the meal's kcal from carbohydrate.
    package var carbs: Double
    /// Share of the meal's kcal from fat.
    package var fat: Double

    /// The ratios of a meal of `kcal` with these grams; a meal without energy (`kcal <= 0`) has no
    /// ratios, and negative grams are an error.
    package init(kcal: Double, proteinG: Double, carbsG: Double, fatG: Double) throws(BodyMetricError) {
        for grams in [proteinG, carbsG, fatG] where grams < 0 { throw .negativeMacro(grams) }
        guard kcal > 0 else { throw .nonPositiveCalories(kcal) }
        protein = 4 * proteinG / kcal
        carbs = 4 * carbsG / kcal
        fat = 9 * fatG / kcal
    }

    /// Grams of each macronutrient that give `kcal` with the given energy shares.
    package static func grams(kcal: Double, proteinShare: Double, carbsShare: Double, fatShare: Double) throws(BodyMetricError) -> (protein: Double, carbs: Double, fat: Double) {
        guard kcal > 0 else { throw .nonPositiveCalories(kcal) }
        return (kcal * proteinShare / 4, kcal * carbsShare / 4, kcal * fatShare / 9)
    }
}

/// Body-mass index and its WHO category.
package struct BodyMassIndex: Equatable, Sendable {
    /// The WHO categories: below 18.5, below 25, below 30, and 30 or more.
    package enum Category: String, Sendable {
        /// Below 18.5.
        case underweight
        /// From 18.5 to below 25.
        case normal
        /// From 25 to below 30.
        case overweight
        /// 30 or more.
        case obese
    }

    /// kg/m².
    package let value: Double

    /// The BMI of a weight and a height; throws for a non-positive one.
    package init(weightKg: Double, heightCm: Double) throws(BodyMetricError) {
        guard weightKg > 0 else { throw .nonPositiveWeight(weightKg) }
        guard heightCm > 0 else { throw .nonPositiveHeight(heightCm) }
        let m = heightCm / 100
        value = weightKg / (m * m)
    }

    /// < 18.5 underweight, < 25 normal, < 30 overweight, otherwise obese.
    package var category: Category {
        switch value {
        case ..<18.5: .underweight
        case ..<25: .normal
        case ..<30: .overweight
        default: .obese
        }
    }
}
