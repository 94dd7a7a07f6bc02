import Datasets
import Parquet
import PaymentsCore

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
    private var columns = (0..<GeneratedFile.allCases.map(\.columns.count).max()!).map { _ in ColumnScratch() }

    /// Appends the rows of `file` in `batch` to `table`; calls `rejected` with the index (among the
    /// file's rows) and the CSV line (without its `\n`) of each row that cannot be typed. Returns
    /// the number of rows.
    mutating func append(
        _ file: GeneratedFile, of batch: SimulationBatch, to table: inout TypedTable, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        var encoder = RecordEncoder(format: .csv, columns: file.columns, buffer: line)
        var single = TypedTable(kind: file, reservingCapacity: 1)
        let line = line
        var rows = 0
        let width = file.columns.count
        columns.withUnsafeMutableBufferPointer { all in
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
                for (row, meal) in batch.meals.enumerated() {
                    if meal.fault == nil, Self.isTime(meal.start), Self.isTime(meal.end) {
                        Self.append(meal, to: c)
                    } else {
                        line.removeAll()
                        RowRendering.encode(meal, into: &encoder)
                        Self.typeText(line, row: row, into: c, single: &single, rejected: rejected)
                    }
                }
                rows = batch.meals.count
            case .steps:
                for (row, step) in batch.steps.enumerated() {
                    if step.fault == nil, Self.isTime(step.start), Self.isTime(step.end) {
                        Self.append(step, to: c)
                    } else {
                        line.removeAll()
                        RowRendering.encode(step, into: &encoder)
                        Self.typeText(line, row: row, into: c, single: &single, rejected: rejected)
                    }
                }
                rows = batch.steps.count
            case .payments:
                for (row, payment) in batch.payments.enumerated() {
                    if payment.fault == nil, Self.isTime(payment.createdAt) {
                        Self.append(payment, to: c)
                    } else {
                        line.removeAll()
                        RowRendering.encode(payment, into: &encoder)
                        Self.typeText(line, row: row, into: c, single: &single, rejected: rejected)
                    }
                }
                rows = batch.payments.count
            }
            table.withColumns { target in
                for k in target.indices { c[k].copy(to: &target[k]) }
            }
        }
        return rows
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
        c[2].text(RowRendering.protocolName(user.fastingProtocol))
        c[3].text(user.sex == .male ? "male" : "female")
        c[4].int(Int64(user.age))
        c[5].milli(user.weightMilli)
        c[6].milli(user.heightMilli)
        c[7].text(RowRendering.activityName(user.activity))
    }

    @inline(__always) private static func append(_ meal: MealRow, to c: Columns) {
        c[0].id(Ids.meal, owner: UInt64(meal.user), ordinal: UInt64(meal.ordinal))
        c[1].id(Ids.user, UInt64(meal.user))
        c[2].time(meal.start)
        c[3].time(meal.end)
        c[4].text(RowRendering.mealTypeName(meal.type))
        c[5].milli(meal.kcalMilli)
        c[6].milli(meal.proteinMilli)
        c[7].milli(meal.carbsMilli)
        c[8].milli(meal.fatMilli)
    }

    @inline(__always) private static func append(_ step: StepRow, to c: Columns) {
        c[0].id(Ids.sample, owner: UInt64(step.user), ordinal: UInt64(step.ordinal))
        c[1].id(Ids.user, UInt64(step.user))
        c[2].text(step.source == .watch ? "watch" : "phone")
        c[3].time(step.start)
        c[4].time(step.end)
        c[5].milli(step.countMilli)
    }

    @inline(__always) private static func append(_ payment: PaymentRow, to c: Columns) {
        let user = UInt64(payment.user)
        c[0].id(Ids.payment, owner: user, ordinal: UInt64(payment.ordinal))
        let padding = payment.hasLongKey ? PaymentRejection.maximumKeyLength - PaymentRow.keyIdLength : 0
        c[1].string(maxBytes: 64 + padding) { cursor in
            cursor.id(UInt8(ascii: "k"), owner: user, ordinal: UInt64(payment.keyOrdinal))
            cursor.repeated(UInt8(ascii: "K"), count: padding)
        }
        c[2].id(Ids.user, user)
        c[3].text(payment.kind == .charge ? "charge" : "refund")
        c[4].int(payment.amountMinor)
        c[5].text(payment.currency.codeLiteral)
        c[6].time(payment.createdAt)
        if payment.refundOf == PaymentRow.noCharge {
            c[7].null()
        } else {
            let ghost = payment.refundOf & PaymentRow.ghostBit != 0
            c[7].string(nullable: true) { $0.id(ghost ? UInt8(ascii: "q") : Ids.payment, owner: user, ordinal: UInt64(payment.refundOf & ~PaymentRow.ghostBit)) }
        }
        // As `RowRendering.script`: `A`, `D`, `T`, `L` tokens joined by `;`.
        let script = payment.script
        c[8].string { cursor in
            for i in 0..<script.count {
                if i > 0 { cursor.byte(UInt8(ascii: ";")) }
                switch script.response(at: i) {
                case .approved: cursor.byte(UInt8(ascii: "A"))
                case .declined: cursor.byte(UInt8(ascii: "D"))
                case .timedOut: cursor.byte(UInt8(ascii: "T"))
                case .lost: cursor.byte(UInt8(ascii: "L"))
                }
            }
        }
    }
}

