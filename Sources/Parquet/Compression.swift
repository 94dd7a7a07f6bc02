import CZlib
import CZstd

/// Compresses pages with one codec, reusing its context from page to page.
final class PageCompressor {
    let compression: ParquetCompression
    private var zstd: OpaquePointer?
    /// zstd level 1: the fastest of the standard levels.
    static let zstdLevel: Int32 = 1
    /// zlib level 1: gzip is the compatibility codec, speed before size.
    static let gzipLevel: Int32 = 1

    init(_ compression: ParquetCompression) {
        self.compression = compression
        if compression == .zstd { zstd = ZSTD_createCCtx() }
    }

    deinit { if let zstd { ZSTD_freeCCtx(zstd) } }

    var codec: Codec {
        switch compression {
        case .none: .uncompressed
        case .gzip: .gzip
        case .zstd: .zstd
        }
    }

    /// Replaces `output` with `input` compressed.
    func compress(_ input: [UInt8], into output: inout [UInt8]) throws {
        output.removeAll(keepingCapacity: true)
        switch compression {
        case .none:
            output.append(contentsOf: input)
        case .zstd:
            let bound = ZSTD_compressBound(input.count)
            var size = 0
            output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
                size = input.withUnsafeBytes { ZSTD_compressCCtx(zstd, buffer.baseAddress, bound, $0.baseAddress, $0.count, Self.zstdLevel) }
                count = ZSTD_isError(size) != 0 ? 0 : size
            }
            guard ZSTD_isError(size) == 0 else { throw ParquetFormatError("zstd: \(String(cString: ZSTD_getErrorName(size)))") }
        case .gzip:
            try Self.gzip(input, into: &output)
        }
    }

    private static func gzip(_ input: [UInt8], into output: inout [UInt8]) throws {
        var stream = z_stream()
        guard deflateInit2_(&stream, gzipLevel, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ParquetFormatError("gzip: deflateInit2 failed")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(input.count)))
        var status: Int32 = Z_OK
        output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            input.withUnsafeBytes { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: UInt8.self).baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(bound)
                status = deflate(&stream, Z_FINISH)
            }
            count = status == Z_STREAM_END ? bound - Int(stream.avail_out) : 0
        }
        guard status == Z_STREAM_END else { throw ParquetFormatError("gzip: deflate failed (\(status))") }
    }
}

/// Decompresses one page of untrusted bytes into exactly `size` bytes, never writing or allocating more.
enum PageDecompressor {
    static func decompress(_ input: UnsafeRawBufferPointer, codec: Codec, size: Int) throws -> [UInt8] {
        switch codec {
        case .uncompressed:
            guard input.count == size else { throw ParquetFormatError("uncompressed page of \(input.count) bytes, header says \(size)") }
            return Array(input)
        case .zstd: return try zstd(input, size: size)
        case .gzip: return try gzip(input, size: size)
        default: throw ParquetFormatError("unsupported codec \(codec.name)")
        }
    }

    /// Streams into a buffer that grows as output comes (so a lying header costs no memory), up to `size`.
    private static func zstd(_ input: UnsafeRawBufferPointer, size: Int) throws -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw ParquetFormatError("zstd: out of memory") }
        defer { ZSTD_freeDStream(stream) }
        var output: [UInt8] = []
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var chunk = [UInt8](repeating: 0, count: min(size, 1 << 17) + 1)
        while true {
            let consumed = inBuffer.pos
            let (result, produced) = chunk.withUnsafeMutableBytes { out -> (Int, Int) in
                var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                let r = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                return (r, outBuffer.pos)
            }
            guard ZSTD_isError(result) == 0 else { throw ParquetFormatError("zstd: \(String(cString: ZSTD_getErrorName(result)))") }
            guard output.count + produced <= size else { throw ParquetFormatError("zstd page decompresses past the \(size) bytes its header says") }
            output.append(contentsOf: chunk[0..<produced])
            if result == 0 && inBuffer.pos == inBuffer.size { break }
            if produced == 0 && (inBuffer.pos == inBuffer.size || inBuffer.pos == consumed) { throw ParquetFormatError("zstd page truncated") }
        }
        guard output.count == size else { throw ParquetFormatError("zstd page decompresses to \(output.count) bytes, header says \(size)") }
        return output
    }

    private static func gzip(_ input: UnsafeRawBufferPointer, size: Int) throws -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: zlib or gzip header, detected.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ParquetFormatError("gzip: inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(size, 1 << 17) + 1)
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
        stream.avail_in = UInt32(input.count)
        while true {
            let (status, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let s = inflate(&stream, Z_NO_FLUSH)
                return (s, out.count - Int(stream.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
                throw ParquetFormatError("gzip: corrupt page (zlib \(status))")
            }
            guard output.count + produced <= size else { throw ParquetFormatError("gzip page decompresses past the \(size) bytes its header says") }
            output.append(contentsOf: chunk[0..<produced])
            if status == Z_STREAM_END { break }
            if produced == 0 { throw ParquetFormatError("gzip page truncated") }
        }
        guard output.count == size else { throw ParquetFormatError("gzip page decompresses to \(output.count) bytes, header says \(size)") }
        return output
    }
}
