// Parquet files: any bytes, opened with ParquetFileReader(bytes:name:) and every column of every row
// group read, end in values or a ParquetError naming the file; never a crash, a hang or an allocation
// past what the bytes justify. What reads is written again and must read back bit for bit the same, and
// reads the same left dictionary-encoded (as `analyze` reads it).
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
    readLeftEncoded(bytes, columns)
    roundTrip(schema, columns)
    return 0
}

/// Reads every chunk again as `analyze` does — into reused memory, dictionary-encoded chunks left
/// encoded — and checks that the rows viewed are those read plainly.
func readLeftEncoded(_ bytes: [UInt8], _ groups: [[ParquetColumnValues]]) {
    do {
        let reader = try ParquetFileReader(bytes: bytes, name: "fuzz.parquet")
        var values = ParquetColumnValues(type: .string)
        var indices: [UInt32] = []
        for (g, columns) in groups.enumerated() {
            for (c, plain) in columns.enumerated() {
                try reader.read(rowGroup: g, column: c, into: &values, indices: &indices)
                precondition(sameRows(values, indices: indices, as: plain), "differential mismatch: row group \(g), column \(c) reads otherwise left encoded")
            }
        }
    } catch {
        fatalError("differential mismatch: a file read plainly fails left encoded: \(error)")
    }
}

func sameRows(_ values: ParquetColumnValues, indices: [UInt32], as plain: ParquetColumnValues) -> Bool {
    values.withStorage(indices: indices) { view in
        guard view.count == plain.count else { return false }
        for row in 0..<plain.count {
            guard view.isNull(row) == plain.isNull(row) else { return false }
            if plain.isNull(row) { continue }
            switch plain.type {
            case .int64, .timestampMicros: if view.int64(row) != plain.int64(row) { return false }
            case .double: if view.double(row).bitPattern != plain.double(row).bitPattern { return false }
            case .string: if !plain.withUTF8(row, { view.utf8(row).elementsEqual($0) }) { return false }
            }
        }
        return true
    }
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
