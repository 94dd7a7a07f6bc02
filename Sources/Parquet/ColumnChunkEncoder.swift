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
/// pages with RLE definition levels and RLE_DICTIONARY or `valueEncoding` values, each with statistics.
/// A chunk whose dictionary page and first data page the codec does not shrink by a tenth is stored
/// uncompressed (the chunk's codec is then UNCOMPRESSED): its encoding already took out what the codec
/// would (DELTA_BINARY_PACKED times, bit-packed indices), and a reader would only copy it through the
/// decompressor.
enum ColumnChunkEncoder {
    static let pageBytes = 1 << 20
    static let maxPageRows = 1 << 17

    /// Encodes `values`; `body` and `compressed` are scratch memory reused from column to column.
    static func encode(
        _ values: ColumnRuns, column: ParquetColumnSchema, compressor: PageCompressor, body: inout [UInt8], compressed: inout [UInt8]
    ) throws -> EncodedColumnChunk {
        // Built once, whether the chunk ends compressed or not.
        let dictionary = column.dictionary ? DictionaryBuilder.build(values) : nil
        if compressor.compression != .none,
           let chunk = try encodePages(
               values, column: column, dictionary: dictionary, compressor: compressor, body: &body, compressed: &compressed) {
            return chunk
        }
        // Without a compressor there is nothing to refuse: never nil.
        return try encodePages(values, column: column, dictionary: dictionary, compressor: nil, body: &body, compressed: &compressed)!
    }

