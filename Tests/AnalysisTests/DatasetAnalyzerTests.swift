@_spi(Tooling) import Analysis
import Datasets
import Foundation
import Testing
import TestSupport

extension Tag {
    @Tag static var endToEnd: Self
    @Tag static var property: Self
}

/// The files SPEC §5 defines (rejections.csv is ours and names lines, which differ by format).
let specOutputs = [
    "fasting_summary.csv", "fasting_daily.csv", "steps_daily.csv", "payments_outcomes.csv", "payments_ledger.csv", "totals.json",
]

let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

/// Analyzes `input` into a new scratch directory, which lives as long as the caller keeps it.
func analyze(_ input: ScratchDirectory, tasks: Int = 2, chunkBytes: Int = 4 << 20) async throws -> ScratchDirectory {
    let out = try ScratchDirectory(prefix: "analysis-tests")
    _ = try await DatasetAnalyzer.run(
        input: input.path, output: out.path, options: AnalysisOptions(tasks: tasks, chunkBytes: chunkBytes)
    )
    return out
}

func outputs(_ directory: some FileDirectory, _ names: [String] = specOutputs) throws -> [String: String] {
    Dictionary(uniqueKeysWithValues: try names.map { ($0, try directory.read($0)) })
}

@Suite("analyze on the shipped sample dataset", .tags(.endToEnd), .budget(minutes: 2))
struct SampleDatasetTests {
    @Test("every output equals the committed expected file, whatever the tasks and chunk size",
          arguments: [(1, 4 << 20), (2, 4 << 20), (3, 97), (8, 64)])
    func matchesExpected(tasks: Int, chunkBytes: Int) async throws {
        // Given the sample dataset
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        try sut.copy(from: fixtures.appendingPathComponent("sample"))
        // When it is analyzed
        let out = try await analyze(sut, tasks: tasks, chunkBytes: chunkBytes)
        // Then every file equals the expected one
        let expected = FixtureDirectory(fixtures.appendingPathComponent("sample-expected"))
        #expect(try out.files() == expected.files())
        for name in try expected.files() {
            #expect(try out.read(name) == expected.read(name), "\(name) differs")
        }
    }

    @Test("NDJSON, gzip and SQLite inputs give the same results as CSV",
          arguments: ["ndjson", "csv.gz", "ndjson.gz", "sqlite"])
    func formats(format: String) async throws {
        // Given the sample dataset rewritten in another format
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        let sample = fixtures.appendingPathComponent("sample")
        for kind in ["users", "meals", "steps", "payments"] {
            let csv = try String(contentsOf: sample.appendingPathComponent("\(kind).csv"), encoding: .utf8)
            switch format {
            case "ndjson": try sut.write("\(kind).ndjson", ndjson(fromCSV: csv))
            case "csv.gz": try sut.writeGzip("\(kind).csv.gz", csv)
            case "ndjson.gz": try sut.writeGzip("\(kind).ndjson.gz", ndjson(fromCSV: csv))
            default: try sut.writeSQLite("dataset.sqlite", table: kind, csv: csv)
            }
        }
        // When it is analyzed
        let out = try await analyze(sut)
        // Then the SPEC outputs equal the CSV ones
        let expected = FixtureDirectory(fixtures.appendingPathComponent("sample-expected"))
        #expect(try outputs(out) == outputs(expected))
    }
}

