/// PageHeader with its DATA_PAGE, DICTIONARY_PAGE and DATA_PAGE_V2 headers.
struct PageHeader: Equatable {
    var type: Int32 = 0
    var uncompressedSize: Int32 = 0
    var compressedSize: Int32 = 0
    var numValues: Int32 = 0
    var encoding: Int32 = 0
    var statistics: Statistics?
    /// DATA_PAGE_V2 only.
    var numNulls: Int32 = 0
    var definitionLevelsLength: Int32 = 0
    var repetitionLevelsLength: Int32 = 0
    var isCompressed = true

    /// A DATA_PAGE (v1) header; levels are RLE-encoded.
    static func dataPage(uncompressed: Int, compressed: Int, values: Int, encoding: Int32, statistics: Statistics) -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, PageType.dataPage.rawValue)
        w.i32(2, Int32(uncompressed))
        w.i32(3, Int32(compressed))
        w.structure(5) { w in
            w.i32(1, Int32(values))
            w.i32(2, encoding)
            w.i32(3, Encoding.rle)
            w.i32(4, Encoding.rle)
            w.structure(5) { statistics.write(&$0) }
        }
        return w.finish()
    }

    /// A DICTIONARY_PAGE header; entries are PLAIN.
    static func dictionaryPage(uncompressed: Int, compressed: Int, values: Int) -> [UInt8] {
        var w = ThriftWriter()
        w.i32(1, PageType.dictionaryPage.rawValue)
        w.i32(2, Int32(uncompressed))
        w.i32(3, Int32(compressed))
        w.structure(7) { w in
            w.i32(1, Int32(values))
            w.i32(2, Encoding.plain)
        }
        return w.finish()
    }

    static func read(_ r: inout ThriftReader) throws -> PageHeader {
        var h = PageHeader()
        var sawType = false, sawSizes = 0
        try r.readStruct { r, id, type in
            switch (id, type) {
            case (1, .i32): h.type = try r.i32(); sawType = true
            case (2, .i32): h.uncompressedSize = try r.i32(); sawSizes += 1
            case (3, .i32): h.compressedSize = try r.i32(); sawSizes += 1
            case (5, .structure):
                try r.readStruct { r, id, type in
                    switch (id, type) {
                    case (1, .i32): h.numValues = try r.i32()
                    case (2, .i32): h.encoding = try r.i32()
                    case (5, .structure): h.statistics = try Statistics.read(&r)
                    default: return false
                    }
                    return true
                }
            case (7, .structure):
                try r.readStruct { r, id, type in
                    switch (id, type) {
                    case (1, .i32): h.numValues = try r.i32()
                    case (2, .i32): h.encoding = try r.i32()
                    default: return false
                    }
                    return true
                }
            case (8, .structure):
                try r.readStruct { r, id, type in
                    switch (id, type) {
                    case (1, .i32): h.numValues = try r.i32()
                    case (2, .i32): h.numNulls = try r.i32()
                    case (4, .i32): h.encoding = try r.i32()
                    case (5, .i32): h.definitionLevelsLength = try r.i32()
                    case (6, .i32): h.repetitionLevelsLength = try r.i32()
                    case (7, _): h.isCompressed = try ThriftReader.bool(type)
                    case (8, .structure): h.statistics = try Statistics.read(&r)
                    default: return false
                    }
                    return true
                }
            default: return false
            }
            return true
        }
        guard sawType, sawSizes == 2 else { throw ParquetFormatError("page header without type or sizes") }
        guard h.uncompressedSize >= 0, h.compressedSize >= 0, h.numValues >= 0, h.numNulls >= 0,
              h.definitionLevelsLength >= 0, h.repetitionLevelsLength >= 0
        else { throw ParquetFormatError("page header with a negative size or count") }
        return h
    }
}
