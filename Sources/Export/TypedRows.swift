import DatasetText
import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import Parquet
import PaymentsCore
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// Types generated rows from their values, without rendering and parsing their CSV text: a row
/// without an injected fault is well-formed by construction, and its typed values are those its
/// canonical text parses to (`TypedTable`). A row with a fault, which may be malformed, goes
/// through its CSV line and `TypedTable.append(csvLines:)`, so that it is typed or rejected exactly
/// as its text says. The values are gathered column by column in memory kept from chunk to chunk,
/// then appended to the table's columns at once.
struct TypedRows {
    /// Where the CSV line of a row with a fault is rendered.
    private let line = ByteBuffer(capacity: RecordEncoder.maximumRecordBytes)
    /// The values of the chunk's rows being typed, one per column of the widest file.
    private let scratch = ColumnScratchStorage(count: GeneratedFile.allCases.map(\.columns.count).max()!)

    /// Appends the rows of `file` in `batch` to `table`; calls `rejected` with the index (among the
    /// file's rows) and the CSV line (without its `\n`) of each row that cannot be typed. Returns
    /// the number of rows.
    func append(
        _ file: GeneratedFile, of batch: SimulationBatch, to table: inout TypedTable, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        var encoder = RecordEncoder(format: .csv, columns: file.columns, buffer: line)
        var single = TypedTable(kind: file, reservingCapacity: 1)
        let line = line
        var rows = 0
        let width = file.columns.count
        scratch.columns.withUnsafeMutableBufferPointer { all in
            let c = UnsafeMutableBufferPointer(rebasing: all[0..<width])
            for k in c.indices { c[k].removeAll() }
            switch file {
            case .users:
                for user in batch.users {
                    for _ in 0..<(user.fault == .duplicate ? 2 : 1) {
                        if user.fault == nil {
                            Self.append(user, to: c)
                        } else {
                            line.removeAll()
                            RowRendering.encode(user, into: &encoder)
                            Self.typeText(line, row: rows, into: c, single: &single, rejected: rejected)
                        }
                        rows += 1
                    }
                }
            case .meals:
                rows = typeRows(batch.meals, into: c, single: &single, rejected: rejected) {
                    $0.fault == nil && Self.isTime($0.start) && Self.isTime($0.end)
                } append: { Self.append($0, to: $1) } render: { RowRendering.encode($0, into: &encoder) }
            case .steps:
                rows = typeRows(batch.steps, into: c, single: &single, rejected: rejected) {
                    $0.fault == nil && Self.isTime($0.start) && Self.isTime($0.end)
                } append: { Self.append($0, to: $1) } render: { RowRendering.encode($0, into: &encoder) }
            case .payments:
                rows = typeRows(batch.payments, into: c, single: &single, rejected: rejected) {
                    $0.fault == nil && Self.isTime($0.createdAt)
                } append: { Self.append($0, to: $1) } render: { RowRendering.encode($0, into: &encoder) }
            }
            table.withColumns { target in
                for k in target.indices { c[k].copy(to: &target[k]) }
            }
        }
        return rows
    }

    /// Types each of `rows`: from its values (`append`) when `isClean`, else from its CSV line (`render`
    /// writes it into `line`, which `typeText` then reads). Returns the number of rows.
    @inline(__always) private func typeRows<Row>(
        _ rows: [Row], into c: Columns, single: inout TypedTable, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void,
        isClean: (Row) -> Bool, append: (Row, Columns) -> Void, render: (Row) -> Void
    ) -> Int {
        for (index, row) in rows.enumerated() {
            if isClean(row) {
                append(row, c)
            } else {
                line.removeAll()
                render(row)
                Self.typeText(line, row: index, into: c, single: &single, rejected: rejected)
            }
        }
        return rows.count
    }

    /// Types the CSV line in `line` (a row with a fault) through `single`: its values join `c`, or
    /// `rejected` gets `row` and the line.
    private static func typeText(
        _ line: ByteBuffer, row: Int, into c: Columns, single: inout TypedTable, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        single.removeAll()
        single.append(csvLines: line.bytes) { _, text in rejected(row, text) }
        if single.rows == 1 { for k in c.indices { c[k].append(single.columns[k]) } }
    }

    /// Whether seconds are a time the typed tables hold (as microseconds in 64 bits).
    @inline(__always) private static func isTime(_ seconds: Int64) -> Bool { seconds.magnitude <= CanonicalText.maximumSeconds.magnitude }

    private typealias Columns = UnsafeMutableBufferPointer<ColumnScratch>

    @inline(__always) private static func append(_ user: UserRow, to c: Columns) {
        c[0].id(Ids.user, UInt64(user.index))
        c[1].int(Int64(user.utcOffsetMinutes))
        c[2].text(user.fastingProtocol.spelling)
        c[3].text(user.sex.spelling)
        c[4].int(Int64(user.age))
        c[5].milli(user.weightMilli)
        c[6].milli(user.heightMilli)
        c[7].text(user.activity.spelling)
    }

    @inline(__always) private static func append(_ meal: MealRow, to c: Columns) {
        c[0].id(Ids.meal, owner: UInt64(meal.user), ordinal: UInt64(meal.ordinal))
        c[1].id(Ids.user, UInt64(meal.user))
        c[2].time(meal.start)
        c[3].time(meal.end)
        c[4].text(meal.type.spelling)
        c[5].milli(meal.kcalMilli)
        c[6].milli(meal.proteinMilli)
        c[7].milli(meal.carbsMilli)
        c[8].milli(meal.fatMilli)
    }

    @inline(__always) private static func append(_ step: StepRow, to c: Columns) {
        c[0].id(Ids.sample, owner: UInt64(step.user), ordinal: UInt64(step.ordinal))
        c[1].id(Ids.user, UInt64(step.user))
        c[2].text(step.source.spelling)
        c[3].time(step.start)
        c[4].time(step.end)
        c[5].milli(step.countMilli)
    }

    @inline(__always) private static func append(_ payment: PaymentRow, to c: Columns) {
        let user = UInt64(payment.user)
        c[0].id(Ids.payment, owner: user, ordinal: UInt64(payment.ordinal))
        let padding = payment.hasLongKey ? PaymentRejection.maximumKeyLength - PaymentRow.keyIdLength : 0
        c[1].id(UInt8(ascii: "k"), owner: user, ordinal: UInt64(payment.keyOrdinal), padding: padding)
        c[2].id(Ids.user, user)
        c[3].text(payment.kind.spelling)
        c[4].int(payment.amountMinor)
        c[5].text(payment.currency.codeLiteral)
        c[6].time(payment.createdAt)
        if payment.refundOf == PaymentRow.noCharge {
            c[7].null()
        } else {
            let ghost = payment.refundOf & PaymentRow.ghostBit != 0
            c[7].id(ghost ? UInt8(ascii: "q") : Ids.payment, owner: user, ordinal: UInt64(payment.refundOf & ~PaymentRow.ghostBit), nullable: true)
        }
        c[8].script(payment.script)
    }
}
