@_spi(Tooling) import Analysis
import Datasets
import Parquet
import Testing
import TestSupport

@Suite("analyze of Parquet meals and steps: the typed path gives the outputs of the table's CSV text")
struct ParquetTypedPathTests {
    static let start: Int64 = 1_743_206_400_000_000
    static let minute: Int64 = 60_000_000

    /// Meals of two row groups: plain rows around rows the typed path must leave to the text path
    /// (each SPEC rule a typed meal can break, and values without plain text).
    static let mealGroups: [[TypedMealRowBuilder]] = [
        [
            TypedMealRowBuilder().id("m1").times(start, start + 30 * minute),
            TypedMealRowBuilder().id("m2").times(start + 600 * minute, start + 620 * minute).kcal(-3),
            TypedMealRowBuilder().id("m3").user("u0000099").times(start + 700 * minute, start + 710 * minute),
            TypedMealRowBuilder().id("m1").times(start + 720 * minute, start + 730 * minute),
            TypedMealRowBuilder().id("m4").times(start + 800 * minute, start + 790 * minute),
            TypedMealRowBuilder().id("m5").times(start + 900 * minute, start + 1_200 * minute),
            TypedMealRowBuilder().id("m6").times(start + 1_300 * minute, start + 1_310 * minute).type("brunch"),
        ],
        [
            TypedMealRowBuilder().id("m7").times(start + 1_400 * minute + 1, start + 1_410 * minute),
            TypedMealRowBuilder().id("m8,x").times(start + 1_500 * minute, start + 1_510 * minute),
            TypedMealRowBuilder().id("m9").times(start + 1_600 * minute, start + 1_610 * minute).kcal(0.0005),
            TypedMealRowBuilder().id("m10").user("u0000002").times(start + 1_700 * minute, start + 1_710 * minute),
            TypedMealRowBuilder().id("m11").times(start + 100 * minute, start + 110 * minute),
            TypedMealRowBuilder().id("m12").times(start + 2_000 * minute, start + 2_030 * minute),
        ],
    ]

    static let steps: [TypedStepRowBuilder] = [
        TypedStepRowBuilder().id("s1"),
        TypedStepRowBuilder().id("s1").times(start + 20 * minute, start + 30 * minute),
        TypedStepRowBuilder().id("s2").times(start + 40 * minute, start + 40 * minute),
        TypedStepRowBuilder().id("s3").times(start + 50 * minute, start + 60 * minute).count(-5),
        TypedStepRowBuilder().id("s4").times(start + 70 * minute, start + 80 * minute).source("tablet"),
        TypedStepRowBuilder().id("s5").times(start + 90 * minute, start + 100 * minute).user("u0000002").source("phone").count(12.5),
        TypedStepRowBuilder().id("s6").times(start + 5 * minute, start + 15 * minute),
    ]

    @Test("every output equals that of the CSV text the tables render to, rejections and their lines included", arguments: [1, 2])
    func sameAsText(tasks: Int) async throws {
        // Given a Parquet dataset with rejected rows between typed ones, and the CSV dataset of its text
        let (parquet, csv) = try Self.datasetsWithUsers()
        try writeMeals(Self.mealGroups, to: parquet.file("meals.parquet"))
        try writeSteps(Self.steps, to: parquet.file("steps.parquet"))
        try writeRejected([("meals", 3, "m0,u0000001,oops"), ("meals", 16, "tail,line"), ("steps", 2, "s0,,watch")],
                          to: parquet.file("rejected_rows.parquet"))
        for kind in [DatasetKind.meals, .steps] {
            try csv.write(kind.rawValue + ".csv", text(of: DatasetFile(kind: kind, path: parquet.file(kind.rawValue + ".parquet"), format: .parquet, gzip: false)))
        }
        // When both are analyzed
        let fromParquet = try await analyze(parquet, tasks: tasks)
        let fromCSV = try await analyze(csv, tasks: tasks)
        // Then every output is the same, but for the file names in rejections.csv
        let rejections = try fromCSV.read("rejections.csv")
        for reason in ["duplicate", "unknown_user", "malformed", "negative_value", "end_before_start", "too_long", "bad_interval"] {
            #expect(rejections.contains("," + reason + ","), "no \(reason) in \(rejections)")
        }
        #expect(try fromParquet.read("rejections.csv") == rejections.replacing(".csv,", with: ".parquet,"))
        for name in try fromCSV.files() where name != "rejections.csv" {
            #expect(try fromParquet.read(name) == fromCSV.read(name), "\(name) differs")
        }
    }

    /// Payments of two row groups: the first read from its rendered fields, the second (a key holding
    /// a comma, which splits its line) from its lines.
    static let paymentGroups: [[[String?]]] = [
        [["p1", "k1", "u0000001", "charge", "500", "USD", "1743206400", nil, "A"],
         ["p2", "k2", "u0000001", "charge", "700", "EUR", "1743206500", nil, "T;A"],
         ["p3", "k3", "u0000001", "refund", "-200", "USD", "1743206600", "p1", "A"],
         ["p4", "k4", "u0000099", "charge", "100", "USD", "1743206700", nil, "D"]],
        [["p5", "k,5", "u0000002", "charge", "900", "USD", "1743206800", nil, "A"],
         ["p6", "k6", "u0000002", "charge", "300", "XXX", "1743206900", nil, "A"],
         ["p7", "", "u0000002", "charge", "300", "USD", "1743207000", nil, "A"]],
    ]

