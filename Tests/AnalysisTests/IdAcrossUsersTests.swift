@_spi(Tooling) import Analysis
import Testing
import TestSupport

@Suite("analyze: ids are unique across users (SPEC §2, the catalogue's meals.id_across_users)")
struct IdAcrossUsersTests {
    @Test("a meal_id repeated across users is a duplicate: the first row in input order counts, for whichever user")
    func mealIdAcrossUsers() async throws {
        // Given two users whose meals share the id m1, u2's row first
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        try sut.write("users.csv", """
            user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity
            u1,0,16:8,male,30,80,180,light
            u2,0,16:8,female,30,60,165,light

            """)
        try sut.write("meals.csv", """
            meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g
            m1,u2,1700000000,1700001800,lunch,500,10,20,5
            m1,u1,1700003600,1700005400,dinner,700,10,20,5

            """)
        // When analyzed
        let out = try await analyze(sut)
        // Then u2's meal is accepted and u1's rejected as a duplicate, counted against u1
        #expect(try out.read("fasting_summary.csv") == """
            user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days
            u1,0,1,0,0,0,0,0,0
            u2,1,0,1,0,0,0,1,1

            """)
        #expect(try out.read("totals.json").contains("\"meals\": {\"read\": 2, \"accepted\": 1, \"rejected\": {\"duplicate\": 1}}"))
    }
}
