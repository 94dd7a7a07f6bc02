@_spi(Tooling) import Analysis
import Testing
import TestSupport

@Suite("analyze users.csv: rejected users in line order, the first row of an id counts (SPEC §1)")
struct UsersStageTests {
    /// Rows after the header, line 2 on: repeated ids in and out of order, malformed rows, a blank
    /// line and `\r\n` line ends (which leave the one-pass path for the general one).
    static let rows = [
        "u3,0,16:8,male,30,80,180,light", // 2: u3, protocol 16:8
        "u1,0,omad,female,30,60,165,light\r", // 3: u1
        "u2,999,16:8,male,30,80,180,light", // 4: malformed utc_offset_minutes
        "", // 5: blank
        "u3,0,none,male,30,80,180,light", // 6: duplicate of line 2, another protocol
        "u1,60,16:8", // 7: malformed, too few fields
        "u0,0,16:8,male,30,80,180,light", // 8: u0, before every other id
        "u1,0,16:8,male,30,80,180,light", // 9: duplicate of line 3
        "u2,0,x,male,30,80,180,light", // 10: malformed protocol
        "u2,0,16:8,male,30,80,180,light", // 11: u2, its first valid row
        "u0,0,16:8,male,30,80,180,light\r", // 12: duplicate of line 8
    ]

    @Test("malformed and duplicate rows are logged by line, and the first row of each id is the user",
          arguments: ["", ",note"])
    func rejectionsInLineOrder(extraColumn: String) async throws {
        // Given those rows under the canonical header, or with an extra column (no one-pass path), and a meal of u3
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        let header = "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity" + extraColumn
        let lines = Self.rows.map { row in
            guard !row.isEmpty, !extraColumn.isEmpty else { return row }
            return row.hasSuffix("\r") ? String(row.dropLast()) + ",x\r" : row + ",x"
        }
        try sut.write("users.csv", ([header] + lines).joined(separator: "\n") + "\n")
        try sut.write("meals.csv", "meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g\nm1,u3,1700000000,1700001800,lunch,500,10,20,5\n")
        // When analyzed
        let out = try await analyze(sut)
        // Then the rejected rows come in line order, malformed and duplicate interleaved
        #expect(try out.read("rejections.csv") == """
            file,line,reason,column
            users.csv,4,malformed,utc_offset_minutes
            users.csv,6,duplicate,
            users.csv,7,malformed,
            users.csv,9,duplicate,
            users.csv,10,malformed,protocol
            users.csv,12,duplicate,

            """)
        #expect(try out.read("totals.json").contains("\"users\": {\"read\": 10, \"accepted\": 4, \"rejected\": {\"malformed\": 3, \"duplicate\": 3}}"))
        // And the users are u0 to u3 in id order, u3 with the protocol of its first row (16:8: its day is evaluated)
        #expect(try out.read("fasting_summary.csv") == """
            user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days
            u0,0,0,0,0,0,0,0,0
            u1,0,0,0,0,0,0,0,0
            u2,0,0,0,0,0,0,0,0
            u3,1,0,1,0,0,0,1,1

            """)
    }
}
