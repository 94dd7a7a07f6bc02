import Datasets
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Hands out the chunks of whole lines of one file to the scan's tasks, one chunk at a time.
protocol ChunkSource: Sendable {
    /// The file's first line without its `\n`, `nil` for an empty file.
    var firstLine: [UInt8]? { get }

    /// Calls `body` with the next chunk's position in the file (from 0) and its bytes, or returns
    /// `nil` when every chunk was handed out.
    func withNextChunk<R>(_ body: (_ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws -> R) throws -> R?
}

extension ChunkSource {
    static func firstLine(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let bytes = withoutByteOrderMark(bytes, chunk: 0)
        return Array(bytes[..<(bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)])
    }

    /// The bytes of chunk `index` without the UTF-8 byte-order mark that may open a file (SPEC §0),
    /// so that no reader sees it as part of the first line.
    static func withoutByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>, chunk index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[3...])
    }
}

/// The chunks of a plain file mapped into memory: a task takes the next `chunkBytes` of the file,
/// moved to line starts, reads them in place (no copy into a buffer), then lets the kernel unmap
/// them, so resident memory holds only the chunks being read. (A file truncated while it is read
/// ends the process with exit status 2 and a message naming it: see `MappedFile`.)
final class MappedChunks: ChunkSource {
    let firstLine: [UInt8]?
    private let file: MappedFile
    private let chunkBytes: Int
    private let count: Int
    private let next = Atomic<Int>(0)

    /// The chunks of `file`, or `nil` when it is compressed or cannot be mapped.
    init?(_ file: DatasetFile, chunkBytes: Int) {
        guard !file.gzip, let mapped = MappedFile(path: file.path) else { return nil }
        self.file = mapped
        self.chunkBytes = max(1, chunkBytes)
        let size = mapped.withBytes { $0.count }
        count = (size + self.chunkBytes - 1) / self.chunkBytes
        firstLine = size == 0 ? nil : mapped.withBytes { Self.firstLine(of: $0) }
    }

    func withNextChunk<R>(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < count else { return nil }
        return try file.withBytes { all in
            let start = Self.lineStart(atOrAfter: index * chunkBytes, in: all)
            let end = index + 1 == count ? all.count : max(start, Self.lineStart(atOrAfter: (index + 1) * chunkBytes, in: all))
            defer { file.release(start..<end) }
            return try body(index, Self.withoutByteOrderMark(UnsafeBufferPointer(rebasing: all[start..<end]), chunk: index))
        }
    }

    /// The first line start at or after `offset`: the byte after the first `\n` from `offset - 1` on.
    static func lineStart(atOrAfter offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard offset > 0 else { return 0 }
        guard offset <= bytes.count, let newline = memchr(bytes.baseAddress! + offset - 1, Int32(UInt8(ascii: "\n")), bytes.count - offset + 1) else {
            return bytes.count
        }
        return UnsafeRawPointer(newline) - UnsafeRawPointer(bytes.baseAddress!) + 1
    }
}

/// The chunks of a file read in turn by a `LineChunkReader` (a gzip file, or one that cannot be
/// mapped): a task reads the next chunk under a lock, then reads its lines, then hands its buffer
/// back for a later read.
final class ReaderChunks: ChunkSource, @unchecked Sendable {
    let firstLine: [UInt8]?
    /// Guards the reader, the chunk read ahead and the spare buffers. A pthread mutex rather than a
    /// `Mutex`: ThreadSanitizer follows it, where it reports the reader's own accesses, made under a
    /// contended `Mutex`, as races (scripts/tsan-suppressions.txt says why).
    private let lock = NSLock()
    private let reader: LineChunkReader
    private var pending: LineChunk?
    private var spare: [[UInt8]] = []

    init(_ file: DatasetFile, chunkBytes: Int) throws {
        reader = try LineChunkReader(path: file.path, gzip: file.gzip, chunkSize: chunkBytes)
        pending = try reader.next()
        firstLine = pending?.withBytes { Self.firstLine(of: $0) }
    }

    func withNextChunk<R>(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        let taken: LineChunk? = try lock.withLock {
            if let ahead = pending.take() { return ahead }
            return try reader.next(reusing: spare.popLast())
        }
        guard let chunk = taken else { return nil }
        let result = try chunk.withBytes { try body(chunk.index, Self.withoutByteOrderMark($0, chunk: chunk.index)) }
        // The chunk's reference goes with it, so a later read reuses the buffer without copying it.
        let storage = (consume chunk).storage
        lock.withLock { spare.append(storage) }
        return result
    }
}

/// The units of a Parquet table rendered as the text of the CSV file of the same seed
/// (`ParquetTableText`): a task takes the next unit (a row group), renders it into a pooled
/// buffer and reads its lines, so the CSV decoders and line numbers apply unchanged.
final class ParquetChunks: ChunkSource {
    let firstLine: [UInt8]?
    private let table: ParquetTableText
    private let next = Atomic<Int>(0)
    /// Text buffers and rendering memory (decoded columns included), shared by the tables' scans
    /// (`ParquetScan`'s too) so that each scan reuses the pages of the last rather than faulting in its own.
    private static let spare = Mutex<[(ByteBuffer, TypedRowsText)]>([])

    init(_ file: DatasetFile) throws {
        table = try ParquetTableText(file)
        firstLine = Array(file.kind.columns.joined(separator: ",").utf8)
    }

    func withNextChunk<R>(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> R) throws -> R? {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < table.unitCount else { return nil }
        return try Self.withSpareMemory { buffer, rendering in
            try table.appendText(ofUnit: index, to: buffer, rendering: rendering)
            return try body(index, buffer.bytes)
        }
    }

    /// Calls `body` with a text buffer (emptied) and rendering memory from the pool, then puts them back.
    static func withSpareMemory<R>(_ body: (ByteBuffer, TypedRowsText) throws -> R) rethrows -> R {
        let (buffer, rendering) = spare.withLock { $0.popLast() } ?? (ByteBuffer(capacity: 1 << 20), TypedRowsText())
        defer {
            buffer.removeAll()
            spare.withLock { $0.append((buffer, rendering)) }
        }
        return try body(buffer, rendering)
    }
}
