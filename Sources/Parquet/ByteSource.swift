#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The bytes of a Parquet file: an open file read by offset, or bytes in memory.
enum ByteSource: Sendable {
    case file(OpenFile)
    case memory([UInt8])

    var count: Int {
        switch self {
        case .file(let file): file.size
        case .memory(let bytes): bytes.count
        }
    }

    /// `count` bytes at `offset`, which the caller has checked lie within the file.
    func read(offset: Int, count: Int, name: String) throws -> [UInt8] {
        switch self {
        case .memory(let bytes): return Array(bytes[offset..<offset + count])
        case .file(let file): return try file.read(offset: offset, count: count, name: name)
        }
    }
}

/// A file open for reading, closed when the last reader that shares it goes away.
final class OpenFile: Sendable {
    let descriptor: Int32
    let size: Int

    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ParquetError(file: path, reason: "cannot open: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ParquetError(file: path, reason: "not a regular file")
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    func read(offset: Int, count: Int, name: String) throws -> [UInt8] {
        // Not an empty array made in place: that writes the shared empty storage (a race for ThreadSanitizer).
        guard count > 0 else { return [] }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    failure = n < 0 ? errno : -1
                    break
                }
                done += n
            }
            initialized = done
        }
        guard bytes.count == count else {
            let why = failure > 0 ? String(cString: strerror(failure)) : "the file is shorter than when it was opened"
            throw ParquetError(file: name, offset: offset + bytes.count, reason: "read failed: \(why)")
        }
        return bytes
    }
}
