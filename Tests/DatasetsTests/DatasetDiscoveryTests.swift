import Datasets
import Testing
import TestSupport

/// Stands in for `SQLiteTables.names`: answers fixed table names per file name and records the
/// files it was asked about.
final class SQLiteTablesSpy {
    let tablesByFile: [String: [String]]
    private(set) var askedFiles: [String] = []

    init(_ tablesByFile: [String: [String]] = [:]) { self.tablesByFile = tablesByFile }

    func names(_ path: String) -> [String] {
        let name = String(path.split(separator: "/").last!)
        askedFiles.append(name)
        return tablesByFile[name] ?? []
    }
}

@Suite("DatasetDiscovery: the dataset files of an input directory")
struct DatasetDiscoveryTests {
    @Test("finds each kind in CSV, NDJSON and their gzip forms")
    func textFormats() throws {
        // Given one file per kind, each in a different format
        let dir = try ScratchDirectory()
        for name in ["users.csv", "meals.csv.gz", "steps.ndjson", "payments.ndjson.gz"] { try dir.write(name, "") }
        // When the directory is searched
        let sut = try DatasetDiscovery.discover(in: dir.path)
        // Then every file is found with its format and compression
        #expect(sut == [
            .users: DatasetFile(kind: .users, path: dir.file("users.csv"), format: .csv, gzip: false),
            .meals: DatasetFile(kind: .meals, path: dir.file("meals.csv.gz"), format: .csv, gzip: true),
            .steps: DatasetFile(kind: .steps, path: dir.file("steps.ndjson"), format: .ndjson, gzip: false),
            .payments: DatasetFile(kind: .payments, path: dir.file("payments.ndjson.gz"), format: .ndjson, gzip: true),
        ])
        #expect(sut[.meals]?.name == "meals.csv.gz")
    }

    @Test("a directory path ending in / gives the same file paths")
    func trailingSlash() throws {
        // Given a directory with users.csv, named with a trailing slash
        let dir = try ScratchDirectory()
        try dir.write("users.csv", "")
        // When it is searched
        let sut = try DatasetDiscovery.discover(in: dir.path + "/")
        // Then the path has a single slash
        #expect(sut[.users]?.path == dir.file("users.csv"))
    }

    @Test("finds the kind tables of SQLite files and ignores their other tables")
    func sqliteTables() throws {
        // Given SQLite files with kind tables and another table
        let dir = try ScratchDirectory()
        for name in ["health.sqlite", "money.db", "extra.sqlite3"] { try dir.write(name, "") }
        let spy = SQLiteTablesSpy(["health.sqlite": ["meals", "notes", "users"], "money.db": ["payments"], "extra.sqlite3": ["steps"]])
        // When the directory is searched
        let sut = try DatasetDiscovery.discover(in: dir.path, sqliteTables: spy.names)
        // Then each kind table is a dataset file of its SQLite file
        #expect(sut == [
            .users: DatasetFile(kind: .users, path: dir.file("health.sqlite"), format: .sqlite, gzip: false),
            .meals: DatasetFile(kind: .meals, path: dir.file("health.sqlite"), format: .sqlite, gzip: false),
            .steps: DatasetFile(kind: .steps, path: dir.file("extra.sqlite3"), format: .sqlite, gzip: false),
            .payments: DatasetFile(kind: .payments, path: dir.file("money.db"), format: .sqlite, gzip: false),
        ])
        #expect(spy.askedFiles == ["extra.sqlite3", "health.sqlite", "money.db"])
    }

    @Test("finds the tables of a real SQLite file")
    func realSQLite() throws {
        // Given a SQLite file with a steps and a users table
        let dir = try ScratchDirectory()
        try dir.writeSQLite("data.sqlite", "CREATE TABLE users (user_id TEXT); CREATE TABLE steps (sample_id TEXT)")
        // When the directory is searched with the SQLite reader
        let sut = try DatasetDiscovery.discover(in: dir.path, sqliteTables: SQLiteTables.names)
        // Then both tables are found
        #expect(sut.keys.sorted { $0.rawValue < $1.rawValue } == [.steps, .users])
        #expect(sut[.steps]?.format == .sqlite)
    }

    @Test("without a SQLite reader, SQLite files hold no dataset")
    func defaultSQLiteReader() throws {
        // Given a directory with a SQLite file only
        let dir = try ScratchDirectory()
        try dir.writeSQLite("data.sqlite", "CREATE TABLE users (user_id TEXT)")
        // When searched with the default table lister
        let sut = try DatasetDiscovery.discover(in: dir.path)
        // Then nothing is found
        #expect(sut.isEmpty)
    }

    @Test("ignores unrelated files and never asks them for tables")
    func unrelated() throws {
        // Given names that look like dataset files but are not
        let dir = try ScratchDirectory()
        for name in ["users.csv.bak", "Users.csv", "users.json", "users", "xusers.csv", "meals.tsv", "steps.csv.gz.tmp",
                     "payments.ndjson.zip", "README", "notes.txt", "db", "sqlite"] {
            try dir.write(name, "")
        }
        let spy = SQLiteTablesSpy()
        // When the directory is searched
        let sut = try DatasetDiscovery.discover(in: dir.path, sqliteTables: spy.names)
        // Then nothing is found
        #expect(sut.isEmpty)
        #expect(spy.askedFiles.isEmpty)
    }

    @Test("an empty directory has no dataset")
    func emptyDirectory() throws {
        // Given an empty directory
        let dir = try ScratchDirectory()
        // When searched
        let sut = try DatasetDiscovery.discover(in: dir.path)
        // Then nothing is found
        #expect(sut.isEmpty)
    }

    @Test("a base name present in two formats refuses the run, naming both files", arguments: [
        (["users.csv", "users.ndjson"], "users.ndjson", "base name 'users' is present in two formats (users.csv, users.ndjson)"),
        (["meals.csv", "meals.csv.gz"], "meals.csv.gz", "base name 'meals' is present in two formats (meals.csv, meals.csv.gz)"),
        (["steps.ndjson", "steps.ndjson.gz"], "steps.ndjson.gz",
         "base name 'steps' is present in two formats (steps.ndjson, steps.ndjson.gz)"),
        (["payments.csv", "data.sqlite"], "payments.csv", "base name 'payments' is present in two formats (data.sqlite:payments, payments.csv)"),
    ])
    func twoFormats(names: [String], refusedFile: String, reason: String) throws {
        // Given one base name in two formats (data.sqlite holds a payments table)
        let dir = try ScratchDirectory()
        for name in names { try dir.write(name, "") }
        let spy = SQLiteTablesSpy(["data.sqlite": ["payments"]])
        // When the directory is searched
        // Then the input is refused with both names
        #expect(throws: InputRefusal(file: refusedFile, reason: reason)) {
            try DatasetDiscovery.discover(in: dir.path, sqliteTables: spy.names)
        }
    }

    @Test("a missing directory is refused, naming it")
    func missingDirectory() throws {
        // Given a path that does not exist
        let dir = try ScratchDirectory()
        let missing = dir.file("nowhere")
        // When it is searched
        let error = #expect(throws: InputRefusal.self) { try DatasetDiscovery.discover(in: missing) }
        // Then the refusal names it and why
        #expect(error?.file == missing)
        #expect(error?.line == nil)
        #expect(error?.reason == "cannot open input directory: No such file or directory")
    }

    @Test("a SQLite file that cannot be read refuses the run")
    func unreadableSQLite() throws {
        // Given a .db file that is not SQLite
        let dir = try ScratchDirectory()
        try dir.write("notes.db", "just text, not a database\n")
        // When the directory is searched with the SQLite reader
        let error = #expect(throws: InputRefusal.self) { try DatasetDiscovery.discover(in: dir.path, sqliteTables: SQLiteTables.names) }
        // Then the refusal names the file
        #expect(error?.file == "notes.db")
        #expect(error?.reason.hasPrefix("unreadable SQLite file: ") == true)
    }
}

