import Datasets
@_spi(Tooling) import HealthCore
import Parquet
import Testing
import TestSupport

/// What the CSV decoders make of a typed row's rendered line.
enum TextReading<C: Equatable>: Equatable {
    case accepted(C, idHash: UInt64)
    /// Rejected for the reason of this name.
    case rejected(String)
    /// Not a row of the kind's columns (a `,` or `\n` in a string).
    case unreadable
}

/// The typed path's and the text path's readings of rows written to a Parquet table.
struct Readings<C: Equatable> {
    var typed: [(C, idHash: UInt64)?] = []
    var text: [TextReading<C>] = []
}

@Suite("The typed path takes a Parquet row exactly as the CSV decoders read its text, and leaves every other row to them")
struct TypedCandidatesTests {
    static let start: Int64 = 1_743_206_400_000_000
    static let users = UserDirectory(profiles: [UserProfileBuilder().build(), UserProfileBuilder().id("u0000002").build()])

    // MARK: meals

    static let plainMeals: [TypedMealRowBuilder] = [
        TypedMealRowBuilder(),
        TypedMealRowBuilder().kcal(0).macros(protein: -0.0, carbs: 0, fat: 0),
        TypedMealRowBuilder().kcal(0.001).macros(protein: 0.125, carbs: 7, fat: 999_999_999_999.999),
        TypedMealRowBuilder().kcal(999_999_999_999.999).id("m").user("u0000002"),
        TypedMealRowBuilder().id("m0000001-0000001").times(start, start + 14_400_000_000).type("breakfast"),
        TypedMealRowBuilder().id("m0000001").times(-86_400_000_000, -86_400_000_000).type("snack"),
        TypedMealRowBuilder().id("m00000001").type("dinner").kcal(1e11),
    ]

    @Test("a plainly valid meal becomes the candidate, with the id hash, that the CSV decoders make of its text", arguments: plainMeals)
    func plainMeal(row: TypedMealRowBuilder) throws {
        // Given a meals table holding the row
        // When both paths read it
        let sut = try Self.readings(meals: [row])
        // Then the typed path takes it, as the text path does
        let typed = try #require(sut.typed[0])
        #expect(sut.text[0] == .accepted(typed.0, idHash: typed.idHash))
    }

    static let mealsSPECRejects: [(TypedMealRowBuilder, String)] = [
        (TypedMealRowBuilder().user("u0000099"), "unknown_user"),
        (TypedMealRowBuilder().times(start, start - 1_000_000), "end_before_start"),
        (TypedMealRowBuilder().times(start, start + 14_401_000_000), "too_long"),
        (TypedMealRowBuilder().kcal(-1), "negative_value"),
        (TypedMealRowBuilder().macros(protein: -0.5), "negative_value"),
        (TypedMealRowBuilder().macros(carbs: -2), "negative_value"),
        (TypedMealRowBuilder().macros(fat: -0.001), "negative_value"),
        (TypedMealRowBuilder().id(""), "malformed"),
        (TypedMealRowBuilder().user(""), "malformed"),
        (TypedMealRowBuilder().type("brunch"), "malformed"),
        (TypedMealRowBuilder().type("Lunch"), "malformed"),
    ]

    @Test("a meal that breaks a SPEC rule is left to the text path, which rejects it for that rule", arguments: mealsSPECRejects)
    func mealBreakingARule(row: TypedMealRowBuilder, reason: String) throws {
        // Given a meals table holding the row
        // When both paths read it
        let sut = try Self.readings(meals: [row])
        // Then the typed path refuses it and the text path rejects it
        #expect(sut.typed[0] == nil)
        #expect(sut.text[0] == .rejected(reason))
    }

    static let mealsWithoutPlainText: [TypedMealRowBuilder] = [
        TypedMealRowBuilder().times(start + 500_000, start + 1_800_000_000),
        TypedMealRowBuilder().times(start, start + 1_800_000_001),
        TypedMealRowBuilder().kcal(0.0001),
        TypedMealRowBuilder().kcal(1e15),
        TypedMealRowBuilder().kcal(.nan),
        TypedMealRowBuilder().macros(carbs: .infinity),
        TypedMealRowBuilder().id("m0000001-00000001"),
        TypedMealRowBuilder().id("m1,m2"),
        TypedMealRowBuilder().id("m1\nm2"),
        TypedMealRowBuilder().user("u0000001,"),
    ]

