import Datasets
import GRDB
import Parquet
import Testing
import TestSupport

@Suite("Typed columns: a field is typed only when its value renders back to the very same text")
struct TypedColumnsTests {
    /// A meals line whose `kcal` (a decimal), `start` (a time) or `type` (an enum) is `field`.
    static func mealsLine(kcal: String = "512.5", start: String = "1743206400", type: String = "lunch", id: String = "m0000001-000001") -> String {
        "\(id),u0000001,\(start),1743208200,\(type),\(kcal),30,50.25,15"
    }

    static let decimals: [(String, Bool)] = [
        ("0", true), ("7", true), ("512.5", true), ("0.125", true), ("-0.5", true), ("999999999999.999", true), ("-12.34", true),
        ("-0", false), ("05", false), ("1.", false), (".5", false), ("1.50", false), ("0.0", false), ("1.2345", false), ("+1", false),
        ("1e2", false), ("NaN", false), ("", false), ("-", false), (" 1", false), ("1000000000000", false), ("1.5.1", false),
        // Past Int64 as a whole number: left as text, never a trap (FuzzTypedParquet's finding).
        ("922337203685477580820", false), ("-99999999999999999999.5", false), ("99999999999999999999999999", false),
    ]

    static let times: [(String, Bool)] = [
        ("0", true), ("1743206400", true), ("-86400", true), ("9223372036854", true), ("-9223372036854", true),
        ("9223372036855", false), ("+1743206400", false), ("1743206400.5", false), ("01", false), ("-0", false), ("", false),
        ("99999999999999999999", false),
    ]

    @Test("a decimal field is typed exactly when it is canonical, and renders back to itself", arguments: decimals)
    func decimal(field: String, typed: Bool) throws {
        try expectTyping(Self.mealsLine(kcal: field), typed: typed)
    }

    @Test("a time field is typed exactly when it is a canonical integer whose microseconds fit", arguments: times)
    func time(field: String, typed: Bool) throws {
        try expectTyping(Self.mealsLine(start: field), typed: typed)
    }

    @Test("an enum is typed only with a SPEC value; an id only when not empty",
          arguments: [(mealsLine(type: "snack"), true), (mealsLine(type: "brunch"), false), (mealsLine(type: "Lunch"), false),
                      (mealsLine(id: ""), false), (mealsLine() + ",extra", false), ("m1,u1,0,0,lunch", false)])
    func otherColumns(line: String, typed: Bool) throws {
        try expectTyping(line, typed: typed)
    }

    @Test("payments: refund_of is null when empty, the gateway script must be [ADTL](;[ADTL])*, any key and currency are kept",
          arguments: [("p0000001-000001,k1,u0000001,charge,500,USD,1743206400,,A;T;L", true),
                      ("p0000001-000002,,u0000001,refund,-5,usd,1743206400,p0000001-000001,D", true),
                      ("p0000001-000003,k3,u0000001,charge,500,USD,1743206400,,A;X", false),
                      ("p0000001-000003,k3,u0000001,charge,500,USD,1743206400,,A;", false),
                      ("p0000001-000003,k3,u0000001,charge,500,USD,1743206400,,", false),
                      ("p0000001-000003,k3,u0000001,charge,500.50,USD,1743206400,,A", false)])
    func payments(line: String, typed: Bool) throws {
        try expectTyping(line, typed: typed, kind: .payments)
    }

    /// Types `line`; when typed, the row renders back to exactly `line`; when not, nothing is added.
    private func expectTyping(_ line: String, typed: Bool, kind: DatasetKind = .meals) throws {
        // Given an empty typed table
        var sut = TypedTable(kind: kind)
        // When the line is offered
        let added = Array(line.utf8).withUnsafeBufferPointer { sut.append(csvLine: $0) }
        // Then it is typed as expected, and a typed row renders back to the same text
        #expect(added == typed, "\(line)")
        #expect(sut.columns.allSatisfy { $0.count == (typed ? 1 : 0) })
        let text = ByteBuffer(capacity: 256)
        if added { TypedRowText.appendCSVLine(row: 0, of: sut.columns, types: kind.typedColumns.map(\.parquetType), to: text) }
        #expect(String(decoding: text.bytes, as: UTF8.self) == (typed ? line + "\n" : ""))
        // And the typed SQLite view takes the same rows as the Parquet table
        #expect(try sqliteViewRows(kind, line: line) == (typed ? 1 : 0), "\(line)")
    }

