import CChecksum
import CZlib
import DatasetText
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A part of a dataset file, made ready off the writing thread: its bytes (deflated when the file
/// is gzip-compressed) and the CRC-32 checksums the file writer combines in order.
package struct PreparedChunk: @unchecked Sendable {
    /// The bytes to write: the encoded rows, or their raw deflate stream ended by a sync flush.
    package let output: ByteBuffer
    /// CRC-32 and length of the uncompressed rows (the gzip trailer needs them).
    package let rawCRC: UInt32
    /// Length of the uncompressed rows.
    package let rawLength: Int
    /// CRC-32 of `output`.
    package let outputCRC: UInt32
    /// Rows in the chunk.
    package let rows: Int

    /// Checksums `rows` (and deflates them when `compressionLevel` is set) for one file.
    /// Deflated chunks are independent raw deflate streams cut at byte boundaries, so chunks
    /// made by different tasks concatenate into one gzip member (as pigz does).
    package init(encoded: ByteBuffer, rows: Int, compressionLevel: Int32?) throws {
        self.rows = rows
        rawLength = encoded.count
        rawCRC = Checksum.crc32(encoded.bytes)
        if let level = compressionLevel {
            output = try Deflate.rawSyncFlushed(encoded.bytes, level: level)
            outputCRC = Checksum.crc32(output.bytes)
        } else {
            output = encoded
            outputCRC = rawCRC
        }
    }
}

/// CRC-32 (zlib's) of byte ranges, and of their concatenation from the parts' checksums.
package enum Checksum {
    /// Whether `crc32` folds whole 16-byte blocks by carry-less multiplication on this CPU.
    static let folds = simharness_crc32_folding_available() != 0

    /// The CRC-32 of `bytes`, continuing from `crc` (0 for a start): blocks of 16 bytes folded
    /// where the CPU can (several times zlib's table speed: docs/performance.md), the rest by zlib.
    package static func crc32(_ bytes: UnsafeBufferPointer<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var rest = bytes
        var value = UInt(crc)
        if folds, bytes.count >= 64 {
            let blocks = bytes.count & ~15
            value = UInt(~simharness_crc32_fold(bytes.baseAddress, blocks, ~crc))
            rest = UnsafeBufferPointer(rebasing: bytes[blocks...])
        }
        while !rest.isEmpty {
            let n = min(rest.count, Int(UInt32.max >> 1))
            value = CZlib.crc32(value, rest.baseAddress, UInt32(n))
            rest = UnsafeBufferPointer(rebasing: rest[n...])
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC-32 of `a` followed by `b`, given both checksums and `b`'s length.
    package static func combine(_ a: UInt32, _ b: UInt32, lengthOfSecond length: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(UInt(a), UInt(b), .init(length)))
    }
}

/// Raw deflate of one chunk.
enum Deflate {
    static func rawSyncFlushed(_ input: UnsafeBufferPointer<UInt8>, level: Int32) throws -> ByteBuffer {
        var stream = z_stream()
        let status = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw DatasetWriteError.compression(status) }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(input.count))) + 64
        let output = ByteBuffer(capacity: bound)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.storage
        stream.avail_out = UInt32(bound)
        let result = deflate(&stream, Z_SYNC_FLUSH)
        guard result == Z_OK, stream.avail_in == 0 else { throw DatasetWriteError.compression(result) }
        output.count = bound - Int(stream.avail_out)
        return output
    }
}

/// Why writing a dataset failed.
package enum DatasetWriteError: Error, CustomStringConvertible, Equatable {
    case cannotOpen(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case compression(Int32)
    case sqlite(String)

    /// What failed, for messages.
    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot create \(path): \(reason)"
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
        case .compression(let status): "zlib deflate failed (status \(status))"
        case .sqlite(let message): "SQLite: \(message)"
        }
    }
}

/// What was written to one file.
package struct WrittenFile: Sendable, Equatable {
    /// The file written.
    package var path: String
    /// Rows written (the header not counted).
    package var rows: Int
    /// Bytes written, as stored (compressed for gzip).
    package var bytes: Int
    /// CRC-32 of the file's bytes as stored (compressed bytes for `.gz`).
    package var crc32: UInt32

    /// The figures of a finished file.
    package init(path: String, rows: Int, bytes: Int, crc32: UInt32) {
        self.path = path
        self.rows = rows
        self.bytes = bytes
        self.crc32 = crc32
    }
}

/// Writes one dataset file from prepared chunks, in order: plain, or one gzip member made of the
/// chunks' deflate streams (gzip header, chunks, an empty final block, CRC-32 and length).
package struct DatasetFileWriter {
    /// The file being written.
    package let path: String
    /// Whether the file is one gzip member.
    package let gzip: Bool
    private let descriptor: Int32
    private var fileCRC: UInt32 = 0
    private var bytes = 0
    private var rawCRC: UInt32 = 0
    private var rawLength = 0
    private var rows = 0

    /// The gzip compression level: favour speed, the files are scratch data.
    package static let gzipLevel: Int32 = 1

    /// Creates (or truncates) the file at `path`.
    package init(path: String, gzip: Bool) throws {
        self.path = path
        self.gzip = gzip
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw DatasetWriteError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        if gzip { try emit([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]) }
    }

    /// Appends a chunk prepared with `compressionLevel` set exactly when the file is gzip.
    package mutating func write(_ chunk: PreparedChunk) throws {
        try emit(chunk.output.bytes, crc: chunk.outputCRC)
        rawCRC = Checksum.combine(rawCRC, chunk.rawCRC, lengthOfSecond: chunk.rawLength)
        rawLength += chunk.rawLength
        rows += chunk.rows
    }

    /// Writes the gzip trailer, closes the file and tells what it holds.
    package mutating func finish() throws -> WrittenFile {
        if gzip {
            var trailer: [UInt8] = [0x03, 0x00]
            for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8(truncatingIfNeeded: rawCRC >> UInt32(shift))) }
            let size = UInt32(truncatingIfNeeded: rawLength)
            for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
            try emit(trailer)
        }
        guard close(descriptor) == 0 else { throw DatasetWriteError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        return WrittenFile(path: path, rows: rows, bytes: bytes, crc32: fileCRC)
    }

    private mutating func emit(_ small: [UInt8]) throws {
        try small.withUnsafeBufferPointer { try emit($0, crc: Checksum.crc32($0)) }
    }

    private mutating func emit(_ data: UnsafeBufferPointer<UInt8>, crc: UInt32) throws {
        var offset = 0
        while offset < data.count {
            let n = systemWrite(descriptor, data.baseAddress! + offset, data.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw DatasetWriteError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            offset += n
        }
        fileCRC = Checksum.combine(fileCRC, crc, lengthOfSecond: data.count)
        bytes += data.count
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#else
private let systemWrite = Darwin.write
#endif

/// Checksums of files already on disk.
package enum FileChecksum {
    /// The size and CRC-32 of the file at `path`.
    package static func of(path: String) throws -> (bytes: Int, crc32: UInt32) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw DatasetWriteError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let block = ByteBuffer(capacity: 1 << 20)
        var crc: UInt32 = 0
        var total = 0
        while true {
            let n = read(descriptor, block.storage, 1 << 20)
            if n < 0 {
                if errno == EINTR { continue }
                throw DatasetWriteError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            crc = Checksum.crc32(UnsafeBufferPointer(start: block.storage, count: n), continuing: crc)
            total += n
        }
        return (total, crc)
    }
}
