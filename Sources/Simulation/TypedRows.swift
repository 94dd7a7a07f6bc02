import Datasets
import Parquet
import PaymentsCore

/// Types generated rows from their values, without rendering and parsing their CSV text: a row
/// without an injected fault is well-formed by construction, and its typed values are those its
/// canonical text parses to (`TypedTable`). A row with a fault, which may be malformed, goes
/// through its CSV line and `TypedTable.append(csvLines:)`, so that it is typed or rejected exactly
/// as its text says.
struct TypedRows {
    /// Where the CSV line of a row with a fault is rendered.
    private let line = ByteBuffer(capacity: RecordEncoder.maximumRecordBytes)
    /// Where an id is formatted before it joins its column.
    private let id = ByteBuffer(capacity: 512)

    /// Appends the rows of `file` in `batch` to `table`; calls `rejected` with the index (among the
    /// file's rows) and the CSV line (without its `\n`) of each row that cannot be typed. Returns
    /// the number of rows.
    func append(
        _ file: GeneratedFile, of batch: SimulationBatch, to table: inout TypedTable, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int {
        var encoder = RecordEncoder(format: .csv, columns: file.columns, buffer: line)
        var single = TypedTable(kind: file, reservingCapacity: 1)
        var row = 0
        table.withColumns { c in
            /// Types the row `render` writes from its text, into `single` first.
            func viaText(_ render: (inout RecordEncoder) -> Void) {
                line.removeAll()
                render(&encoder)
                let index = row
                single.removeAll()
                single.append(csvLines: line.bytes) { _, text in rejected(index, text) }
                if single.rows == 1 { for k in c.indices { c[k].append(contentsOf: single.columns[k]) } }
            }
            switch file {
            case .users:
                for user in batch.users {
                    for _ in 0..<(user.fault == .duplicate ? 2 : 1) {
                        if user.fault == nil { append(user, to: c) } else { viaText { RowRendering.encode(user, into: &$0) } }
                        row += 1
                    }
                }
            case .meals:
                for meal in batch.meals {
                    if meal.fault == nil, isTime(meal.start), isTime(meal.end) { append(meal, to: c) } else { viaText { RowRendering.encode(meal, into: &$0) } }
                    row += 1
                }
            case .steps:
                for step in batch.steps {
                    if step.fault == nil, isTime(step.start), isTime(step.end) { append(step, to: c) } else { viaText { RowRendering.encode(step, into: &$0) } }
                    row += 1
                }
            case .payments:
                for payment in batch.payments {
                    if payment.fault == nil, isTime(payment.createdAt) {
                        append(payment, to: c)
                    } else {
                        viaText { RowRendering.encode(payment, into: &$0) }
                    }
                    row += 1
                }
            }
        }
        return row
    }

    /// Whether seconds are a time the typed tables hold (as microseconds in 64 bits).
    @inline(__always) private func isTime(_ seconds: Int64) -> Bool { seconds.magnitude <= CanonicalText.maximumSeconds.magnitude }

    @inline(__always) private func append(_ user: UserRow, to c: UnsafeMutableBufferPointer<ParquetColumnValues>) {
        appendId(Ids.user, UInt64(user.index), to: &c[0])
        c[1].append(Int64(user.utcOffsetMinutes))
        append(RowRendering.protocolName(user.fastingProtocol), to: &c[2])
        append(user.sex == .male ? "male" : "female", to: &c[3])
        c[4].append(Int64(user.age))
        c[5].append(CanonicalText.double(milli: Int64(user.weightMilli)))
        c[6].append(CanonicalText.double(milli: Int64(user.heightMilli)))
        append(RowRendering.activityName(user.activity), to: &c[7])
    }

    @inline(__always) private func append(_ meal: MealRow, to c: UnsafeMutableBufferPointer<ParquetColumnValues>) {
        appendId(Ids.meal, owner: UInt64(meal.user), ordinal: UInt64(meal.ordinal), to: &c[0])
        appendId(Ids.user, UInt64(meal.user), to: &c[1])
        c[2].append(meal.start * CanonicalText.microsPerSecond)
        c[3].append(meal.end * CanonicalText.microsPerSecond)
        append(RowRendering.mealTypeName(meal.type), to: &c[4])
        c[5].append(CanonicalText.double(milli: Int64(meal.kcalMilli)))
        c[6].append(CanonicalText.double(milli: Int64(meal.proteinMilli)))
        c[7].append(CanonicalText.double(milli: Int64(meal.carbsMilli)))
        c[8].append(CanonicalText.double(milli: Int64(meal.fatMilli)))
    }

    @inline(__always) private func append(_ step: StepRow, to c: UnsafeMutableBufferPointer<ParquetColumnValues>) {
        appendId(Ids.sample, owner: UInt64(step.user), ordinal: UInt64(step.ordinal), to: &c[0])
        appendId(Ids.user, UInt64(step.user), to: &c[1])
        append(step.source == .watch ? "watch" : "phone", to: &c[2])
        c[3].append(step.start * CanonicalText.microsPerSecond)
        c[4].append(step.end * CanonicalText.microsPerSecond)
        c[5].append(CanonicalText.double(milli: Int64(step.countMilli)))
    }

    @inline(__always) private func append(_ payment: PaymentRow, to c: UnsafeMutableBufferPointer<ParquetColumnValues>) {
        let user = UInt64(payment.user)
        appendId(Ids.payment, owner: user, ordinal: UInt64(payment.ordinal), to: &c[0])
        let padding = payment.hasLongKey ? PaymentRejection.maximumKeyLength - PaymentRow.keyIdLength : 0
        appendId(UInt8(ascii: "k"), owner: user, ordinal: UInt64(payment.keyOrdinal), padding: padding, to: &c[1])
        appendId(Ids.user, user, to: &c[2])
        append(payment.kind == .charge ? "charge" : "refund", to: &c[3])
        c[4].append(payment.amountMinor)
        append(payment.currency.codeLiteral, to: &c[5])
        c[6].append(payment.createdAt * CanonicalText.microsPerSecond)
        if payment.refundOf == PaymentRow.noCharge {
            c[7].appendNull()
        } else {
            let ghost = payment.refundOf & PaymentRow.ghostBit != 0
            appendId(ghost ? UInt8(ascii: "q") : Ids.payment, owner: user, ordinal: UInt64(payment.refundOf & ~PaymentRow.ghostBit), to: &c[7])
        }
        appendScript(payment.script, to: &c[8])
    }

    /// As `RowRendering.script`: `A`, `D`, `T`, `L` tokens joined by `;`.
    @inline(__always) private func appendScript(_ script: CompactScript, to column: inout ParquetColumnValues) {
        id.removeAll()
        id.row(maxBytes: 2 * CompactScript.capacity) { cursor in
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
        column.append(utf8: id.bytes)
    }

    @inline(__always) private func append(_ text: StaticString, to column: inout ParquetColumnValues) {
        column.append(utf8: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always) private func appendId(_ prefix: UInt8, _ number: UInt64, to column: inout ParquetColumnValues) {
        id.removeAll()
        id.row(maxBytes: 32) { $0.id(prefix, number) }
        column.append(utf8: id.bytes)
    }

    @inline(__always) private func appendId(_ prefix: UInt8, owner: UInt64, ordinal: UInt64, padding: Int = 0, to column: inout ParquetColumnValues) {
        id.removeAll()
        id.row(maxBytes: 64 + padding) { cursor in
            cursor.id(prefix, owner: owner, ordinal: ordinal)
            cursor.repeated(UInt8(ascii: "K"), count: padding)
        }
        column.append(utf8: id.bytes)
    }
}