@Suite("Dataset kinds and refusals")
struct DatasetKindTests {
    @Test("columns follow SPEC §1–§4 headers word for word", arguments: [
        (DatasetKind.users, "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity"),
        (.meals, "meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g"),
        (.steps, "sample_id,user_id,source,start,end,count"),
        (.payments, "payment_id,idempotency_key,user_id,kind,amount_minor,currency,created_at,refund_of,gateway"),
    ])
    func columns(kind: DatasetKind, header: String) {
        // Given a kind
        // When its columns are joined
        let sut = kind.columns.joined(separator: ",")
        // Then they are the SPEC header
        #expect(sut == header)
        #expect(kind.optionalKeys == (kind == .payments ? ["refund_of"] : []))
    }

    @Test("a refusal reads file:line: reason, or file: reason without a line")
    func refusalDescription() {
        // Given refusals with and without a line
        let withLine = InputRefusal(file: "payments.csv", line: 5, reason: "repeated payment_id 'p1' (first at line 2)")
        let withoutLine = InputRefusal(file: "users.csv", reason: "cannot open: No such file or directory")
        // When described
        // Then the line is shown only when known
        #expect(withLine.description == "payments.csv:5: repeated payment_id 'p1' (first at line 2)")
        #expect(withoutLine.description == "users.csv: cannot open: No such file or directory")
    }

    @Test("a dataset file is named by the last component of its path", arguments: [
        ("/data/in/meals.csv.gz", "meals.csv.gz"), ("meals.csv", "meals.csv"), ("in/", "in"), ("/", "/"), ("", ""),
    ])
    func fileName(path: String, name: String) {
        // Given a path
        let sut = DatasetFile(kind: .meals, path: path, format: .csv, gzip: true)
        // When named
        // Then only its last component remains (the path itself when it has none)
        #expect(sut.name == name)
    }
}
