/// Decodes one column chunk's pages (untrusted bytes) into values: an optional dictionary page, then
/// DATA_PAGE (v1) and DATA_PAGE_V2 pages, PLAIN, DELTA_BINARY_PACKED (integers), DELTA_BYTE_ARRAY or
/// DELTA_LENGTH_BYTE_ARRAY (strings) or dictionary-encoded, with definition levels when nullable.
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
    /// Whether dictionary-encoded pages stay encoded (a column that is not nullable, when asked).
    private let keepsIndices: Bool
    /// While every data page so far was dictionary-encoded (and `keepsIndices`): each row's entry.
    private(set) var indices: [UInt32]
    /// The rows decoded so far.
    private var decoded: Int { values.count + indices.count }

    /// A decoder whose values start empty; with `keepingIndices`, a chunk of a column that is not
    /// nullable whose data pages are all dictionary-encoded is left encoded: `values` ends as the
    /// dictionary's entries and `indices` as each row's entry (see `ParquetFileReader.read(rowGroup:column:into:indices:)`).
    init(column: ParquetColumnSchema, codec: Codec, rows: Int, keepingIndices: Bool = false) {
        self.column = column
        self.codec = codec
        self.rows = rows
        keepsIndices = keepingIndices && !column.nullable
        indices = []
        values = ParquetColumnValues(type: column.type, nullable: column.nullable)
    }

    /// Decodes into the memory of `storage` and `reusedIndices` (emptied and made of this column's type;
    /// swapped in, so never copied): a reader of many chunks, of any types, then touches its pages
    /// once, not afresh for each. `takeValues`/`takeIndices` hand it back.
    mutating func reuse(_ storage: inout ParquetColumnValues, indices reusedIndices: inout [UInt32]) {
        swap(&values, &storage)
        values.reset(type: column.type, nullable: column.nullable)
        swap(&indices, &reusedIndices)
        indices.removeAll(keepingCapacity: true)
    }

    /// The decoded values, leaving the decoder empty.
    mutating func takeValues() -> ParquetColumnValues {
        var taken = ParquetColumnValues(type: column.type, nullable: column.nullable)
        swap(&taken, &values)
        return taken
    }

    /// The dictionary indices of the rows (empty unless the chunk was left encoded), leaving the decoder without them.
    mutating func takeIndices() -> [UInt32] {
        var taken: [UInt32] = []
        swap(&taken, &indices)
        return taken
    }

    /// Room for the chunk's rows, as far as its size can justify them (64 rows a byte; past that the arrays grow).
    mutating func reserve(chunkBytes: Int) {
        let rows = min(self.rows, chunkBytes * 64)
        if column.type == .string { values.ends.reserveCapacity(rows) } else { values.words.reserveCapacity(rows) }
        if column.nullable { values.validity.reserveCapacity(rows) }
    }

    mutating func decode(_ chunk: UnsafeRawBufferPointer) throws {
        reserve(chunkBytes: chunk.count)
        while decoded < rows {
            guard position < chunk.count else { throw ParquetFormatError("the chunk ends after \(decoded) of \(rows) values") }
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
        if !indices.isEmpty, let dictionary { values = dictionary }
    }

    private mutating func readDictionary(_ header: PageHeader, _ body: UnsafeRawBufferPointer) throws {
        guard dictionary == nil, decoded == 0 else { throw ParquetFormatError("a second dictionary page, or one after data pages") }
        guard header.encoding == Encoding.plain || header.encoding == Encoding.plainDictionary else {
            throw ParquetFormatError("dictionary page encoding \(Encoding.name(header.encoding)) is not supported")
        }
        var entries = ParquetColumnValues(type: column.type)
        try Self.withPageData(body, codec: codec, size: Int(header.uncompressedSize)) {
            _ = try Plain.decode($0, type: column.type, count: Int(header.numValues), into: &entries)
        }
        dictionary = entries
    }

    private mutating func readDataPage(_ header: PageHeader, _ body: UnsafeRawBufferPointer) throws {
        let count = try pageValues(header)
        try Self.withPageData(body, codec: codec, size: Int(header.uncompressedSize)) { page in
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
        try Self.withPageData(rest, codec: header.isCompressed ? codec : .uncompressed, size: size) {
            try appendValues($0, encoding: header.encoding, count: count, levels: levels)
        }
    }

    /// Calls `body` with the page's bytes: the page itself when uncompressed, else decompressed.
    private static func withPageData(_ page: UnsafeRawBufferPointer, codec: Codec, size: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard codec != .uncompressed else {
            guard page.count == size else { throw ParquetFormatError("uncompressed page of \(page.count) bytes, header says \(size)") }
            return try body(page)
        }
        try PageDecompressor.decompress(page, codec: codec, size: size).withUnsafeBytes { try body($0) }
    }

    /// The page's value count, checked against the rows still expected.
    private func pageValues(_ header: PageHeader) throws -> Int {
        let count = Int(header.numValues)
        guard count <= rows - decoded else { throw ParquetFormatError("page of \(count) values past the chunk's \(rows)") }
        return count
    }

    /// Decodes the page's non-null values and appends every row, placing nulls where `levels` has 0.
    private mutating func appendValues(_ data: UnsafeRawBufferPointer, encoding: Int32, count: Int, levels: [UInt32]?) throws {
        let dictionaryEncoded = encoding == Encoding.plainDictionary || encoding == Encoding.rleDictionary
        if keepsIndices, dictionaryEncoded, values.count == 0, let dictionary {
            // Still every page dictionary-encoded: its indices are kept as they are.
            indices.append(contentsOf: try Self.indices(data, count: count, dictionarySize: dictionary.count))
            return
        }
        if !indices.isEmpty, let dictionary {
            // A page of another encoding after dictionary-encoded ones: the rows so far are gathered.
            dictionary.gather(indices, into: &values)
            indices.removeAll(keepingCapacity: true)
        }
        let nonNull = levels.map { $0.reduce(0) { $0 + Int($1) } } ?? count
        guard let levels, nonNull < count else {
            // No nulls: the values go straight to the column.
            try Self.decode(data, encoding: encoding, count: nonNull, type: column.type, dictionary: dictionary, into: &values)
            return
        }
        var page = ParquetColumnValues(type: column.type)
        try Self.decode(data, encoding: encoding, count: nonNull, type: column.type, dictionary: dictionary, into: &page)
        values.appendScattered(page, levels: levels)
    }

    /// Appends `count` values of a page's data, in its encoding, as non-null rows.
    /// Static, not a method: a method called with `&values` would copy `self`, and with it a second
    /// reference to the storage of `values`, so that every append copied the whole column.
    private static func decode(
        _ data: UnsafeRawBufferPointer, encoding: Int32, count: Int, type: ParquetType, dictionary: ParquetColumnValues?,
        into target: inout ParquetColumnValues
    ) throws {
        switch encoding {
        case Encoding.plain:
            _ = try Plain.decode(data, type: type, count: count, into: &target)
        case Encoding.deltaBinaryPacked where type != .string && type != .double:
            _ = try DeltaBinaryPacked.decode(data, count: count, into: &target.words)
            if target.nullable { target.validity.append(contentsOf: repeatElement(1, count: count)) }
        case Encoding.deltaByteArray where type == .string:
            try DeltaByteArray.decode(data, count: count, into: &target)
        case Encoding.deltaLengthByteArray where type == .string:
            try DeltaByteArray.decodeLengths(data, count: count, into: &target)
        case Encoding.plainDictionary, Encoding.rleDictionary:
            guard let dictionary else { throw ParquetFormatError("dictionary-encoded page without a dictionary page") }
            try dictionary.gather(Self.indices(data, count: count, dictionarySize: dictionary.count), into: &target)
        default:
            throw ParquetFormatError("encoding \(Encoding.name(encoding)) is not supported for \(type) values")
        }
    }
}

extension ColumnChunkDecoder {
    /// The `count` dictionary indices of a page's data (bit width, then RLE/bit-packed runs), each checked to
    /// lie within a dictionary of `dictionarySize` entries.
    static func indices(_ data: UnsafeRawBufferPointer, count: Int, dictionarySize: Int) throws -> [UInt32] {
        guard count > 0 else { return [] }
        guard !data.isEmpty else { throw ParquetFormatError("dictionary indices missing") }
        let indices = try Hybrid.decode(UnsafeRawBufferPointer(rebasing: data[1...]), bitWidth: Int(data[0]), count: count)
        // The largest first (a loop the compiler vectorizes), the culprit only when there is one.
        if let largest = indices.max(), Int(largest) >= dictionarySize, let index = indices.first(where: { Int($0) >= dictionarySize }) {
            throw ParquetFormatError("dictionary index \(index) out of range (dictionary of \(dictionarySize))")
        }
        return indices
    }
}

extension ParquetColumnValues {
    /// Appends the entries at `indices` (checked to lie within this non-null dictionary) to `target` as non-null rows.
    func gather(_ indices: [UInt32], into target: inout ParquetColumnValues) {
        if target.nullable { target.validity.append(contentsOf: repeatElement(1, count: indices.count)) }
        guard type == .string else {
            let old = target.words.count
            target.words.append(contentsOf: repeatElement(0, count: indices.count))
            words.withUnsafeBufferPointer { words in
                target.words.withUnsafeMutableBufferPointer { out in
                    for (i, index) in indices.enumerated() { out[old + i] = words[Int(index)] }
                }
            }
            return
        }
        // Through buffer pointers (the indices are checked above): appending row by row to the
        // arrays checked their capacity and uniqueness for every row.
        let oldRows = target.ends.count, oldBytes = target.bytes.count
        var total = 0
        ends.withUnsafeBufferPointer { ends in
            for index in indices {
                let i = Int(index)
                total += ends[i] - (i == 0 ? 0 : ends[i - 1])
            }
        }
        target.bytes.append(contentsOf: repeatElement(0, count: total))
        target.ends.append(contentsOf: repeatElement(0, count: indices.count))
        bytes.withUnsafeBufferPointer { source in
            ends.withUnsafeBufferPointer { ends in
                target.bytes.withUnsafeMutableBufferPointer { out in
                    target.ends.withUnsafeMutableBufferPointer { outEnds in
                        var at = oldBytes
                        for (row, index) in indices.enumerated() {
                            let i = Int(index)
                            let start = i == 0 ? 0 : ends[i - 1], length = ends[i] - start
                            if length > 0 { (out.baseAddress! + at).update(from: source.baseAddress! + start, count: length) }
                            at += length
                            outEnds[oldRows + row] = at
                        }
                    }
                }
            }
        }
    }

    /// Appends a row a level: the next row of `other` (same type, no nulls) where the level is 1, a null where it is 0.
    mutating func appendScattered(_ other: ParquetColumnValues, levels: [UInt32]) {
        validity.reserveCapacity(validity.count + levels.count)
        if type == .string {
            bytes.append(contentsOf: other.bytes)
            let base = bytes.count - other.bytes.count
            ends.reserveCapacity(ends.count + levels.count)
            var next = 0
            for level in levels {
                if level != 0 { next += 1 }
                ends.append(base + (next == 0 ? 0 : other.ends[next - 1]))
                validity.append(UInt8(level))
            }
        } else {
            words.reserveCapacity(words.count + levels.count)
            var next = 0
            for level in levels {
                words.append(level != 0 ? other.words[next] : 0)
                next += Int(level)
                validity.append(UInt8(level))
            }
        }
        nullCount += levels.count - other.count
    }
}