    /// Encodes `values` (by `dictionary` when there is one), pages compressed by `compressor` (`nil`:
    /// uncompressed); `nil` when it shrinks the dictionary page and the first data page to more than
    /// nine tenths of their size.
    private static func encodePages(
        _ values: ColumnRuns, column: ParquetColumnSchema, dictionary: (dictionary: ParquetColumnValues, indices: [UInt32])?,
        compressor: PageCompressor?, body: inout [UInt8], compressed: inout [UInt8]
    ) throws -> EncodedColumnChunk? {
        var out: [UInt8] = []
        // Room for the PLAIN size (no copies as the chunk grows); pages not written are never touched.
        let stringBytes = values.type == .string ? values.runs.reduce(0) { $0 + $1.bytes.count } : 0
        out.reserveCapacity((values.type == .string ? 4 * values.count + stringBytes : 8 * values.count) + values.count / 4 + 4096)
        var meta = ColumnMeta()
        meta.type = (column.type == .double ? PhysicalType.double : column.type == .string ? .byteArray : .int64).rawValue
        meta.path = [column.name]
        meta.codec = (compressor?.codec ?? .uncompressed).rawValue
        meta.numValues = Int64(values.count)
        var uncompressed = 0
        body.removeAll(keepingCapacity: true)

        var dictionarySizes = (plain: 0, compressed: 0)
        if let dictionary {
            Plain.append(dictionary.dictionary, rows: 0..<dictionary.dictionary.count, into: &body)
            let size = try compress(body, compressor, scratch: &compressed)
            dictionarySizes = (body.count, size)
            let header = PageHeader.dictionaryPage(uncompressed: body.count, compressed: size, values: dictionary.dictionary.count)
            meta.dictionaryPageOffset = 0
            out.append(contentsOf: header)
            out.append(contentsOf: page(body, compressed, size: size, compressor))
            uncompressed += header.count + body.count
        }
        meta.dataPageOffset = Int64(out.count)
        var chunkStatistics = ValueStatistics()
        var start = 0
        var nextIndex = 0
        let valueEncoding = Self.valueEncoding(values.type)
        var words: [UInt64] = []
        let bitWidth = dictionary.map { max(1, Hybrid.bitWidth(UInt32(max(0, $0.dictionary.count - 1)))) } ?? 0
        repeat {
            let end = pageEnd(values, from: start)
            body.removeAll(keepingCapacity: true)
            let nonNull = definitionLevels(values, rows: start..<end, into: &body)
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
                var pageStatistics = ValueStatistics()
                values.forEachPart(of: start..<end) { run, rows in pageStatistics.merge(ValueStatistics(run, rows: rows)) }
                appendValues(values, rows: start..<end, encoding: valueEncoding, scratch: &words, into: &body)
                statistics = pageStatistics
            }
            let size = try compress(body, compressor, scratch: &compressed)
            if compressor != nil, start == 0, (dictionarySizes.compressed + size) * 10 > (dictionarySizes.plain + body.count) * 9 { return nil }
            let header = PageHeader.dataPage(
                uncompressed: body.count, compressed: size, values: end - start,
                encoding: dictionary == nil ? valueEncoding : Encoding.rleDictionary, statistics: statistics.thrift)
            out.append(contentsOf: header)
            out.append(contentsOf: page(body, compressed, size: size, compressor))
            uncompressed += header.count + body.count
            chunkStatistics.merge(statistics)
            start = end
        } while start < values.count
        meta.encodings = dictionary == nil ? [valueEncoding, Encoding.rle] : [Encoding.plain, Encoding.rle, Encoding.rleDictionary]
        meta.statistics = chunkStatistics.thrift
        meta.uncompressedSize = Int64(uncompressed)
        meta.compressedSize = Int64(out.count)
        return EncodedColumnChunk(bytes: out, meta: meta)
    }

    /// How values are written when not by a dictionary: integers and times DELTA_BINARY_PACKED (a time
    /// or id that counts up keeps a few bits of its 8 bytes), strings DELTA_BYTE_ARRAY (ids share
    /// their prefix with the one before), DOUBLEs PLAIN. Smaller pages to compress and to inflate.
    static func valueEncoding(_ type: ParquetType) -> Int32 {
        switch type {
        case .int64, .timestampMicros: Encoding.deltaBinaryPacked
        case .string: Encoding.deltaByteArray
        case .double: Encoding.plain
        }
    }

    /// Appends the non-null values of `rows` in `encoding`; `words` is scratch memory (integers, string lengths).
    private static func appendValues(_ values: ColumnRuns, rows: Range<Int>, encoding: Int32, scratch words: inout [UInt64], into body: inout [UInt8]) {
        switch encoding {
        case Encoding.deltaBinaryPacked:
            words.removeAll(keepingCapacity: true)
            values.forEachPart(of: rows) { run, part in
                if run.nullable {
                    for row in part where run.validity[row] != 0 { words.append(run.words[row]) }
                } else {
                    words.append(contentsOf: run.words[part])
                }
            }
            words.withUnsafeBufferPointer { DeltaBinaryPacked.append($0, into: &body) }
        case Encoding.deltaByteArray:
            DeltaByteArray.append(values, rows: rows, scratch: &words, into: &body)
        default:
            values.forEachPart(of: rows) { run, part in Plain.append(run, rows: part, into: &body) }
        }
    }

    /// Compresses `body` into `scratch`; returns the compressed size: the page is `scratch[..<size]`,
    /// or `body` itself without a compressor (`page`).
    private static func compress(_ body: [UInt8], _ compressor: PageCompressor?, scratch: inout [UInt8]) throws -> Int {
        // Page sizes are i32 in the header: a string of 2 GiB or more cannot be written.
        guard body.count <= Int32.max else { throw ParquetFormatError("a page of \(body.count) bytes: pages must stay under 2 GiB") }
        guard let compressor else { return body.count }
        let size = try compressor.compress(body, reusing: &scratch)
        guard size <= Int32.max else { throw ParquetFormatError("a page of \(size) bytes: pages must stay under 2 GiB") }
        return size
    }

    /// The page's bytes after `compress`.
    private static func page(_ body: [UInt8], _ compressed: [UInt8], size: Int, _ compressor: PageCompressor?) -> ArraySlice<UInt8> {
        compressor == nil ? body[...] : compressed[..<size]
    }

    /// Appends the definition levels of `rows` (`DefinitionLevels`), their runs' validity gathered
    /// when the rows span runs; returns how many of them are not null.
    private static func definitionLevels(_ values: ColumnRuns, rows: Range<Int>, into body: inout [UInt8]) -> Int {
        guard values.nullable else { return rows.count }
        var parts: [(ParquetColumnValues, Range<Int>)] = []
        values.forEachPart(of: rows) { parts.append(($0, $1)) }
        if parts.count == 1 { return DefinitionLevels.append(parts[0].0, rows: parts[0].1, into: &body) }
        var joined = ParquetColumnValues(type: values.type, nullable: true)
        for (run, rows) in parts { joined.validity.append(contentsOf: run.validity[rows]) }
        return DefinitionLevels.append(joined, rows: 0..<rows.count, into: &body)
    }

    /// Where the page that starts at `start` ends: 1 MiB of PLAIN values or `maxPageRows` rows. For
    /// strings, the first row whose 4 + bytes take the page to `pageBytes` or more ends it (that row
    /// included), found by bisection in each run (the size grows with every row).
    static func pageEnd(_ values: ColumnRuns, from start: Int) -> Int {
        let count = values.count
        guard values.type == .string else { return min(count, start + min(maxPageRows, pageBytes / 8)) }
        var end = start
        var size = 0
        values.forEachPart(of: start..<count) { run, rows in
            guard size < pageBytes, end - start < maxPageRows else { return }
            run.ends.withUnsafeBufferPointer { ends in
                let previous = rows.lowerBound == 0 ? 0 : ends[rows.lowerBound - 1]
                // The size of the first k rows of the part.
                func sized(_ k: Int) -> Int { 4 * k + ends[rows.lowerBound + k - 1] - previous }
                let cap = min(rows.count, maxPageRows - (end - start))
                var k = cap
                if size + sized(cap) >= pageBytes {
                    // The least k whose rows take the page to pageBytes.
                    var low = 1
                    while low < k {
                        let middle = (low + k) / 2
                        if size + sized(middle) >= pageBytes { k = middle } else { low = middle + 1 }
                    }
                }
                size += sized(k)
                end += k
            }
        }
        return end
    }
}
