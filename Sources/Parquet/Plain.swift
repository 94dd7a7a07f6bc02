/// PLAIN values: INT64 and DOUBLE as 8 little-endian bytes, BYTE_ARRAY as a 4-byte little-endian length
/// and the bytes. Nulls are not written.
enum Plain {
    /// Appends the non-null values of `rows`.
    static func append(_ values: ParquetColumnValues, rows: Range<Int>, into out: inout [UInt8]) {
        values.validity.withUnsafeBufferPointer { validity in
            let nullable = values.nullable
            if values.type != .string {
                values.words.withUnsafeBytes { words in
                    // Runs of non-null rows, copied whole.
                    var row = rows.lowerBound
                    while row < rows.upperBound {
                        if nullable && validity[row] == 0 {
                            row += 1
                            continue
                        }
                        var end = row + 1
                        if nullable {
                            while end < rows.upperBound && validity[end] != 0 { end += 1 }
                        } else {
                            end = rows.upperBound
                        }
                        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: words[row * 8..<end * 8]))
                        row = end
                    }
                }
                return
            }
            values.bytes.withUnsafeBytes { bytes in
                values.ends.withUnsafeBufferPointer { ends in
                    // Nulls hold no bytes: the page is 4 bytes a value plus the rows' bytes, written in place.
                    let first = rows.lowerBound == 0 ? 0 : ends[rows.lowerBound - 1]
                    let last = rows.isEmpty ? first : ends[rows.upperBound - 1]
                    var nulls = 0
                    if nullable { for row in rows where validity[row] == 0 { nulls += 1 } }
                    let size = 4 * (rows.count - nulls) + last - first
                    let base = out.count
                    out.append(contentsOf: repeatElement(0, count: size))
                    out.withUnsafeMutableBytes { target in
                        var at = base
                        var start = first
                        for row in rows {
                            let end = ends[row]
                            defer { start = end }
                            if nullable && validity[row] == 0 { continue }
                            target.storeBytes(of: UInt32(truncatingIfNeeded: end - start).littleEndian, toByteOffset: at, as: UInt32.self)
                            if end > start {
                                (target.baseAddress! + at + 4).copyMemory(from: bytes.baseAddress! + start, byteCount: end - start)
                            }
                            at += 4 + end - start
                        }
                    }
                }
            }
        }
    }

    /// Decodes `count` PLAIN values of `type` from `bytes` into `values` (as non-null rows); returns the
    /// number of bytes read.
    static func decode(_ bytes: UnsafeRawBufferPointer, type: ParquetType, count: Int, into values: inout ParquetColumnValues) throws -> Int {
        if type != .string {
            guard count <= bytes.count / 8 else { throw ParquetFormatError("PLAIN data holds fewer than its \(count) values") }
            values.appendWords(count: count) { words in
                UnsafeMutableRawBufferPointer(words).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<count * 8]))
            }
            return count * 8
        }
        // Check every length first, then copy with the room reserved.
        var position = 0
        for _ in 0..<count {
            guard bytes.count - position >= 4 else { throw ParquetFormatError("PLAIN data holds fewer than its \(count) values") }
            let length = Int(bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian)
            guard length <= bytes.count - position - 4 else { throw ParquetFormatError("PLAIN string of \(length) bytes past the page's end") }
            position += 4 + length
        }
        var at = values.bytes.count
        values.bytes.append(contentsOf: repeatElement(0, count: position - 4 * count))
        values.ends.reserveCapacity(values.ends.count + count)
        if values.nullable { values.validity.append(contentsOf: repeatElement(1, count: count)) }
        values.bytes.withUnsafeMutableBytes { out in
            var from = 0
            for _ in 0..<count {
                let length = Int(bytes.loadUnaligned(fromByteOffset: from, as: UInt32.self).littleEndian)
                if length > 0 { (out.baseAddress! + at).copyMemory(from: bytes.baseAddress! + from + 4, byteCount: length) }
                from += 4 + length
                at += length
                values.ends.append(at)
            }
        }
        return position
    }
}

/// Definition levels of an OPTIONAL column in a DATA_PAGE (v1): a 4-byte little-endian length, then the
/// levels (1 value, 0 null) RLE/bit-packed with bit width 1.
enum DefinitionLevels {
    /// Appends the levels of `rows` when the column is nullable; returns how many of them are not null.
    static func append(_ values: ParquetColumnValues, rows: Range<Int>, into out: inout [UInt8]) -> Int {
        guard values.nullable else { return rows.count }
        let lengthAt = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        var nonNull = 0
        values.validity.withUnsafeBufferPointer { validity in
            let levels = UnsafeBufferPointer(rebasing: validity[rows])
            for level in levels { nonNull &+= Int(level) }
            Hybrid.encode(levels, bitWidth: 1, into: &out)
        }
        let length = UInt32(out.count - lengthAt - 4)
        for k in 0..<4 { out[lengthAt + k] = UInt8(truncatingIfNeeded: length >> (8 * k)) }
        return nonNull
    }
}
