import Parquet

/// Renders typed rows back to the CSV text they were typed from (`TypedTable`): the canonical
/// text of each value, an empty field for a null. A value no generated field could have had (a
/// time with a fraction of a second, a DOUBLE that is not a whole number of thousandths) is
/// written as its exact or shortest decimal text, which the row decoders then judge.
public enum TypedRowText {
    /// Appends row `row` of `columns` (typed as `types`) as a CSV line with its `\n`.
    public static func appendCSVLine(row: Int, of columns: [ParquetColumnValues], types: [ParquetType], to buffer: ByteBuffer) {
        columns.withUnsafeBufferPointer { columns in
            types.withUnsafeBufferPointer { types in appendCSVLine(row: row, of: columns, types: types, to: buffer) }
        }
    }

    /// Appends row `row` of `columns` (typed as `types`) as a CSV line with its `\n`; the columns are
    /// borrowed in place (no copy of a column's storage references per field).
    @inline(__always)
    public static func appendCSVLine(
        row: Int, of columns: UnsafeBufferPointer<ParquetColumnValues>, types: UnsafeBufferPointer<ParquetType>, to buffer: ByteBuffer
    ) {
        for c in 0..<columns.count {
            if c > 0 { buffer.append(StaticString(",")) }
            if columns[c].isNull(row) { continue }
            switch types[c] {
            case .string:
                columns[c].withUTF8(row) { buffer.append($0) }
            case .int64:
                let v = columns[c].int64(row)
                buffer.row(maxBytes: 24) { $0.int(v) }
            case .timestampMicros:
                let micros = columns[c].int64(row)
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
                let v = columns[c].double(row)
                if let milli = CanonicalText.milli(v) {
                    buffer.row(maxBytes: 32) { $0.shortMilli(milli) }
                } else {
                    buffer.append("\(v)")
                }
            }
        }
        buffer.append(StaticString("\n"))
    }
}
