import Datasets
import Testing
import TestSupport

@Suite("SQLiteTables: dataset tables of a SQLite file")
struct SQLiteTablesTests {
    /// Every row of `file` as (row number, column → text).
    static func rows(_ file: DatasetFile) throws -> [(number: Int, fields: [String: String])] {
        let tokenizer = RowTokenizer(kind: file.kind, format: .sqlite)
        var rows: [(Int, [String: String])] = []
        try SQLiteTables.forEachRow(file, tokenizer: tokenizer) { number in
            var fields: [String: String] = [:]
            for (index, column) in file.kind.columns.enumerated() { fields[column] = tokenizer.fields[index].text }
            rows.append((number, fields))
        }
        return rows.map { (number: $0.0, fields: $0.1) }
    }

    @Test("names lists the tables in name order")
    func names() throws {
        // Given a SQLite file with three tables
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("data.sqlite", "CREATE TABLE users (a); CREATE TABLE meals (a); CREATE TABLE notes (a)")
        // When its tables are listed
        let sut = try SQLiteTables.names(path)
        // Then they come sorted
        #expect(sut == ["meals", "notes", "users"])
    }

    @Test("names refuses a file that is not SQLite or does not exist", arguments: [true, false])
    func namesUnreadable(exists: Bool) throws {
        // Given a text file, or no file
        let dir = try ScratchDirectory()
        if exists { try dir.write("data.db", "user_id,age\nu1,30\n") }
        // When its tables are listed
        let error = #expect(throws: InputRefusal.self) { try SQLiteTables.names(dir.file("data.db")) }
        // Then it is refused, named by its file name
        #expect(error?.file == "data.db")
        #expect(error?.reason.hasPrefix("unreadable SQLite file: ") == true)
    }

    @Test("rows come in rowid order with integers, reals, text and blobs as text, NULL as empty")
    func values() throws {
        // Given a meals table with typed values, inserted out of rowid order, columns in another order plus an extra one
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("data.sqlite", """
            CREATE TABLE meals (note TEXT, fat_g, carbs_g, protein_g, kcal, type, "end", start, user_id, meal_id);
            INSERT INTO meals (rowid, note, fat_g, carbs_g, protein_g, kcal, type, "end", start, user_id, meal_id)
                VALUES (2, 'x', 20, 70.25, NULL, '650.5', 'lunch', 1700001800, 1700000000, X'75C3A9', 'm2');
            INSERT INTO meals (rowid, note, fat_g, carbs_g, protein_g, kcal, type, "end", start, user_id, meal_id)
                VALUES (1, 'y', -1, 0.5, 3, 12, 'snack', -5, -9223372036854775808, 'u1', 'm1');
            """)
        // When its rows are read
        let sut = try Self.rows(DatasetFile(kind: .meals, path: path, format: .sqlite, gzip: false))
        // Then they are numbered 1, 2 in rowid order, each value as its text
        #expect(sut.map(\.number) == [1, 2])
        #expect(sut.map(\.fields) == [
            ["meal_id": "m1", "user_id": "u1", "start": "-9223372036854775808", "end": "-5", "type": "snack",
             "kcal": "12", "protein_g": "3", "carbs_g": "0.5", "fat_g": "-1"],
            ["meal_id": "m2", "user_id": "ué", "start": "1700000000", "end": "1700001800", "type": "lunch",
             "kcal": "650.5", "protein_g": "", "carbs_g": "70.25", "fat_g": "20"],
        ])
    }

    @Test("a payments table without refund_of reads it as empty")
    func optionalRefundOf() throws {
        // Given a payments table lacking refund_of
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("pay.db", """
            CREATE TABLE payments (payment_id, idempotency_key, user_id, kind, amount_minor, currency, created_at, gateway);
            INSERT INTO payments VALUES ('p1', 'k1', 'u1', 'charge', 1999, 'USD', 1700000000, 'A');
            """)
        // When its rows are read
        let sut = try Self.rows(DatasetFile(kind: .payments, path: path, format: .sqlite, gzip: false))
        // Then refund_of is empty
        #expect(sut.map(\.fields) == [[
            "payment_id": "p1", "idempotency_key": "k1", "user_id": "u1", "kind": "charge", "amount_minor": "1999",
            "currency": "USD", "created_at": "1700000000", "refund_of": "", "gateway": "A",
        ]])
    }

    @Test("a table without a required column is refused, naming file, table and column")
    func missingColumn() throws {
        // Given a steps table without count
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("data.sqlite", "CREATE TABLE steps (sample_id, user_id, source, start, \"end\")")
        // When its rows are read
        // Then it is refused
        #expect(throws: InputRefusal(file: "data.sqlite:steps", reason: "missing required column 'count'")) {
            try Self.rows(DatasetFile(kind: .steps, path: path, format: .sqlite, gzip: false))
        }
    }

    @Test("an empty table has no rows")
    func emptyTable() throws {
        // Given an empty users table
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("data.sqlite", "CREATE TABLE users (user_id, utc_offset_minutes, protocol, sex, age, weight_kg, height_cm, activity)")
        // When read
        let sut = try Self.rows(DatasetFile(kind: .users, path: path, format: .sqlite, gzip: false))
        // Then there is none
        #expect(sut.isEmpty)
    }

    @Test("a file that cannot be opened is refused")
    func unreadableFile() throws {
        // Given a path without a file
        let dir = try ScratchDirectory()
        // When its rows are read
        let error = #expect(throws: InputRefusal.self) {
            try Self.rows(DatasetFile(kind: .users, path: dir.file("gone.sqlite"), format: .sqlite, gzip: false))
        }
        // Then it is refused, named
        #expect(error?.file == "gone.sqlite")
        #expect(error?.reason.hasPrefix("unreadable SQLite file: ") == true)
    }

    @Test("an error thrown by the row body stops the read and propagates")
    func bodyError() throws {
        // Given a users table with two rows
        let dir = try ScratchDirectory()
        let path = try dir.writeSQLite("data.sqlite", """
            CREATE TABLE users (user_id, utc_offset_minutes, protocol, sex, age, weight_kg, height_cm, activity);
            INSERT INTO users VALUES ('u1', 0, 'omad', 'male', 30, 80, 180, 'light'), ('u2', 0, 'omad', 'male', 30, 80, 180, 'light');
            """)
        let file = DatasetFile(kind: .users, path: path, format: .sqlite, gzip: false)
        var seen: [Int] = []
        // When the body refuses the first row
        // Then the refusal comes out and the second row is never read
        #expect(throws: InputRefusal(file: "data.sqlite", line: 1, reason: "stop")) {
            try SQLiteTables.forEachRow(file, tokenizer: RowTokenizer(kind: .users, format: .sqlite)) { number in
                seen.append(number)
                throw InputRefusal(file: "data.sqlite", line: number, reason: "stop")
            }
        }
        #expect(seen == [1])
    }
}
