/// Decodes one column chunk's pages (untrusted bytes) into values: an optional dictionary page, then
/// DATA_PAGE (v1) and DATA_PAGE_V2 pages, PLAIN or dictionary-encoded, with definition levels when nullable.
struct ColumnChunkDecoder {
    /// The most values a page may declare for each of its bytes (header and compressed body): a page of
    /// all-equal RLE runs is small, but not smaller than this, so that a few hostile bytes cannot ask for
    /// gigabytes. This module's writer stays under 5,000; pyarrow's pages of 20,000 rows under 1,000.
    static let maxValuesPerPageByte = 8192

    let column: ParquetColumnSchema
    let codec: Codec
    let rows: Int
    private(set) var values: ParquetColumnValues
    /// Where the page being read starts, from the chunk's first byte.
    private(set) var position = 0
    private var dictionary: ParquetColumnValues?

    init(column: ParquetColumnSchema, codec: Codec, rows: Int) {
        self.column = column
        self.codec = codec
        self.rows = rows
        values = ParquetColumnValues(type: column.type, nullable: column.nullable)
    }

    mutating func decode(_ chunk: UnsafeRawBufferPointer) throws {
        while values.count < rows {
            guard position < chunk.count else { throw ParquetFormatError("the chunk ends after \(values.count) of \(rows) values") }
            var reader = ThriftReader(chunk, at: position)
            let header = try PageHeader.read(&reader)
            let bodyStart = reader.position
            guard Int(header.compressedSize) <= chunk.count - bodyStart else {
                throw ParquetFormatError("page of \(header.compressedSize) bytes past the chunk's end")
            }
            let body = UnsafeRawBufferPointer(rebasing: chunk[bodyStart..<bodyStart + Int(header.compressedSize)])
            let pageBytes = bodyStart - position + body.count
            guard Int(header.numValues) <= pageBytes * Self.maxValuesPerPageByte else {
                throw ParquetFormatError("page of \(pageBytes) bytes declares \(header.numValues) values")
            }
            switch PageType(rawValue: header.type) {
            case .dictionaryPage?: try readDictionary(header, body)
            case .dataPage?: try readDataPage(header, body)
            case .dataPageV2?: try readDataPageV2(header, body)
            default: break  // index pages and unknown pages are skipped
            }
            position = bodyStart + body.count
        }
    }

    private mutating func readDictionary(_ header: PageHeader, _ body: UnsafeRawBufferPointer) throws {
        guard dictionary == nil, values.count == 0 else { throw ParquetFormatError("a second dictionary page, or one after data pages") }
        guard header.encoding == Encoding.plain || header.encoding == Encoding.plainDictionary else {
            throw ParquetFormatError("dictionary page encoding \(header.encoding) is not supported")
        }
        let data = try PageDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
        var entries = ParquetColumnValues(type: column.type)
        _ = try data.withUnsafeBytes { try Plain.decode($0, type: column.type, count: Int(header.numValues), into: &entries) }
        dictionary = entries
    }

    private mutating func readDataPage(_ header: PageHeader, _ body: UnsafeRawBufferPointer) throws {
        let count = try pageValues(header)
        let data = try PageDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
        try data.withUnsafeBytes { page in
            var levels: [UInt32]?
            var offset = 0
            if column.nullable {
                guard page.count >= 4 else { throw ParquetFormatError("definition levels truncated") }
                let length = Int(page.loadUnaligned(as: UInt32.self).littleEndian)
                guard length <= page.count - 4 else { throw ParquetFormatError("definition levels of \(length) bytes past the page's end") }
                levels = try Hybrid.decode(UnsafeRawBufferPointer(rebasing: page[4..<4 + length]), bitWidth: 1, count: count)
                offset = 4 + length
            }
            try appendValues(UnsafeRawBufferPointer(rebasing: page[offset...]), encoding: header.encoding, count: count, levels: levels)
        }
    }

