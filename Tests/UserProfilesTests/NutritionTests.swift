@_spi(Tooling) import HealthCore
import UserProfiles
import Testing

@Suite("Energy need, macro ratios and BMI (SPEC §1)")
struct NutritionTests {
    @Test(
        "revised Harris–Benedict, computed by hand",
        arguments: [
            // 88.362 + 13.397×80 + 4.799×180 − 5.677×30 = 88.362 + 1071.76 + 863.82 − 170.31
            (Sex.male, 80.0, 180.0, 30, ActivityLevel.moderate, 1_853.632, 2_873.1296),
            // 447.593 + 9.247×60 + 3.098×165 − 4.330×25 = 447.593 + 554.82 + 511.17 − 108.25
            (.female, 60.0, 165.0, 25, .sedentary, 1_405.333, 1_686.3996),
            (.female, 60.0, 165.0, 25, .veryActive, 1_405.333, 2_670.1327),
        ] as [(Sex, Double, Double, Int, ActivityLevel, Double, Double)]
    )
    func energyNeed(sex: Sex, weight: Double, height: Double, age: Int, activity: ActivityLevel, bmr: Double, daily: Double) throws {
        // Given a person
        // When
        let basal = try EnergyNeed.basalMetabolicRate(sex: sex, weightKg: weight, heightCm: height, age: age)
        let sut = try EnergyNeed.dailyKcal(sex: sex, weightKg: weight, heightCm: height, age: age, activity: activity)
        // Then
        #expect(abs(basal - bmr) < 1e-9)
        #expect(abs(sut - daily) < 1e-9)
    }

    @Test(
        "invalid body measurements throw typed errors, checked weight, height, age",
        arguments: [
            (-1.0, 180.0, 30, BodyMetricError.nonPositiveWeight(-1)),
            (0.0, 0.0, 0, .nonPositiveWeight(0)),
            (80.0, 0.0, 0, .nonPositiveHeight(0)),
            (80.0, -5.0, 30, .nonPositiveHeight(-5)),
            (80.0, 180.0, 0, .nonPositiveAge(0)),
        ] as [(Double, Double, Int, BodyMetricError)]
    )
    func energyNeedErrors(weight: Double, height: Double, age: Int, error: BodyMetricError) {
        // Given invalid measurements, When computing, Then both entry points throw the error
        #expect(throws: error) {
            try EnergyNeed.basalMetabolicRate(sex: .female, weightKg: weight, heightCm: height, age: age)
        }
        #expect(throws: error) {
            try EnergyNeed.dailyKcal(sex: .male, weightKg: weight, heightCm: height, age: age, activity: .light)
        }
    }

    @Test("macro ratios are shares of the meal's own kcal: the seed guide's 30 / 50 / 15 g in 500 kcal give 24 / 40 / 27 %")
    func macroRatiosOfTheSeedExample() throws {
        // Given the seed guide's meal: 500 kcal with 30 g protein, 50 g carbs, 15 g fat
        // When its ratios are computed
        let sut = try MacroRatios(kcal: 500, proteinG: 30, carbsG: 50, fatG: 15)
        // Then 120 / 500, 200 / 500 and 135 / 500 (91 %: they need not add up to 100 %)
        #expect(abs(sut.protein - 0.24) < 1e-12)
        #expect(abs(sut.carbs - 0.40) < 1e-12)
        #expect(abs(sut.fat - 0.27) < 1e-12)
    }

    @Test(
        "macro ratios reject negative grams and a meal without energy",
        arguments: [
            (500.0, -1.0, 10.0, 10.0, BodyMetricError.negativeMacro(-1)),
            (500.0, 10.0, -2.0, 10.0, .negativeMacro(-2)),
            (500.0, 10.0, 10.0, -3.0, .negativeMacro(-3)),
            (0.0, 10.0, 10.0, 10.0, .nonPositiveCalories(0)),
            (-5.0, 0.0, 0.0, 0.0, .nonPositiveCalories(-5)),
        ] as [(Double, Double, Double, Double, BodyMetricError)]
    )
    func macroRatioErrors(kcal: Double, protein: Double, carbs: Double, fat: Double, error: BodyMetricError) {
        #expect(throws: error) { try MacroRatios(kcal: kcal, proteinG: protein, carbsG: carbs, fatG: fat) }
    }

    @Test("grams for 2000 kcal at 30/40/30 %: 600/4, 800/4, 600/9")
    func grams() throws {
        // Given shares, When
        let sut = try MacroRatios.grams(kcal: 2_000, proteinShare: 0.3, carbsShare: 0.4, fatShare: 0.3)
        // Then
        #expect(abs(sut.protein - 150) < 1e-9)
        #expect(abs(sut.carbs - 200) < 1e-9)
        #expect(abs(sut.fat - 66.666_666_666_7) < 1e-9)
    }

    @Test("grams for zero or negative calories throw", arguments: [0.0, -100.0])
    func gramsErrors(kcal: Double) {
        #expect(throws: BodyMetricError.nonPositiveCalories(kcal)) {
            try MacroRatios.grams(kcal: kcal, proteinShare: 0.3, carbsShare: 0.4, fatShare: 0.3)
        }
    }

    @Test(
        "BMI categories at their boundaries (height 2 m: BMI = weight / 4)",
        arguments: [
            (73.96, 18.49, BodyMassIndex.Category.underweight),
            (74.0, 18.5, .normal),
            (99.96, 24.99, .normal),
            (100.0, 25.0, .overweight),
            (119.96, 29.99, .overweight),
            (120.0, 30.0, .obese),
        ] as [(Double, Double, BodyMassIndex.Category)]
    )
    func bmiCategory(weight: Double, value: Double, category: BodyMassIndex.Category) throws {
        // Given a 200 cm person, When
        let sut = try BodyMassIndex(weightKg: weight, heightCm: 200)
        // Then
        #expect(abs(sut.value - value) < 1e-9)
        #expect(sut.category == category)
    }

    @Test("BMI of 80 kg at 180 cm is 80 / 3.24")
    func bmiValue() throws {
        let sut = try BodyMassIndex(weightKg: 80, heightCm: 180)
        #expect(abs(sut.value - 24.691_358_024_7) < 1e-9)
        #expect(sut.category == .normal)
    }

    @Test(
        "BMI rejects non-positive weight and height",
        arguments: [
            (-70.0, 180.0, BodyMetricError.nonPositiveWeight(-70)),
            (0.0, 180.0, .nonPositiveWeight(0)),
            (70.0, 0.0, .nonPositiveHeight(0)),
        ] as [(Double, Double, BodyMetricError)]
    )
    func bmiErrors(weight: Double, height: Double, error: BodyMetricError) {
        #expect(throws: error) { try BodyMassIndex(weightKg: weight, heightCm: height) }
    }
}