/// One column's values of the rows being typed: 64-bit words, or string bytes and their ends, and
/// validity bytes when the column is nullable (`ParquetColumnValues`' layout).
private struct ColumnScratch {
    var words: [UInt64] = []
    let bytes = ByteBuffer(capacity: 1 << 16)
    var ends: [Int] = []
    var validity: [UInt8] = []
    /// The owner number of the last id written, and its `Ids.userWidth` digits in bytes 1 to 7 of
    /// a little-endian word (rows come grouped by user: an owner is formatted once, as
    /// `RecordEncoder` does).
    var owner = UInt64.max
    var ownerDigits: UInt64 = 0

    mutating func removeAll() {
        words.removeAll(keepingCapacity: true)
        bytes.removeAll()
        ends.removeAll(keepingCapacity: true)
        validity.removeAll(keepingCapacity: true)
    }

    @inline(__always) mutating func int(_ value: Int64) { words.append(UInt64(bitPattern: value)) }

    /// Seconds, as microseconds.
    @inline(__always) mutating func time(_ seconds: Int64) { int(seconds * CanonicalText.microsPerSecond) }

    /// A decimal given in thousandths.
    @inline(__always) mutating func milli(_ value: Int32) { words.append(CanonicalText.double(milli: Int64(value)).bitPattern) }

    @inline(__always) mutating func text(_ value: StaticString) {
        string { $0.bytes(value) }
    }

    /// A string that `write` writes, at most `maxBytes` bytes; `nullable` adds its validity byte.
    @inline(__always) mutating func string(maxBytes: Int = 64, nullable: Bool = false, _ write: (inout ByteCursor) -> Void) {
        bytes.row(maxBytes: maxBytes, write)
        ends.append(bytes.count)
        if nullable { validity.append(1) }
    }

    /// An id such as `u0000042` (`ByteCursor.id`).
    @inline(__always) mutating func id(_ prefix: UInt8, _ number: UInt64) {
        guard number < 10_000_000 else { return string { $0.id(prefix, number) } }
        let word = ownerWord(prefix, number)
        string { $0.word(word) }
    }

    /// An id such as `m0000042-000017` (`ByteCursor.id`).
    @inline(__always) mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64) {
        guard owner < 10_000_000 else { return string { $0.id(prefix, owner: owner, ordinal: ordinal) } }
        let word = ownerWord(prefix, owner)
        string { cursor in
            cursor.word(word)
            cursor.byte(UInt8(ascii: "-"))
            cursor.padded(ordinal, width: Ids.ordinalWidth)
        }
    }

    /// `prefix` and `number` (below 10⁷) in `Ids.userWidth` digits, as eight bytes.
    @inline(__always) private mutating func ownerWord(_ prefix: UInt8, _ number: UInt64) -> UInt64 {
        if number != owner {
            owner = number
            ownerDigits = 0
            withUnsafeMutableBytes(of: &ownerDigits) { raw in
                _ = NumberWriter.padded(number, width: Ids.userWidth, at: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + 1)
            }
            ownerDigits = UInt64(littleEndian: ownerDigits)
        }
        return ownerDigits | UInt64(prefix)
    }

    /// A null string.
    mutating func null() {
        ends.append(bytes.count)
        validity.append(0)
    }

    /// Appends the one row of `values` (a row typed from its text).
    mutating func append(_ values: ParquetColumnValues) {
        if values.nullable { validity.append(values.isNull(0) ? 0 : 1) }
        switch values.type {
        case .string:
            values.withUTF8(0) { text in bytes.row(maxBytes: text.count) { $0.bytes(text) } }
            ends.append(bytes.count)
        case .double: words.append(values.double(0).bitPattern)
        case .int64, .timestampMicros: words.append(UInt64(bitPattern: values.int64(0)))
        }
    }

    /// Appends the values to `column`, of their type.
    func copy(to column: inout ParquetColumnValues) {
        validity.withUnsafeBufferPointer { validity in
            if column.type == .string {
                ends.withUnsafeBufferPointer { column.append(utf8: bytes.bytes, ends: $0, validity: validity) }
            } else {
                words.withUnsafeBufferPointer { column.append(words: $0, validity: validity) }
            }
        }
    }
}