    @Test("a meal whose values are no plain text (a fraction of a second, no whole thousandths, a long id, a comma) is left to the text path",
          arguments: mealsWithoutPlainText)
    func mealWithoutPlainText(row: TypedMealRowBuilder) throws {
        // Given a meals table holding the row
        // When the typed path reads it
        let sut = try Self.readings(meals: [row])
        // Then it refuses it
        #expect(sut.typed[0] == nil)
    }

    @Test("a run of rows: each is taken or left as on its own, a user looked up once never carried to the next row",
          arguments: [true, false])
    func mealRun(dictionaries: Bool) throws {
        // Given a table of valid rows of two users around rows the typed path must refuse, its strings
        // dictionary-encoded (as SimHarness writes them) or stored plainly (as another writer may)
        let rows = [TypedMealRowBuilder(), TypedMealRowBuilder().user("u0000099"), TypedMealRowBuilder().user("u0000002"),
                    TypedMealRowBuilder().user("u000000"), TypedMealRowBuilder().user("u0000002"), TypedMealRowBuilder().type("snack,"),
                    TypedMealRowBuilder()]
        // When both paths read it
        let sut = try Self.readings(meals: rows, dictionaries: dictionaries)
        // Then the typed path takes exactly the rows the text path accepts, with the same candidates
        let taken = sut.typed.map { $0.map { TextReading.accepted($0.0, idHash: $0.idHash) } }
        let accepted = sut.text.map { reading -> TextReading<MealCandidate>? in if case .accepted = reading { reading } else { nil } }
        #expect(taken == accepted)
        #expect(sut.typed.map { $0?.0.user } == [0, nil, 1, nil, 1, nil, 0])
    }

    // MARK: steps

    static let plainSteps: [TypedStepRowBuilder] = [
        TypedStepRowBuilder(),
        TypedStepRowBuilder().source("phone").count(0.5),
        TypedStepRowBuilder().count(-0.0).user("u0000002"),
        TypedStepRowBuilder().count(123_456_789.125).times(start, start + 86_400_000_000),
    ]

    @Test("a plainly valid step sample becomes the candidate, with the id hash, that the CSV decoders make of its text", arguments: plainSteps)
    func plainStep(row: TypedStepRowBuilder) throws {
        // Given a steps table holding the row
        // When both paths read it
        let sut = try Self.readings(steps: [row])
        // Then the typed path takes it, as the text path does
        let typed = try #require(sut.typed[0])
        #expect(sut.text[0] == .accepted(typed.0, idHash: typed.idHash))
    }

    static let stepsSPECRejects: [(TypedStepRowBuilder, String)] = [
        (TypedStepRowBuilder().user("u0000099"), "unknown_user"),
        (TypedStepRowBuilder().times(start, start), "bad_interval"),
        (TypedStepRowBuilder().times(start, start - 1_000_000), "bad_interval"),
        (TypedStepRowBuilder().times(start, start + 86_401_000_000), "bad_interval"),
        (TypedStepRowBuilder().count(-1), "negative_value"),
        (TypedStepRowBuilder().source("tablet"), "malformed"),
        (TypedStepRowBuilder().id(""), "malformed"),
    ]

    @Test("a step sample that breaks a SPEC rule is left to the text path, which rejects it for that rule", arguments: stepsSPECRejects)
    func stepBreakingARule(row: TypedStepRowBuilder, reason: String) throws {
        // Given a steps table holding the row
        // When both paths read it
        let sut = try Self.readings(steps: [row])
        // Then the typed path refuses it and the text path rejects it
        #expect(sut.typed[0] == nil)
        #expect(sut.text[0] == .rejected(reason))
    }

    @Test("a step sample whose values are no plain text is left to the text path",
          arguments: [TypedStepRowBuilder().times(start, start + 1), TypedStepRowBuilder().count(1.0625),
                      TypedStepRowBuilder().source("watch,"), TypedStepRowBuilder().id(String(repeating: "s", count: 17))])
    func stepWithoutPlainText(row: TypedStepRowBuilder) throws {
        // Given a steps table holding the row
        // When the typed path reads it
        let sut = try Self.readings(steps: [row])
        // Then it refuses it
        #expect(sut.typed[0] == nil)
    }

