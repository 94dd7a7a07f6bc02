import CZlib
import CZstd

/// Compresses pages with one codec, reusing its context from page to page.
final class PageCompressor {
    let compression: ParquetCompression
    private var zstd: OpaquePointer?
    /// zstd level -1 (`--fast=1`): after the DELTA encodings its files are a little larger than level
    /// 1's, for noticeably less of `generate`'s CPU (figures: docs/parquet-format.md).
    static let zstdLevel: Int32 = -1
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
        let count = try compress(input, reusing: &output)
        output.removeLast(output.count - count)
    }

    /// Writes `input` compressed at the start of `output`, grown when it is too short (and otherwise
    /// kept, so that a page after page reuses its memory); returns the compressed size.
    func compress(_ input: [UInt8], reusing output: inout [UInt8]) throws -> Int {
        switch compression {
        case .none:
            if output.count < input.count { output = [UInt8](repeating: 0, count: input.count) }
            output.replaceSubrange(0..<input.count, with: input)
            return input.count
        case .zstd:
            let bound = ZSTD_compressBound(input.count)
            if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
            let size = output.withUnsafeMutableBytes { out in
                input.withUnsafeBytes { ZSTD_compressCCtx(zstd, out.baseAddress, out.count, $0.baseAddress, $0.count, Self.zstdLevel) }
            }
            guard ZSTD_isError(size) == 0 else { throw ParquetFormatError("zstd: \(String(cString: ZSTD_getErrorName(size)))") }
            return size
        case .gzip:
            var compressed: [UInt8] = []
            try Self.gzip(input, into: &compressed)
            if output.count < compressed.count { output = [UInt8](repeating: 0, count: compressed.count) }
            output.replaceSubrange(0..<compressed.count, with: compressed)
            return compressed.count
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

/// Decompresses one page of untrusted bytes (GZIP or ZSTD) into exactly `size` bytes. The output is allocated at once,
/// but only when `size` is within what the codec can expand the input to (zstd at most 32,768 times,
/// deflate at most 1,032 times), so that a lying header costs no more memory than its bytes justify.
enum PageDecompressor {
    static let zstdMaxRatio = 32_768
    static let deflateMaxRatio = 1_032

    static func decompress(_ input: UnsafeRawBufferPointer, codec: Codec, size: Int) throws -> [UInt8] {
        switch codec {
        case .zstd:
            guard size <= input.count * zstdMaxRatio else { throw ParquetFormatError("zstd page of \(input.count) bytes cannot hold the \(size) bytes its header says") }
            return try decompressed(size, codec) { out in
                let n = ZSTD_decompress(out.baseAddress, out.count, input.baseAddress, input.count)
                guard ZSTD_isError(n) == 0 else { throw ParquetFormatError("zstd: \(String(cString: ZSTD_getErrorName(n)))") }
                return n
            }
        case .gzip:
            guard size <= input.count * deflateMaxRatio + 64 else { throw ParquetFormatError("gzip page of \(input.count) bytes cannot hold the \(size) bytes its header says") }
            return try decompressed(size, codec) { try inflate(input, into: $0) }
        default: throw ParquetFormatError("unsupported codec \(codec.name)")
        }
    }

    /// A buffer of `size` bytes that `body` fills, returning how many bytes it wrote (which must be `size`).
    private static func decompressed(_ size: Int, _ codec: Codec, _ body: (UnsafeMutableBufferPointer<UInt8>) throws -> Int) throws -> [UInt8] {
        // Not an empty array made in place: that writes the shared empty storage (a race for ThreadSanitizer).
        guard size > 0 else {
            _ = try body(UnsafeMutableBufferPointer(start: nil, count: 0))
            return []
        }
        var failure: Error?
        let output = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            do {
                count = try body(buffer)
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        guard output.count == size else { throw ParquetFormatError("\(codec.name) page decompresses to \(output.count) bytes, header says \(size)") }
        return output
    }

    /// Inflates a gzip (or zlib) stream into `out`; returns the bytes written.
    private static func inflate(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        var stream = z_stream()
        // 15 + 32: a zlib or gzip header, detected.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ParquetFormatError("gzip: inflateInit2 failed")
        }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
        stream.avail_in = UInt32(input.count)
        // zlib wants an output pointer even for no output.
        let status = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { spare in
            stream.next_out = out.baseAddress ?? spare.baseAddress
            stream.avail_out = UInt32(out.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else {
            throw ParquetFormatError(status == Z_BUF_ERROR && stream.avail_out == 0 ? "gzip page decompresses past the \(out.count) bytes its header says" : "gzip: corrupt or truncated page (zlib \(status))")
        }
        return out.count - Int(stream.avail_out)
    }
}
