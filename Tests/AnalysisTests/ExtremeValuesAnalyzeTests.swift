@_spi(Tooling) import Analysis
import Datasets
import Foundation
import Testing
import TestSupport

/// Issue 45: values SPEC §0's grammar allows that trapped `analyze` (SIGILL) while it wrote its output
/// files — decimals of 17 or 400 digits, below a Double's precision, `-0`, instants at both ends of
/// Int64 — give the documented outputs (docs/datasets.md, "Where SPEC is silent") in every format.
@Suite("analyze of values at the ends of the grammar", .tags(.endToEnd))
struct ExtremeValuesAnalyzeTests {
    static let zeros = String(repeating: "0", count: 400)
    /// A decimal of 309 digits just below `Double.greatestFiniteMagnitude`.
    static let nearlyGreatest = "17976931348623157" + String(repeating: "0", count: 292)

    static let users = """
        user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity
        u1,0,16:8,male,40,70,170,light
        u2,840,none,female,30,60,160,active

        """
    static let steps = """
        sample_id,user_id,source,start,end,count
        s1,u1,watch,0,60,12345678901234567
        s2,u1,phone,86400,86460,1\(zeros)
        s3,u1,phone,172800,172860,-0.\(zeros)1
        s4,u1,watch,172800,172860,-0
        s5,u1,watch,259200,259260,0.\(zeros)1
        s6,u2,watch,-9223372036854775808,-9223372036854775807,9007199254740.993
        s7,u2,phone,9223372036854775000,9223372036854775807,\(nearlyGreatest)
        s8,u2,watch,9223372036854775000,9223372036854775807,\(nearlyGreatest)

        """
    static let meals = """
        meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g
        m1,u1,0,60,lunch,12345678901234567,1\(zeros),0.\(zeros)1,-0
        m2,u1,30,90,snack,9223372036854.775807,1,1,1
        m3,u1,86400,86460,lunch,-0.\(zeros)1,1,1,1
        m4,u2,-9223372036854775808,-9223372036854775800,lunch,-0,1,1,1
        m5,u2,9223372036854775000,9223372036854775807,dinner,0.\(zeros)5,1,1,1

        """

    static let stepsTotal = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368"
    static let stepsAverage = "25681330498033082970532710200757630725704876101433975276596254140063566898966392992378431139655315299475755202384698272992365078264562914661522498381643688668844128857244054810896264977973958790252067961467152836510195279946120416402837262133782184674153452634909358672048958794242786870434697168272024928256"

    static let expected: [String: String] = [
        "fasting_summary.csv": """
            user_id,meals,rejected,episodes,fasts,total_fast_s,longest_fast_s,evaluated_days,compliant_days
            u1,2,1,1,0,0,0,1,1
            u2,2,0,2,1,9223372036854775807,9223372036854775807,0,0

            """,
        // kcal past 2^63 − 1 millionths saturate, per meal and per day; a fast past Int64's range is Int64.max seconds.
        "fasting_daily.csv": """
            user_id,day,episodes,kcal,eating_window_s,fasts_ended,longest_fast_ended_s,compliant
            u1,1970-01-01,1,9223372036854.776,90,0,0,1
            u2,-292277022657-01-27,1,0.000,8,0,0,
            u2,292277026596-12-05,1,0.000,807,1,9223372036854775807,

            """,
        // A count past a Double's range is infinite (and so is every average it enters); one below its
        // precision keeps its sign (a negative one is rejected); whole values print all their digits.
        "steps_daily.csv": """
            user_id,day,steps,avg7
            u1,1970-01-01,12345678901234568.000,1763668414462081.250
            u1,1970-01-02,inf,inf
            u1,1970-01-03,0.000,inf
            u1,1970-01-04,0.000,inf
            u2,-292277022657-01-27,9007199254740.992,1286742750677.285
            u2,292277026596-12-05,\(stepsTotal).000,\(stepsAverage).000

            """,
        "totals.json": """
            {
              "users": {"read": 2, "accepted": 2, "rejected": {}},
              "meals": {"read": 5, "accepted": 4, "rejected": {"negative_value": 1}},
              "steps": {"read": 8, "accepted": 7, "rejected": {"negative_value": 1}}
            }

            """,
    ]

    @Test("every output is written, the same in every format", arguments: ["csv", "ndjson", "csv.gz", "sqlite"])
    func extremes(format: String) async throws {
        // Given users, meals and steps with values at the ends of the grammar, in one format
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        for (kind, csv) in [("users", Self.users), ("meals", Self.meals), ("steps", Self.steps)] {
            switch format {
            case "csv": try sut.write("\(kind).csv", csv)
            case "ndjson": try sut.write("\(kind).ndjson", ndjson(fromCSV: csv))
            case "csv.gz": try sut.writeGzip("\(kind).csv.gz", csv)
            default: try sut.writeSQLite("dataset.sqlite", table: kind, csv: csv)
            }
        }
        // When analyzed (small chunks too, so that the rows meet the chunk boundaries)
        let out = try await analyze(sut), small = try await analyze(sut, tasks: 3, chunkBytes: 97)
        // Then nothing traps, and every output is the documented one
        for (name, text) in Self.expected.sorted(by: { $0.key < $1.key }) {
            #expect(try out.read(name) == text, "\(name)")
            #expect(try small.read(name) == text, "\(name)")
        }
    }
}