    @Test("a run of samples: users and sources looked up once a slot, whether the strings are dictionary-encoded or not",
          arguments: [true, false])
    func stepRun(dictionaries: Bool) throws {
        // Given samples of two users and both sources around ones the typed path must refuse
        let rows = [TypedStepRowBuilder(), TypedStepRowBuilder().source("phone").user("u0000002"), TypedStepRowBuilder().source("tablet"),
                    TypedStepRowBuilder().user("u0000099"), TypedStepRowBuilder().source("phone"), TypedStepRowBuilder().user("u0000002")]
        // When both paths read them
        let sut = try Self.readings(steps: rows, dictionaries: dictionaries)
        // Then the typed path takes exactly the samples the text path accepts, with the same candidates
        let taken = sut.typed.map { $0.map { TextReading.accepted($0.0, idHash: $0.idHash) } }
        let accepted = sut.text.map { reading -> TextReading<StepCandidate>? in if case .accepted = reading { reading } else { nil } }
        #expect(taken == accepted)
        #expect(sut.typed.map { $0?.0.user } == [0, 1, nil, nil, 0, 1])
        #expect(sut.typed.map { $0?.0.source } == [.watch, .phone, nil, nil, .phone, .watch])
    }

    // MARK: support

    static func readings(meals rows: [TypedMealRowBuilder], dictionaries: Bool = true) throws -> Readings<MealCandidate> {
        let columns = TypedMealRowBuilder.columns(rows)
        return try readings(of: .meals, columns, dictionaries: dictionaries) { run, row in
            try TypedCandidates.meal(row, of: #require(TypedCandidates.MealColumns(run, users: users)))
        } text: { fields in
            switch RowDecoders.meal(fields, users: users) {
            case .accepted(let candidate, let idHash): .accepted(candidate, idHash: idHash)
            case .rejected(let reason, _, _): .rejected(MealRejection.allCases[Int(reason)].rawValue)
            }
        }
    }

    static func readings(steps rows: [TypedStepRowBuilder], dictionaries: Bool = true) throws -> Readings<StepCandidate> {
        let columns = TypedStepRowBuilder.columns(rows)
        return try readings(of: .steps, columns, dictionaries: dictionaries) { run, row in
            try TypedCandidates.step(row, of: #require(TypedCandidates.StepColumns(run, users: users)))
        } text: { fields in
            switch RowDecoders.step(fields, users: users) {
            case .accepted(let candidate, let idHash): .accepted(candidate, idHash: idHash)
            case .rejected(let reason, _, _): .rejected(StepRejection.allCases[Int(reason)].rawValue)
            }
        }
    }

    /// Writes `columns` as the kind's Parquet table, then reads each row the typed way (`typed`,
    /// with its strings dictionary-encoded or not) and from its rendered line (`text`).
    static func readings<C>(
        of kind: DatasetKind, _ columns: [ParquetColumnValues], dictionaries: Bool,
        typed: (TypedRun, Int) throws -> (C, idHash: UInt64)?,
        text: (UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> TextReading<C>
    ) throws -> Readings<C> {
        let directory = try ScratchDirectory(prefix: "typed-candidates")
        let path = directory.file(kind.rawValue + ".parquet")
        var schema = kind.parquetSchema
        if !dictionaries { schema = ParquetSchema(columns: schema.columns.map { ParquetColumnSchema(name: $0.name, type: $0.type, nullable: $0.nullable) }) }
        var writer = try ParquetFileWriter(path: path, schema: schema)
        try writer.append(EncodedRowGroup(schema: schema, columns: columns, compression: .none))
        _ = try writer.finish()
        let table = try ParquetTableText(DatasetFile(kind: kind, path: path, format: .parquet, gzip: false))
        let header = Array(kind.columns.joined(separator: ",").utf8)
        let tokenizer = try header.withUnsafeBufferPointer { try RowTokenizer(kind: kind, csvHeader: $0, file: path) }
        var result = Readings<C>()
        try table.forEachRun(ofUnit: 0, memory: TypedRowsText(), typed: { run in
            for row in run.rows {
                result.typed.append(try typed(run, row))
                let line = ByteBuffer()
                run.appendLine(row, to: line)
                let bytes = line.bytes
                let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                guard lines.count == 2 else {
                    result.text.append(.unreadable)
                    continue
                }
                let reading = tokenizer.tokenize(UnsafeBufferPointer(rebasing: lines[0]))
                result.text.append(reading == .row ? text(tokenizer.fields) : .unreadable)
            }
        }, rejected: { _ in })
        return result
    }
}