    @Test("payments read from their rendered fields, and a row group that must be read from its lines, give the outputs of the CSV text",
          arguments: [1, 2])
    func paymentsSameAsText(tasks: Int) async throws {
        // Given a Parquet payments table with a rejected row between typed ones, and the CSV dataset of its text
        let (parquet, csv) = try Self.datasetsWithUsers()
        try writePayments(Self.paymentGroups, to: parquet.file("payments.parquet"))
        try writeRejected([("payments", 4, "p0,k0,u0000001,charge,oops")], to: parquet.file("rejected_rows.parquet"))
        try csv.write("payments.csv", text(of: DatasetFile(kind: .payments, path: parquet.file("payments.parquet"), format: .parquet, gzip: false)))
        // When both are analyzed
        let fromParquet = try await analyze(parquet, tasks: tasks)
        let fromCSV = try await analyze(csv, tasks: tasks)
        // Then every output is the same, but for the file names in rejections.csv
        let rejections = try fromCSV.read("rejections.csv")
        for reason in ["malformed", "unknown_user", "unsupported_currency", "missing_key"] {
            #expect(rejections.contains("," + reason + ","), "no \(reason) in \(rejections)")
        }
        #expect(try fromParquet.read("rejections.csv") == rejections.replacing(".csv,", with: ".parquet,"))
        for name in try fromCSV.files() where name != "rejections.csv" {
            #expect(try fromParquet.read(name) == fromCSV.read(name), "\(name) differs")
        }
    }

    /// The CSV text `analyze` read a Parquet table as before the typed path: every unit rendered.
    private func text(of file: DatasetFile) throws -> String {
        let table = try ParquetTableText(file)
        let buffer = ByteBuffer()
        for unit in 0..<table.unitCount { try table.appendText(ofUnit: unit, to: buffer) }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    // MARK: support

    /// Two dataset directories, the Parquet one and the CSV one, holding the same two users.
    static func datasetsWithUsers() throws -> (parquet: ScratchDirectory, csv: ScratchDirectory) {
        let parquet = try ScratchDirectory(prefix: "typed-path")
        let csv = try ScratchDirectory(prefix: "typed-path")
        let users = DatasetKind.users.columns.joined(separator: ",") + "\nu0000001,60,16:8,female,30,61.5,170,light\n"
            + "u0000002,-300,18:6,male,40,80,180,active\n"
        try parquet.write("users.csv", users)
        try csv.write("users.csv", users)
        return (parquet, csv)
    }

    private func writeMeals(_ groups: [[TypedMealRowBuilder]], to path: String) throws {
        let schema = DatasetKind.meals.parquetSchema
        var writer = try ParquetFileWriter(path: path, schema: schema)
        for rows in groups {
            let columns = TypedMealRowBuilder.columns(rows)
            try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .zstd))
        }
        _ = try writer.finish()
    }

    private func writeSteps(_ rows: [TypedStepRowBuilder], to path: String) throws {
        let schema = DatasetKind.steps.parquetSchema
        var writer = try ParquetFileWriter(path: path, schema: schema)
        let columns = TypedStepRowBuilder.columns(rows)
        try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .none))
        _ = try writer.finish()
    }

    private func writePayments(_ groups: [[[String?]]], to path: String) throws {
        let schema = DatasetKind.payments.parquetSchema
        var writer = try ParquetFileWriter(path: path, schema: schema)
        for rows in groups {
            var columns = DatasetKind.payments.emptyParquetColumns()
            for row in rows {
                for (c, field) in row.enumerated() {
                    switch schema.columns[c].type {
                    case .string: if let field { columns[c].append(text: field) } else { columns[c].appendNull() }
                    case .int64: columns[c].append(Int64(field!)!)
                    case .timestampMicros: columns[c].append(Int64(field!)! * 1_000_000)
                    case .double: columns[c].append(Double(field!)!)
                    }
                }
            }
            try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .zstd))
        }
        _ = try writer.finish()
    }

    private func writeRejected(_ rows: [(table: String, line: Int64, raw: String)], to path: String) throws {
        var writer = try ParquetFileWriter(path: path, schema: RejectedRows.schema)
        var columns = RejectedRows.schema.columns.map { ParquetColumnValues(type: $0.type, nullable: $0.nullable) }
        for row in rows {
            columns[0].append(text: row.table)
            columns[1].append(row.line)
            columns[2].append(text: row.raw)
        }
        try writer.append(EncodedRowGroup(schema: RejectedRows.schema, columns: columns, compression: .none))
        _ = try writer.finish()
    }
}