@Suite("analyze on a SQLite dataset")
struct SQLiteRejectionsTests {
    @Test("rejections.csv names the table of each rejected row, and otherwise equals the CSV dataset's")
    func rejectionsNameTheTable() async throws {
        // Given the sample dataset as CSV files and as the tables of one SQLite file
        let csv = try ScratchDirectory(prefix: "analysis-tests"), sqlite = try ScratchDirectory(prefix: "analysis-tests")
        let sample = fixtures.appendingPathComponent("sample")
        for kind in ["users", "meals", "steps", "payments"] {
            let text = try String(contentsOf: sample.appendingPathComponent("\(kind).csv"), encoding: .utf8)
            try csv.write("\(kind).csv", text)
            try sqlite.writeSQLite("dataset.sqlite", table: kind, csv: text)
        }
        // When both are analyzed
        let fromCSV = try await analyze(csv), fromSQLite = try await analyze(sqlite)
        // Then every rejected row of the database is named FILE:TABLE, with the reasons of the CSV
        // files' rows (line numbers and culprit columns depend on the format)
        func fileAndReason(_ text: String) -> [String] {
            text.split(separator: "\n").dropFirst().map { line in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                return fields[0] + "," + fields[2]
            }
        }
        let expected = fileAndReason(try fromCSV.read("rejections.csv")).map {
            $0.replacingOccurrences(of: #"^(\w+)\.csv,"#, with: "dataset.sqlite:$1,", options: .regularExpression)
        }
        let sut = fileAndReason(try fromSQLite.read("rejections.csv"))
        #expect(sut == expected)
        #expect(sut.contains("dataset.sqlite:meals,too_long"))
    }
}

@Suite("analyze properties on random datasets", .tags(.property), .budget(minutes: 2))
struct AnalyzerPropertyTests {
    @Test("results depend neither on row order nor on tasks nor on chunk size", arguments: [1, 2, 3] as [UInt64])
    func orderAndTasksIndependent(seed: UInt64) async throws {
        // Given a random dataset, once in generation order and once shuffled
        let dataset = RandomDataset(seed: seed)
        let ordered = try ScratchDirectory(prefix: "analysis-tests")
        let shuffled = try ScratchDirectory(prefix: "analysis-tests")
        for (name, text) in dataset.csv() { try ordered.write(name, text) }
        for (name, text) in dataset.csv(shuffledWith: seed &+ 100) { try shuffled.write(name, text) }
        // When both are analyzed with different tasks and chunk sizes
        let a = try await analyze(ordered, tasks: 1)
        let b = try await analyze(shuffled, tasks: 3, chunkBytes: 1000)
        // Then the outputs are byte-identical
        let first = try outputs(a)
        #expect(first == (try outputs(b)))
        #expect(first["fasting_daily.csv"]!.split(separator: "\n").count > 100)
        #expect(first["payments_ledger.csv"]!.split(separator: "\n").count > 10)
    }
}

@Suite("analyze refuses bad input as a whole")
struct RefusalTests {
    func refusal(_ files: [String: String], tasks: Int = 2, chunkBytes: Int = 4 << 20) async throws -> (InputRefusal?, [String]) {
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        let out = try ScratchDirectory(prefix: "analysis-tests")
        for (name, text) in files { try sut.write(name, text) }
        var refusal: InputRefusal?
        do {
            _ = try await DatasetAnalyzer.run(input: sut.path, output: out.path, options: AnalysisOptions(tasks: tasks, chunkBytes: chunkBytes))
        } catch let error as InputRefusal {
            refusal = error
        }
        return (refusal, try out.files())
    }

    static let users = "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity\nu1,0,16:8,male,30,80,180,light\n"

    @Test("a missing required column names the file, line 1 and the column; nothing is written",
          arguments: ["meals.csv", "steps.csv", "payments.csv", "users.csv"])
    func missingColumn(file: String) async throws {
        // Given a file whose header lacks user_id
        let header = "id,start\n1,2\n"
        // When analyzed
        var files = ["users.csv": Self.users]
        files[file] = header
        let (refusal, written) = try await refusal(files)
        // Then the run is refused and no output file exists
        let error = try #require(refusal)
        #expect(error.file == file)
        #expect(error.line == 1)
        #expect(error.reason.contains("missing required column"))
        #expect(written.isEmpty)
    }

    @Test("a repeated payment_id refuses the file, naming both lines, whatever the tasks and chunk size",
          arguments: [(1, 4 << 20), (2, 16), (3, 64), (2, 100)])
    func repeatedPaymentId(tasks: Int, chunkBytes: Int) async throws {
        // Given p1 at line 2 and again at line 6, after a blank line and a malformed row
        let payments = """
            payment_id,idempotency_key,user_id,kind,amount_minor,currency,created_at,refund_of,gateway
            p1,k1,u1,charge,100,USD,1,,A
            p2,k2,u1,charge,100,USD,2,,A

            p3,k3
            p1,k4,u1,charge,100,USD,3,,A
            p1,k5,u1,charge,100,USD,4,,A

            """
        // When analyzed
        let (refusal, written) = try await refusal(["users.csv": Self.users, "payments.csv": payments], tasks: tasks, chunkBytes: chunkBytes)
        // Then it is refused at line 6
        let error = try #require(refusal)
        #expect(error == InputRefusal(file: "payments.csv", line: 6, reason: "repeated payment_id 'p1' (first at line 2)"))
        #expect(written.isEmpty)
    }

    @Test("a base name in two formats is refused")
    func twoFormats() async throws {
        // Given meals.csv and meals.ndjson
        let (refusal, written) = try await refusal([
            "users.csv": Self.users, "meals.csv": "meal_id\n", "meals.ndjson": "{}\n",
        ])
        // Then the run is refused naming both
        let error = try #require(refusal)
        #expect(error.reason.contains("two formats"))
        #expect(written.isEmpty)
    }

    @Test("a corrupt gzip file is refused as unreadable")
    func corruptGzip() async throws {
        // Given a .csv.gz that is not gzip
        let (refusal, _) = try await refusal(["users.csv": Self.users, "meals.csv.gz": "\u{1F}\u{8B}garbage"])
        // Then the run is refused
        let error = try #require(refusal)
        #expect(error.file == "meals.csv.gz")
    }

