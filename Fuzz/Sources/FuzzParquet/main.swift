// Parquet files: any bytes, opened with ParquetFileReader(bytes:name:) and every column of every row
// group read, end in values or a ParquetError naming the file; never a crash, a hang or an allocation
// past what the bytes justify. What reads is written again and must read back bit for bit the same.
import Foundation
import FuzzSupport
import Parquet

let rewritten = FuzzSupport.scratch() + "/rewritten.parquet"

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = input.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let columns: [[ParquetColumnValues]]
    let schema: ParquetSchema
    do {
        let reader = try ParquetFileReader(bytes: bytes, name: "fuzz.parquet")
        schema = reader.schema
        columns = try (0..<reader.rowGroupCount).map { group in
            try (0..<schema.columns.count).map { column in
                let values = try reader.read(rowGroup: group, column: column)
                precondition(values.count == reader.rowCount(ofRowGroup: group), "a column of \(values.count) rows in a group of \(reader.rowCount(ofRowGroup: group))")
                return values
            }
        }
    } catch let error as ParquetError {
        precondition(error.file == "fuzz.parquet", "the error names \(error.file)")
        return 0
    } catch {
        fatalError("reading a Parquet file failed otherwise than by a ParquetError: \(error)")
    }
    roundTrip(schema, columns)
    return 0
}

/// Writes the values read (dictionary-encoded and zstd-compressed) and checks that they read back the same.
func roundTrip(_ schema: ParquetSchema, _ groups: [[ParquetColumnValues]]) {
    guard Set(schema.columns.map(\.name)).count == schema.columns.count, !schema.columns.contains(where: { $0.name.isEmpty }) else { return }
    var encoded = schema
    for c in encoded.columns.indices { encoded.columns[c].dictionary = c % 2 == 0 }
    do {
        var writer = try ParquetFileWriter(path: rewritten, schema: encoded)
        for columns in groups { try writer.append(try EncodedRowGroup(schema: encoded, columns: columns, compression: .zstd)) }
        _ = try writer.finish()
        let reader = try ParquetFileReader(path: rewritten)
        precondition(reader.schema == schema, "the schema changed in a round trip")
        for (g, columns) in groups.enumerated() {
            for (c, values) in columns.enumerated() {
                let again = try reader.read(rowGroup: g, column: c)
                precondition(same(values, again), "differential mismatch: row group \(g), column \(c) reads back otherwise")
            }
        }
    } catch {
        fatalError("differential mismatch: values read could not be written and read back: \(error)")
    }
}

func same(_ a: ParquetColumnValues, _ b: ParquetColumnValues) -> Bool {
    guard a.count == b.count else { return false }
    for row in 0..<a.count {
        guard a.isNull(row) == b.isNull(row) else { return false }
        if a.isNull(row) { continue }
        switch a.type {
        case .int64, .timestampMicros: if a.int64(row) != b.int64(row) { return false }
        case .double: if a.double(row).bitPattern != b.double(row).bitPattern { return false }
        case .string: if !a.withUTF8(row, { x in b.withUTF8(row) { y in x.elementsEqual(y) } }) { return false }
        }
    }
    return true
}

FuzzSupport.main(fuzz)