    /// The rows of `kind`'s typed view over a TEXT table holding `line` (0 when it does not fit).
    private func sqliteViewRows(_ kind: DatasetKind, line: String) throws -> Int {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == kind.columns.count else { return 0 }
        let db = try DatabaseQueue()
        return try db.write { db in
            try db.execute(sql: "CREATE TABLE \(kind.rawValue) (" + kind.columns.map { "\"\($0)\" TEXT" }.joined(separator: ", ") + ")")
            try db.execute(sql: "INSERT INTO \(kind.rawValue) VALUES (" + fields.map { _ in "?" }.joined(separator: ", ") + ")",
                           arguments: StatementArguments(fields))
            try db.execute(sql: SQLiteTypedViews.createStatement(kind))
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SQLiteTypedViews.name(kind))") ?? -1
        }
    }

    @Test("a value no generated field has (a fraction of a second, a DOUBLE beyond thousandths) renders as its exact text")
    func foreignValues() {
        // Given a time with microseconds and a DOUBLE with more than three decimals
        var time = ParquetColumnValues(type: .timestampMicros)
        time.append(Int64(-1_500_000))
        var double = ParquetColumnValues(type: .double)
        double.append(0.0005)
        // When they are rendered as CSV fields
        let text = ByteBuffer(capacity: 64)
        TypedRowText.appendCSVLine(row: 0, of: [time, double], types: [.timestampMicros, .double], to: text)
        // Then the text says what they hold, which the decoders reject as malformed
        #expect(String(decoding: text.bytes, as: UTF8.self) == "-1.500000,0.0005\n")
    }

    @Test("rows rendered column by column and joined in runs give the bytes of rendering each row in turn, whatever was rendered before",
          arguments: [[0..<0, 0..<3], [0..<1, 1..<1, 1..<3], [0..<2, 2..<3]])
    func rowsText(runs: [Range<Int>]) {
        // Given payments rows (one with a null refund_of) and a renderer that rendered fewer, longer rows before
        var table = TypedTable(kind: .payments)
        let lines = ["p0000001-000001,k1,u0000001,charge,500,USD,1743206400,,A;T;L",
                     "p0000001-000002,,u0000001,refund,-5,usd,1743206401,p0000001-000001,D",
                     "p1,k,u1,charge,0,EUR,-86400,,L"]
        for line in lines { _ = Array(line.utf8).withUnsafeBufferPointer { table.append(csvLine: $0) } }
        let types = DatasetKind.payments.typedColumns.map(\.parquetType)
        var longer = TypedTable(kind: .payments)
        let long = "p0000001-000009,a-much-longer-key-than-the-others,u0000001,charge,123456789,USD,1743206400,p9,T"
        #expect(Array(long.utf8).withUnsafeBufferPointer { longer.append(csvLine: $0) })
        let sut = TypedRowsText()
        sut.render(rows: 1, of: longer.columns, types: types)
        // When the rows are rendered and joined in `runs`
        sut.render(rows: 3, of: table.columns, types: types)
        let text = ByteBuffer(capacity: 16)
        for run in runs { sut.appendLines(run, to: text) }
        // Then the text is each row's line in turn, as appendCSVLine makes it
        let expected = ByteBuffer(capacity: 16)
        for row in 0..<3 { TypedRowText.appendCSVLine(row: row, of: table.columns, types: types, to: expected) }
        #expect(Array(text.bytes) == Array(expected.bytes))
        #expect(String(decoding: text.bytes, as: UTF8.self) == lines.joined(separator: "\n") + "\n")
    }
}