    @Test("missing inputs give header-only files and no totals entry")
    func missingInputs() async throws {
        // Given only users
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        try sut.write("users.csv", Self.users)
        // When analyzed
        let out = try await analyze(sut)
        // Then each output holds its header only
        #expect(try out.read("steps_daily.csv") == "user_id,day,steps,avg7\n")
        #expect(try out.read("payments_outcomes.csv") == "payment_id,state,reason,attempts\n")
        #expect(try out.read("totals.json").contains("\"users\": {\"read\": 1, \"accepted\": 1, \"rejected\": {}}"))
        #expect(!(try out.read("totals.json")).contains("meals"))
    }
}

@Suite("analyze: byte-order marks and blank lines in every reader")
struct BlankLinesAndMarksTests {
    /// The sample dataset as NDJSON, each file opened by a byte-order mark, with lines of only
    /// spaces, tabs and CRs between the rows.
    static func decorated(_ csv: String) -> String {
        let rows = ndjson(fromCSV: csv).split(separator: "\n", omittingEmptySubsequences: false)
        let padding = ["  ", "\t", " \r", "", "\t \t\r"]
        let body = rows.enumerated().map { i, row in String(row) + "\n" + padding[i % padding.count] }.joined(separator: "\n")
        return "\u{FEFF}" + body
    }

    @Test("an NDJSON file that starts with a BOM and holds whitespace-only lines reads as the plain file",
          arguments: ["ndjson", "ndjson.gz", "csv", "csv.gz"])
    func sameResults(format: String) async throws {
        // Given the sample dataset rewritten with a BOM at the start of every file and blank lines
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        let sample = fixtures.appendingPathComponent("sample")
        for kind in ["users", "meals", "steps", "payments"] {
            let csv = try String(contentsOf: sample.appendingPathComponent("\(kind).csv"), encoding: .utf8)
            let text = format.hasPrefix("ndjson") ? Self.decorated(csv) : "\u{FEFF}" + csv.replacingOccurrences(of: "\n", with: "\n\n")
            if format.hasSuffix(".gz") { try sut.writeGzip("\(kind).\(format)", text) } else { try sut.write("\(kind).\(format)", text) }
        }
        // When it is analyzed
        let out = try await analyze(sut)
        // Then no row is lost or rejected for it: the SPEC outputs equal the committed ones
        let expected = FixtureDirectory(fixtures.appendingPathComponent("sample-expected"))
        #expect(try outputs(out) == outputs(expected))
    }
}

/// Inputs the fuzzers found, kept as regression tests (`scripts/fuzz.sh`).
@Suite("analyze on inputs the fuzzers found")
struct FuzzRegressionTests {
    @Test("a SQLite file corrupt in its payments table is refused, naming the table (it ended as an internal error)")
    func corruptSQLiteTable() async throws {
        // Given the database FuzzSQLite made: readable headers, a malformed page in `payments`
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        let out = try ScratchDirectory(prefix: "analysis-tests")
        try FileManager.default.copyItem(
            at: fixtures.appendingPathComponent("fuzz/corrupt-payments.sqlite"), to: URL(fileURLWithPath: sut.path + "/dataset.sqlite")
        )
        // When it is analyzed
        // Then the input is refused (exit status 2), naming the file and table, and nothing is written
        let error = await #expect(throws: InputRefusal.self) {
            try await DatasetAnalyzer.run(input: sut.path, output: out.path, options: AnalysisOptions(tasks: 2))
        }
        #expect(error?.file == "dataset.sqlite:payments")
        #expect(error?.reason == "unreadable SQLite table: database disk image is malformed")
        #expect(try out.files().isEmpty)
    }
}

@Suite("analyze at the ends of Int64")
struct EndsOfTimeTests {
    @Test("instants at the top of Int64, at +14:00, are analyzed on their exact local days (they crashed the step aggregator)")
    func instantsAtTheTopOfInt64() async throws {
        // Given a user at +14:00 with a meal and a step sample before and after t + 60 × offset overflows
        let sut = try ScratchDirectory(prefix: "analysis-tests")
        try sut.write("users.csv", "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity\nu1,840,16:8,male,40,70,175,light\n")
        try sut.write("steps.csv", """
            sample_id,user_id,source,start,end,count
            s1,u1,watch,9223372036854500000,9223372036854500100,10
            s2,u1,watch,9223372036854735807,9223372036854735907,4

            """)
        try sut.write("meals.csv", """
            meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g
            m1,u1,9223372036854500000,9223372036854500100,lunch,100,1,1,1
            m2,u1,9223372036854735807,9223372036854735907,lunch,200,1,1,1

            """)
        // When analyzed
        let out = try await analyze(sut)
        // Then each sample and meal counts on its own day, the second one on the last day but one of Int64's range
        let before = "292277026596-12-02", lastButOne = "292277026596-12-04"  // days 106,751,991,167,298 and 300
        #expect(try out.read("steps_daily.csv") == "user_id,day,steps,avg7\nu1,\(before),10.000,1.429\nu1,\(lastButOne),4.000,2.000\n")
        #expect(try out.read("fasting_daily.csv").hasSuffix("u1,\(lastButOne),1,200.000,100,1,235707,1\n"))
    }
}