    private mutating func readDataPageV2(_ header: PageHeader, _ body: UnsafeRawBufferPointer) throws {
        let count = try pageValues(header)
        let repetition = Int(header.repetitionLevelsLength), definition = Int(header.definitionLevelsLength)
        guard repetition == 0 else { throw ParquetFormatError("repetition levels in a flat column") }
        guard definition <= body.count, definition <= Int(header.uncompressedSize) else {
            throw ParquetFormatError("definition levels of \(definition) bytes past the page's end")
        }
        var levels: [UInt32]?
        if column.nullable {
            levels = try Hybrid.decode(UnsafeRawBufferPointer(rebasing: body[0..<definition]), bitWidth: 1, count: count)
            let nulls = levels!.reduce(0) { $0 + Int(1 - $1) }
            guard nulls == Int(header.numNulls) else { throw ParquetFormatError("page says \(header.numNulls) nulls, its levels \(nulls)") }
        } else if header.numNulls != 0 {
            throw ParquetFormatError("\(header.numNulls) nulls in a required column")
        }
        let rest = UnsafeRawBufferPointer(rebasing: body[definition...])
        let size = Int(header.uncompressedSize) - definition
        let data = header.isCompressed ? try PageDecompressor.decompress(rest, codec: codec, size: size) : try PageDecompressor.decompress(rest, codec: .uncompressed, size: size)
        try data.withUnsafeBytes { try appendValues($0, encoding: header.encoding, count: count, levels: levels) }
    }

    /// The page's value count, checked against the rows still expected.
    private func pageValues(_ header: PageHeader) throws -> Int {
        let count = Int(header.numValues)
        guard count <= rows - values.count else { throw ParquetFormatError("page of \(count) values past the chunk's \(rows)") }
        return count
    }

    /// Decodes the page's non-null values and appends every row, placing nulls where `levels` has 0.
    private mutating func appendValues(_ data: UnsafeRawBufferPointer, encoding: Int32, count: Int, levels: [UInt32]?) throws {
        let nonNull = levels.map { $0.reduce(0) { $0 + Int($1) } } ?? count
        var page = ParquetColumnValues(type: column.type)
        switch encoding {
        case Encoding.plain:
            _ = try Plain.decode(data, type: column.type, count: nonNull, into: &page)
        case Encoding.plainDictionary, Encoding.rleDictionary:
            guard let dictionary else { throw ParquetFormatError("dictionary-encoded page without a dictionary page") }
            guard !data.isEmpty || nonNull == 0 else { throw ParquetFormatError("dictionary indices missing") }
            if nonNull > 0 {
                let indices = try Hybrid.decode(UnsafeRawBufferPointer(rebasing: data[1...]), bitWidth: Int(data[0]), count: nonNull)
                page = try dictionary.gather(indices)
            }
        default:
            throw ParquetFormatError("encoding \(encoding) is not supported")
        }
        guard let levels, nonNull < count else {
            values.appendNonNull(page)
            return
        }
        var next = 0
        for level in levels {
            if level == 0 {
                values.appendNull()
            } else {
                values.appendRow(of: page, next)
                next += 1
            }
        }
    }
}

extension ParquetColumnValues {
    /// The entries at `indices` of this (non-null) dictionary, as non-null values.
    func gather(_ indices: [UInt32]) throws -> ParquetColumnValues {
        var result = ParquetColumnValues(type: type, reservingCapacity: indices.count)
        let count = self.count
        for index in indices where Int(index) >= count {
            throw ParquetFormatError("dictionary index \(index) out of range (dictionary of \(count))")
        }
        if type == .string {
            for index in indices { result.appendRow(of: self, Int(index)) }
        } else {
            words.withUnsafeBufferPointer { words in
                result.words = indices.map { words[Int($0)] }
            }
        }
        return result
    }

    /// Appends every row of `other`, a column of the same type without nulls.
    mutating func appendNonNull(_ other: ParquetColumnValues) {
        if type == .string {
            let base = bytes.count
            bytes.append(contentsOf: other.bytes)
            ends.reserveCapacity(ends.count + other.ends.count)
            for end in other.ends { ends.append(base + end) }
        } else {
            words.append(contentsOf: other.words)
        }
        if nullable { validity.append(contentsOf: repeatElement(1, count: other.count)) }
    }

    /// Appends row `row` of `other` (same type), which is not null.
    mutating func appendRow(of other: ParquetColumnValues, _ row: Int) {
        if type == .string {
            other.withUTF8(row) { append(utf8: $0) }
        } else {
            words.append(other.words[row])
            if nullable { validity.append(1) }
        }
    }
}
