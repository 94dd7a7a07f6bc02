import CZlib
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A run of whole lines of a text file, read in one piece.
public struct LineChunk: Sendable {
    /// Position of the chunk in the file, from 0.
    public var index: Int
    /// Whole lines: every line but possibly the file's last ends with `\n`.
    public var bytes: [UInt8]
}

/// Reads a text file (plain or gzip) as chunks of whole lines, sequentially.
public final class LineChunkReader {
    public let file: String
    private let chunkSize: Int
    private var fd: Int32 = -1
    private var gz: gzFile?
    private var carry: [UInt8] = []
    private var nextIndex = 0
    private var atEnd = false

    public init(path: String, gzip: Bool, chunkSize: Int = 4 << 20) throws {
        file = String(path.split(separator: "/").last ?? Substring(path))
        self.chunkSize = chunkSize
        if gzip {
            guard let handle = gzopen(path, "rb") else { throw InputRefusal(file: file, reason: "cannot open: \(String(cString: strerror(errno)))") }
            gzbuffer(handle, 1 << 18)
            gz = handle
        } else {
            fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw InputRefusal(file: file, reason: "cannot open: \(String(cString: strerror(errno)))") }
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
        if let gz { gzclose(gz) }
    }

    /// The next chunk of whole lines, or `nil` at the end of the file.
    public func next() throws -> LineChunk? {
        guard !atEnd else { return nil }
        var capacity = max(chunkSize, carry.count * 2)
        while true {
            var hitEnd = false
            var failed = false
            var buffer = [UInt8](unsafeUninitializedCapacity: capacity) { raw, count in
                count = carry.count
                for i in 0..<carry.count { raw[i] = carry[i] }
                while count < capacity {
                    let n = readInto(raw.baseAddress! + count, capacity - count)
                    if n < 0 { failed = true; return }
                    if n == 0 { hitEnd = true; break }
                    count += n
                }
            }
            if failed { throw InputRefusal(file: file, reason: "unreadable: \(readError())") }
            if hitEnd {
                if let gz {
                    var code: Int32 = 0
                    let message = String(cString: gzerror(gz, &code))
                    if code != Z_OK && code != Z_STREAM_END { throw InputRefusal(file: file, reason: "unreadable: \(message)") }
                }
                atEnd = true
                carry = []
                if buffer.isEmpty { return nil }
                defer { nextIndex += 1 }
                return LineChunk(index: nextIndex, bytes: buffer)
            }
            if let lastNewline = buffer.lastIndex(of: UInt8(ascii: "\n")) {
                carry = Array(buffer[(lastNewline + 1)...])
                buffer.removeSubrange((lastNewline + 1)...)
                defer { nextIndex += 1 }
                return LineChunk(index: nextIndex, bytes: buffer)
            }
            carry = buffer
            capacity *= 2
        }
    }

    private func readInto(_ pointer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        if let gz { return Int(gzread(gz, pointer, UInt32(min(count, Int(Int32.max))))) }
        while true {
            let n = read(fd, pointer, count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    private func readError() -> String {
        if let gz {
            var code: Int32 = 0
            return String(cString: gzerror(gz, &code))
        }
        return String(cString: strerror(errno))
    }
}
