import Datasets
import Testing

@Suite("RowTokenizer on CSV: columns by header name (SPEC §0)")
struct CSVTokenizerTests {
    static func tokenizer(_ kind: DatasetKind, header: String, file: String = "meals.csv") throws -> RowTokenizer {
        try withBytes(header) { try RowTokenizer(kind: kind, csvHeader: $0, file: file) }
    }

    static let mealFields = [
        "meal_id": "m0000001", "user_id": "u0000001", "start": "1700000000", "end": "1700001800",
        "type": "lunch", "kcal": "650.5", "protein_g": "30", "carbs_g": "70.25", "fat_g": "20",
    ]

    @Test("a row under the standard header fills every column")
    func standardHeader() throws {
        // Given a meals tokenizer with the header in file order
        let sut = try RowTokenizer.csv(.meals)
        // When the default meal row is tokenized
        let result = sut.tokenizing(CSVRowBuilder.meal.line)
        // Then each column holds its text
        #expect(result == TokenizedLine(line: .row, fields: Self.mealFields))
        #expect(sut.kind == .meals)
        #expect(sut.format == .csv)
    }

    @Test("columns are found by name in any order, and extra columns are ignored")
    func anyOrderAndExtraColumns() throws {
        // Given a header with the columns reversed and two extra columns
        let columns = ["note"] + DatasetKind.meals.columns.reversed() + ["source_app"]
        let sut = try Self.tokenizer(.meals, header: columns.joined(separator: ","))
        // When a row written under that header is tokenized
        let result = sut.tokenizing(CSVRowBuilder.meal.line(columns: columns))
        // Then every column gets its own value
        #expect(result == TokenizedLine(line: .row, fields: Self.mealFields))
    }

    @Test("a UTF-8 BOM and a CRLF end on the header are accepted", arguments: ["\u{FEFF}", ""], ["\r", ""])
    func bomAndCRLFHeader(bom: String, lineEnd: String) throws {
        // Given a header with or without a BOM and a CR before its \n
        let sut = try Self.tokenizer(.meals, header: bom + CSVRowBuilder.header(.meals) + lineEnd)
        // When a row is tokenized
        let result = sut.tokenizing(CSVRowBuilder.meal.line)
        // Then the first and last columns are found
        #expect(result == TokenizedLine(line: .row, fields: Self.mealFields))
    }

    @Test("a CRLF line end is not part of the last field")
    func crlfRow() throws {
        // Given a meals tokenizer
        let sut = try RowTokenizer.csv(.meals)
        // When a row ending in \r is tokenized
        let result = sut.tokenizing(CSVRowBuilder.meal.line + "\r")
        // Then fat_g is "20", without the CR
        #expect(result.line == .row)
        #expect(result.fields["fat_g"] == "20")
    }

    @Test("blank lines are blank, with or without CR", arguments: ["", "\r"])
    func blankLines(line: String) throws {
        // Given a meals tokenizer
        let sut = try RowTokenizer.csv(.meals)
        // When an empty line is tokenized
        // Then it is blank
        #expect(sut.tokenizing(line).line == .blank)
    }

    @Test("empty fields are empty values, not errors")
    func emptyFields() throws {
        // Given a payments tokenizer
        let sut = try RowTokenizer.csv(.payments)
        // When a row with every field empty is tokenized
        let result = sut.tokenizing(",,,,,,,,")
        // Then it is a row of empty values
        #expect(result == TokenizedLine(line: .row, fields: Dictionary(uniqueKeysWithValues: DatasetKind.payments.columns.map { ($0, "") })))
    }

    @Test("a row with too few fields is malformed, keeping the fields it has", arguments: [
        "m0000001,u0000002,1700000000", "m0000001,u0000002,1700000000,1700001800,lunch,650.5,30,70.25",
    ])
    func tooFewFields(line: String) throws {
        // Given a meals tokenizer
        let sut = try RowTokenizer.csv(.meals)
        // When a short row is tokenized
        let result = sut.tokenizing(line)
        // Then it is malformed with no culprit column, its user_id still readable and missing fields empty
        #expect(result.line == .malformed(column: nil))
        #expect(result.fields["user_id"] == "u0000002")
        #expect(result.fields["fat_g"] == "")
    }

    @Test("a row with too many fields is malformed")
    func tooManyFields() throws {
        // Given a meals tokenizer
        let sut = try RowTokenizer.csv(.meals)
        // When a row with one field more than the header is tokenized
        let result = sut.tokenizing(CSVRowBuilder.meal.line + ",extra")
        // Then it is malformed, its user still readable
        #expect(result.line == .malformed(column: nil))
        #expect(result.fields["user_id"] == "u0000001")
    }

    @Test("a short row after a full one leaves no value of the full one behind")
    func noStaleFields() throws {
        // Given a meals tokenizer that read a full row
        let sut = try RowTokenizer.csv(.meals)
        _ = sut.tokenizing(CSVRowBuilder.meal.line)
        // When a row of two fields is tokenized
        let result = sut.tokenizing("m2,u2")
        // Then the missing columns are empty
        #expect(result.line == .malformed(column: nil))
        #expect(result.fields == ["meal_id": "m2", "user_id": "u2", "start": "", "end": "", "type": "", "kcal": "", "protein_g": "", "carbs_g": "", "fat_g": ""])
    }

    static let everyColumn: [(DatasetKind, String)] = DatasetKind.allCases.flatMap { kind in kind.columns.map { (kind, $0) } }

    @Test("a header without a required column refuses the file at line 1, naming the column", arguments: everyColumn)
    func missingColumn(kind: DatasetKind, column: String) throws {
        // Given a header lacking one column of the kind
        let header = kind.columns.filter { $0 != column }.joined(separator: ",")
        // When a tokenizer is made for it
        // Then the file is refused
        #expect(throws: InputRefusal(file: "\(kind.rawValue).csv", line: 1, reason: "missing required column '\(column)'")) {
            try Self.tokenizer(kind, header: header, file: "\(kind.rawValue).csv")
        }
    }

    @Test("with several columns missing, the first one in SPEC order is named")
    func firstMissingColumn() throws {
        // Given a steps header without source and count
        // When a tokenizer is made for it
        // Then source is named
        #expect(throws: InputRefusal(file: "steps.csv", line: 1, reason: "missing required column 'source'")) {
            try Self.tokenizer(.steps, header: "sample_id,user_id,start,end", file: "steps.csv")
        }
    }

    @Test("column names are exact: case, spaces and quotes do not match", arguments: [
        "Meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g",
        " meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g",
        "\"meal_id\",user_id,start,end,type,kcal,protein_g,carbs_g,fat_g",
        "meal_id;user_id;start;end;type;kcal;protein_g;carbs_g;fat_g",
    ])
    func exactNames(header: String) throws {
        // Given a header whose meal_id is not spelled exactly
        // When a tokenizer is made for it
        // Then meal_id is missing
        #expect(throws: InputRefusal(file: "meals.csv", line: 1, reason: "missing required column 'meal_id'")) {
            try Self.tokenizer(.meals, header: header)
        }
    }

    @Test("an empty header (an empty file) refuses the file")
    func emptyHeader() throws {
        // Given an empty header line
        // When a tokenizer is made for it
        // Then the first column is missing
        #expect(throws: InputRefusal(file: "users.csv", line: 1, reason: "missing required column 'user_id'")) {
            try RowTokenizer(kind: .users, csvHeader: UnsafeBufferPointer(start: nil, count: 0), file: "users.csv")
        }
    }
}
