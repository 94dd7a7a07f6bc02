@testable import Datasets
@_spi(Tooling) import HealthCore
import Testing

@Suite("RowDecoders.meal: meals.csv rows (SPEC §2)")
struct MealRowDecoderTests {
    @Test("a valid meal becomes a candidate of its user")
    func accepted() throws {
        // Given the default meal of u0000001 (index 0): 30 minutes, 650.5 kcal
        // When decoded
        let sut = try decodeMeal(.meal)
        // Then it is a candidate with its start, duration, kcal in millionths and id hash
        #expect(sut == .accepted(MealCandidate(
            start: 1_700_000_000, kcalMicros: 650_500_000, user: 0, duration: 1_800
        ), idHash: hashOf("m0000001")))
    }

    @Test("the candidate's meal spans [start, start + duration]")
    func candidateMeal() throws {
        // Given a meal of u0000002 from 1000 to 1600 with 12.345 kcal
        // When decoded
        let sut = try decodeMeal(CSVRowBuilder.meal.with("user_id", "u0000002").with("start", "1000").with("end", "1600").with("kcal", "12.345"))
        // Then its meal is the same interval and energy
        let candidate = try #require(sut.accepted)
        #expect(candidate.user == 1)
        #expect(candidate.duplicate == false)
        #expect(candidate.meal == Meal(start: 1000, end: 1600, kcalMicros: 12_345_000))
    }

    @Test("each malformed column is named, the user still resolved", arguments: [
        ("meal_id", ""), ("start", "1.5"), ("start", "+1700000000"), ("start", "9223372036854775808"), ("start", ""),
        ("end", "1e9"), ("end", " 1700001800"), ("type", "brunch"), ("type", "Lunch"), ("type", ""), ("type", "lunch "),
        ("type", "snacks"), ("type", "dinnet"), ("type", "breakfasts"),
        ("kcal", "1e2"), ("kcal", ""), ("protein_g", ".5"), ("carbs_g", "5."), ("fat_g", "-"), ("fat_g", "20g"),
    ])
    func malformed(column: String, text: String) throws {
        // Given the meal of u0000002 with one bad column
        let row = CSVRowBuilder.meal.with("user_id", "u0000002").with(column, text)
        // When decoded
        let sut = try decodeMeal(row)
        // Then it is malformed on that column and still names user index 1
        #expect(sut == .rejected("malformed", column: column, user: 1))
    }

    @Test("an empty user_id is malformed on user_id, with no user")
    func emptyUser() throws {
        // Given a meal without user
        // When decoded
        let sut = try decodeMeal(CSVRowBuilder.meal.with("user_id", ""))
        // Then it is malformed and names no user
        #expect(sut == .rejected("malformed", column: "user_id", user: .max))
    }

    @Test("every meal type is accepted", arguments: ["breakfast", "lunch", "dinner", "snack"])
    func types(type: String) throws {
        // Given a meal of this type
        // When decoded
        let sut = try decodeMeal(CSVRowBuilder.meal.with("type", type))
        // Then it is accepted
        #expect(sut == .accepted(MealCandidate(start: 1_700_000_000, kcalMicros: 650_500_000, user: 0, duration: 1_800), idHash: hashOf("m0000001")))
    }

    @Test("a user that is not in the directory is unknown_user", arguments: ["u0000003", "U0000001", "u0000001 "])
    func unknownUser(user: String) throws {
        // Given a meal naming no accepted user
        // When decoded
        let sut = try decodeMeal(CSVRowBuilder.meal.with("user_id", user))
        // Then it is unknown_user
        #expect(sut == .rejected("unknown_user", column: "user_id", user: .max))
    }

    @Test("end before start is end_before_start; an end equal to start is a zero-length meal")
    func endBeforeStart() throws {
        // Given a meal ending 1 s before it starts, and one ending when it starts
        // When decoded
        let backwards = try decodeMeal(CSVRowBuilder.meal.with("start", "2000").with("end", "1999"))
        let instant = try decodeMeal(CSVRowBuilder.meal.with("start", "2000").with("end", "2000"))
        // Then the first is rejected and the second accepted with duration 0
        #expect(backwards == .rejected("end_before_start", column: nil, user: 0))
        #expect(instant == .accepted(MealCandidate(start: 2000, kcalMicros: 650_500_000, user: 0, duration: 0), idHash: hashOf("m0000001")))
    }

    @Test("a meal longer than 14400 s is too_long; 14400 s is allowed")
    func tooLong() throws {
        // Given meals of 14401 s and 14400 s
        // When decoded
        let long = try decodeMeal(CSVRowBuilder.meal.with("start", "0").with("end", "14401"))
        let limit = try decodeMeal(CSVRowBuilder.meal.with("start", "0").with("end", "14400"))
        // Then only the longer one is rejected
        #expect(long == .rejected("too_long", column: nil, user: 0))
        #expect(limit == .accepted(MealCandidate(start: 0, kcalMicros: 650_500_000, user: 0, duration: 14_400), idHash: hashOf("m0000001")))
    }

    @Test("a negative kcal or macro is negative_value", arguments: [
        ("kcal", "-0.001"), ("kcal", "-650"), ("protein_g", "-1"), ("carbs_g", "-0.0000001"), ("fat_g", "-20.5"),
    ])
    func negative(column: String, text: String) throws {
        // Given a meal with one value below zero
        // When decoded
        let sut = try decodeMeal(CSVRowBuilder.meal.with(column, text))
        // Then it is negative_value
        #expect(sut == .rejected("negative_value", column: nil, user: 0))
    }

    @Test("-0 is not negative")
    func minusZero() throws {
        // Given a meal with every value -0
        let row = CSVRowBuilder.meal.with("kcal", "-0").with("protein_g", "-0.0").with("carbs_g", "-0").with("fat_g", "-0.000")
        // When decoded
        let sut = try decodeMeal(row)
        // Then it is accepted with 0 kcal
        #expect(sut == .accepted(MealCandidate(start: 1_700_000_000, kcalMicros: 0, user: 0, duration: 1_800), idHash: hashOf("m0000001")))
    }

    @Test("a rejection records line, reason, column and user as given")
    func rowRejection() {
        // Given the values of a rejected row
        // When a rejection is made of them
        let sut = RowRejection(line: 41, reason: 2, column: -1, user: 7)
        // Then it keeps them
        #expect(sut.line == 41)
        #expect(sut.reason == 2)
        #expect(sut.column == -1)
        #expect(sut.user == 7)
        #expect(sut != RowRejection(line: 41, reason: 2, column: -1, user: 8))
    }

    @Test("a row breaking two rules gets the first reason in SPEC order", arguments: [
        // malformed before unknown_user
        (CSVRowBuilder.meal.with("user_id", "nobody").with("kcal", "x"), Decoded<MealCandidate>.rejected("malformed", column: "kcal", user: .max)),
        // unknown_user before end_before_start
        (CSVRowBuilder.meal.with("user_id", "nobody").with("end", "0"), .rejected("unknown_user", column: "user_id", user: .max)),
        // end_before_start before too_long's check and negative_value
        (CSVRowBuilder.meal.with("end", "0").with("fat_g", "-1"), .rejected("end_before_start", column: nil, user: 0)),
        // too_long before negative_value
        (CSVRowBuilder.meal.with("start", "0").with("end", "20000").with("kcal", "-5"), .rejected("too_long", column: nil, user: 0)),
        // the first malformed column in file order
        (CSVRowBuilder.meal.with("start", "x").with("type", "x").with("fat_g", "x"), .rejected("malformed", column: "start", user: 0)),
        (CSVRowBuilder.meal.with("meal_id", "").with("user_id", ""), .rejected("malformed", column: "meal_id", user: .max)),
        (CSVRowBuilder.meal.with("type", "x").with("kcal", "-1"), .rejected("malformed", column: "type", user: 0)),
    ])
    func firstReason(row: CSVRowBuilder, expected: Decoded<MealCandidate>) throws {
        // Given a meal that breaks two rules
        // When decoded
        let sut = try decodeMeal(row)
        // Then the first reason wins
        #expect(sut == expected)
    }

    @Test("a meal from Int64.min to Int64.max is decoded without trapping (it is too_long)")
    func extremeTimes() throws {
        // Given a meal whose end − start exceeds Int64
        let row = CSVRowBuilder.meal.with("start", "-9223372036854775808").with("end", "9223372036854775807")
        // When it is decoded
        let sut = try decodeMeal(row)
        // Then the span, which overflows Int64, is rejected instead of trapping
        #expect(sut == .rejected("too_long", column: nil, user: 0))
    }
}
