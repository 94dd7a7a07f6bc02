import Datasets
@_spi(Tooling) @testable import Export
import Parquet
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

@Suite("typing generated rows from their values", .budget(minutes: 2))
struct TypedRowsTests {
    /// A table typed from its CSV lines: the typed table and the rejected rows (index, line).
    private struct Typed: Equatable {
        var cells: [[String]]
        var rejected: [String]
    }

    /// Every value of `table`, column by column, exactly (doubles by their bits).
    private static func cells(_ table: TypedTable) -> [[String]] {
        table.columns.map { column in
            (0..<column.count).map { row in
                if column.isNull(row) { return "null" }
                switch column.type {
                case .string: return column.withUTF8(row) { String(decoding: $0, as: UTF8.self) }
                case .double: return "d\(column.double(row).bitPattern)"
                case .int64, .timestampMicros: return "i\(column.int64(row))"
                }
            }
        }
    }

    /// The batch's rows of `file` typed from their CSV text, line by line (the reference).
    private static func viaText(_ file: GeneratedFile, of batch: SimulationBatch) -> Typed {
        let buffer = ByteBuffer()
        var encoder = RecordEncoder(format: .csv, columns: file.columns, buffer: buffer)
        _ = RowRendering.encode(file, of: batch, into: &encoder)
        var table = TypedTable(kind: file)
        var rejected: [String] = []
        table.append(csvLines: buffer.bytes) { row, line in rejected.append("\(row): " + String(decoding: line, as: UTF8.self)) }
        return Typed(cells: cells(table), rejected: rejected)
    }

    /// The batch's rows of `file` typed by `sut`.
    private static func viaValues(_ file: GeneratedFile, of batch: SimulationBatch, _ sut: TypedRows) -> Typed {
        var table = TypedTable(kind: file)
        var rejected: [String] = []
        _ = sut.append(file, of: batch, to: &table) { row, line in rejected.append("\(row): " + String(decoding: line, as: UTF8.self)) }
        return Typed(cells: cells(table), rejected: rejected)
    }

    /// The rows of `file` in `batch` (a duplicated user is written twice).
    private static func rowCount(_ file: GeneratedFile, of batch: SimulationBatch) -> Int {
        switch file {
        case .users: batch.users.count + batch.users.filter { $0.fault == .duplicate }.count
        case .meals: batch.meals.count
        case .steps: batch.steps.count
        case .payments: batch.payments.count
        }
    }

    @Test("rows typed from their values are exactly the rows typed from their CSV text, rejections included, for every shipped scenario",
          arguments: ScenarioCatalog.names)
    func valuesTypeAsTheirText(name: String) throws {
        // Given a shipped scenario's rows, with more faults than it ships with
        var scenario = try ScenarioCatalog.load(name)
        scenario.users = 120
        scenario.days = 3
        scenario.faults.defaultRate = max(scenario.faults.defaultRate, 0.03)
        var batch = SimulationBatch()
        Simulator(scenario: scenario).fill(&batch, with: UserSelection(users: 0..<120))
        let sut = TypedRows()
        for file in GeneratedFile.allCases {
            // When each file is typed from the values and from the text
            let actual = Self.viaValues(file, of: batch, sut)
            let expected = Self.viaText(file, of: batch)
            // Then the typed values and the rejected lines are the same
            #expect(actual == expected, "\(name): \(file)")
            #expect(actual.cells[0].count + actual.rejected.count == Self.rowCount(file, of: batch), "\(name): \(file)")
        }
    }

    @Test("ids of users past 10,000,000 (wider than their 7 digits) type as their text, on either side of the limit")
    func wideIds() throws {
        // Given the rows of the users just below and just above index 10,000,000, with faults
        var scenario = try ScenarioCatalog.load("faults")
        scenario.days = 2
        var batch = SimulationBatch()
        Simulator(scenario: scenario).fill(&batch, with: UserSelection(users: 9_999_990..<10_000_010))
        let sut = TypedRows()
        for file in GeneratedFile.allCases {
            // When each file is typed from the values and from the text
            let actual = Self.viaValues(file, of: batch, sut)
            // Then they are the same, and the wide ids are there
            #expect(actual == Self.viaText(file, of: batch), "\(file)")
        }
        #expect(Self.viaValues(.users, of: batch, sut).cells[0].contains("u10000009"))
    }
}
