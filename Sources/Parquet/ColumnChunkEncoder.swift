/// One column chunk, encoded and compressed: its pages back to back and its metadata, whose page
/// offsets count from the chunk's first byte until the writer places it in the file.
struct EncodedColumnChunk: Sendable {
    var bytes: [UInt8]
    var meta: ColumnMeta
    /// Headers plus uncompressed page bodies (RowGroup.total_byte_size adds these).
    var uncompressedSize: Int { Int(meta.uncompressedSize) }
}

/// Splits a column's values into data pages of about 1 MiB (PLAIN size) and encodes them: a dictionary
/// page first when the column asks for one and its dictionary stays within 1 MiB, then DATA_PAGE (v1)
/// pages with RLE definition levels and PLAIN or RLE_DICTIONARY values, each with statistics.
enum ColumnChunkEncoder {
    static let pageBytes = 1 << 20
    static let maxPageRows = 1 << 17

    static func encode(_ values: ParquetColumnValues, column: ParquetColumnSchema, compressor: PageCompressor) throws -> EncodedColumnChunk {
        var out: [UInt8] = []
        // Room for the PLAIN size (no copies as the chunk grows); pages not written are never touched.
        out.reserveCapacity((values.type == .string ? 4 * values.count + values.bytes.count : 8 * values.count) + values.count / 4 + 4096)
        var meta = ColumnMeta()
        meta.type = (column.type == .double ? PhysicalType.double : column.type == .string ? .byteArray : .int64).rawValue
        meta.path = [column.name]
        meta.codec = compressor.codec.rawValue
        meta.numValues = Int64(values.count)
        var uncompressed = 0
        var body: [UInt8] = []
        var compressed: [UInt8] = []

        let dictionary = column.dictionary ? DictionaryBuilder.build(values) : nil
        if let dictionary {
            Plain.append(dictionary.dictionary, rows: 0..<dictionary.dictionary.count, into: &body)
            let page = try compress(body, compressor, scratch: &compressed)
            let header = PageHeader.dictionaryPage(uncompressed: body.count, compressed: page.count, values: dictionary.dictionary.count)
            meta.dictionaryPageOffset = 0
            out.append(contentsOf: header)
            out.append(contentsOf: page)
            uncompressed += header.count + body.count
        }
        meta.dataPageOffset = Int64(out.count)
        var chunkStatistics = ValueStatistics()
        var start = 0
        var nextIndex = 0
        let bitWidth = dictionary.map { max(1, Hybrid.bitWidth(UInt32(max(0, $0.dictionary.count - 1)))) } ?? 0
        repeat {
            let end = pageEnd(values, from: start)
            body.removeAll(keepingCapacity: true)
            let nonNull = DefinitionLevels.append(values, rows: start..<end, into: &body)
            let statistics: ValueStatistics
            if let dictionary {
                let indices = nextIndex..<nextIndex + nonNull
                nextIndex += nonNull
                body.append(UInt8(bitWidth))
                dictionary.indices.withUnsafeBufferPointer { Hybrid.encode(UnsafeBufferPointer(rebasing: $0[indices]), bitWidth: bitWidth, into: &body) }
                var used = [Bool](repeating: false, count: dictionary.dictionary.count)
                for index in dictionary.indices[indices] { used[Int(index)] = true }
                statistics = ValueStatistics(dictionary: dictionary.dictionary, used: used, nullCount: end - start - nonNull)
            } else {
                Plain.append(values, rows: start..<end, into: &body)
                statistics = ValueStatistics(values, rows: start..<end)
            }
            let page = try compress(body, compressor, scratch: &compressed)
            let header = PageHeader.dataPage(
                uncompressed: body.count, compressed: page.count, values: end - start,
                encoding: dictionary == nil ? Encoding.plain : Encoding.rleDictionary, statistics: statistics.thrift)
            out.append(contentsOf: header)
            out.append(contentsOf: page)
            uncompressed += header.count + body.count
            chunkStatistics.merge(statistics)
            start = end
        } while start < values.count
        meta.encodings = dictionary == nil ? [Encoding.plain, Encoding.rle] : [Encoding.plain, Encoding.rle, Encoding.rleDictionary]
        meta.statistics = chunkStatistics.thrift
        meta.uncompressedSize = Int64(uncompressed)
        meta.compressedSize = Int64(out.count)
        return EncodedColumnChunk(bytes: out, meta: meta)
    }

    /// The page body compressed, or the body itself without compression.
    private static func compress(_ body: [UInt8], _ compressor: PageCompressor, scratch: inout [UInt8]) throws -> [UInt8] {
        // Page sizes are i32 in the header: a string of 2 GiB or more cannot be written.
        guard body.count <= Int32.max else { throw ParquetFormatError("a page of \(body.count) bytes: pages must stay under 2 GiB") }
        guard compressor.compression != .none else { return body }
        try compressor.compress(body, into: &scratch)
        guard scratch.count <= Int32.max else { throw ParquetFormatError("a page of \(scratch.count) bytes: pages must stay under 2 GiB") }
        return scratch
    }

    /// Where the page that starts at `start` ends: 1 MiB of PLAIN values or `maxPageRows` rows.
    static func pageEnd(_ values: ParquetColumnValues, from start: Int) -> Int {
        let count = values.count
        guard values.type == .string else { return min(count, start + min(maxPageRows, pageBytes / 8)) }
        var end = start
        var size = 0
        values.ends.withUnsafeBufferPointer { ends in
            var previous = start == 0 ? 0 : ends[start - 1]
            while end < count && size < pageBytes && end - start < maxPageRows {
                size += 4 + ends[end] - previous
                previous = ends[end]
                end += 1
            }
        }
        return end
    }
}
