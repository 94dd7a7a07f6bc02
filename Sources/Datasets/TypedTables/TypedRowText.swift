import DatasetText
import Parquet

/// Renders typed rows back to the CSV text they were typed from (`TypedTable`): the canonical
/// text of each value, an empty field for a null. A value no generated field could have had (a
/// time with a fraction of a second, a DOUBLE that is not a whole number of thousandths) is
/// written as its exact or shortest decimal text, which the row decoders then judge.
package enum TypedRowText {
    /// Appends row `row` of `columns` (typed as `types`) as a CSV line with its `\n`.
    package static func appendCSVLine(row: Int, of columns: [ParquetColumnValues], types: [ParquetType], to buffer: ByteBuffer) {
        columns.withStorage { appendCSVLine(row: row, of: $0, types: types, to: buffer) }
    }

    /// Appends row `row` of the columns viewed by `columns` (typed as `types`) as a CSV line with its `\n`.
    package static func appendCSVLine(row: Int, of columns: [ParquetColumnStorage], types: [ParquetType], to buffer: ByteBuffer) {
        for c in columns.indices {
            if c > 0 { buffer.append(StaticString(",")) }
            appendField(row: row, of: columns[c], type: types[c], to: buffer)
        }
        buffer.append(StaticString("\n"))
    }

    /// Appends the field of row `row` of `column` (typed as `type`): empty for a null.
    @inline(__always)
    static func appendField(row: Int, of column: ParquetColumnStorage, type: ParquetType, to buffer: ByteBuffer) {
        if column.isNull(row) { return }
        switch type {
        case .string:
            buffer.append(column.utf8(row))
        case .int64:
            let v = column.int64(row)
            buffer.row(maxBytes: 24) { $0.int(v) }
        case .timestampMicros:
            let micros = column.int64(row)
            let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: CanonicalText.microsPerSecond)
            buffer.row(maxBytes: 32) { cursor in
                if fraction == 0 {
                    cursor.int(seconds)
                } else {
                    if micros < 0 { cursor.byte(UInt8(ascii: "-")) }
                    cursor.unsigned(seconds.magnitude)
                    cursor.byte(UInt8(ascii: "."))
                    cursor.padded(fraction.magnitude, width: 6)
                }
            }
        case .double:
            let v = column.double(row)
            if let milli = CanonicalText.milli(v) {
                buffer.row(maxBytes: 32) { $0.shortMilli(milli) }
            } else {
                buffer.append("\(v)")
            }
        }
    }
}

/// The CSV lines of a run of typed rows rendered column by column (each column borrowed once, not
/// copied per field as a row-by-row loop over an array of columns does), then joined row by row:
/// the same bytes as `TypedRowText.appendCSVLine` for each row in turn. Its memory is reused from
/// one `render` to the next; owned by one task at a time.
package final class TypedRowsText: @unchecked Sendable {
    private var texts: [ByteBuffer] = []
    /// Per column, where each row's field ends in its text.
    private var ends: [UnsafeMutablePointer<Int>] = []
    private var capacity = 0
    private var columnCount = 0
    /// The decoded columns of the row group being rendered, and the dictionary indices of those left
    /// encoded (memory reused from group to group).
    var columns: [ParquetColumnValues] = []
    var indices: [[UInt32]] = []

    package init() {}

    deinit { for e in ends { e.deallocate() } }

    /// Renders the fields of rows `0..<rows` of `columns` (typed as `types`).
    package func render(rows: Int, of columns: [ParquetColumnValues], types: [ParquetType]) {
        columns.withStorage { render(rows: rows, of: $0, types: types) }
    }

    /// Renders every row of the row group of `run`.
    package func render(_ run: TypedRun) {
        render(rows: run.groupRowCount, of: run.columns, types: run.types)
    }

    private func render(rows: Int, of columns: [ParquetColumnStorage], types: [ParquetType]) {
        if rows > capacity {
            for e in ends { e.deallocate() }
            capacity = max(rows, 2 * capacity)
            ends = ends.map { _ in .allocate(capacity: capacity) }
        }
        while texts.count < columns.count {
            texts.append(ByteBuffer(capacity: 1 << 16))
            ends.append(.allocate(capacity: capacity))
        }
        columnCount = columns.count
        for c in columns.indices {
            texts[c].removeAll()
            Self.appendFields(rows: rows, of: columns[c], type: types[c], to: texts[c], ends: ends[c])
        }
    }

    private static func appendFields(rows: Int, of column: ParquetColumnStorage, type: ParquetType, to text: ByteBuffer, ends: UnsafeMutablePointer<Int>) {
        for row in 0..<rows {
            TypedRowText.appendField(row: row, of: column, type: type, to: text)
            ends[row] = text.count
        }
    }

    /// Appends the lines of `rows` (of those rendered), each with its `\n`.
    package func appendLines(_ rows: Range<Int>, to buffer: ByteBuffer) {
        guard !rows.isEmpty else { return }
        let last = columnCount - 1
        var bytes = 0
        for c in 0...last {
            let e = ends[c]
            bytes += e[rows.upperBound - 1] - (rows.lowerBound == 0 ? 0 : e[rows.lowerBound - 1])
        }
        buffer.reserve(bytes + rows.count * columnCount)
        var cursor = buffer.storage + buffer.count
        texts.map(\.storage).withUnsafeBufferPointer { texts in
            ends.withUnsafeBufferPointer { ends in
                for row in rows {
                    for c in 0...last {
                        let start = row == 0 ? 0 : ends[c][row - 1], count = ends[c][row] - start
                        cursor.update(from: texts[c] + start, count: count)
                        cursor += count
                        cursor.pointee = c == last ? UInt8(ascii: "\n") : UInt8(ascii: ",")
                        cursor += 1
                    }
                }
            }
        }
        buffer.count = cursor - buffer.storage
    }
}

/// A run of typed rows of one decoded row group, in line order (`ParquetTableText.forEachRun`):
/// valid only inside the call that hands it out.
public struct TypedRun {
    /// The row group's columns, in the kind's column order.
    @usableFromInline let columns: [ParquetColumnStorage]
    let types: [ParquetType]
    /// The rows of the run, within the row group.
    public let rows: Range<Int>
    /// The rows of the row group.
    public let groupRowCount: Int

    /// Appends the CSV line of `row` with its `\n`, as `TypedRowText.appendCSVLine` renders it.
    public func appendLine(_ row: Int, to buffer: ByteBuffer) {
        TypedRowText.appendCSVLine(row: row, of: columns, types: types, to: buffer)
    }
}
