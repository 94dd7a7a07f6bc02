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
    /// Storage whose first `count` bytes are whole lines: every line but possibly the file's
    /// last ends with `\n`. Hand it back to `next(reusing:)` to read the next chunk into it.
    public var storage: [UInt8]
    /// Bytes of whole lines in `storage`.
    package var count: Int

    /// Calls `body` with the chunk's bytes.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }
}

/// Reads a text file (plain or gzip) as chunks of whole lines, sequentially.
public final class LineChunkReader {
    /// The file's name, for messages.
    package let file: String
    private let chunkSize: Int
    private var fd: Int32 = -1
    private var gz: gzFile?
    private var carry: [UInt8] = []
    private var nextIndex = 0
    private var atEnd = false

    /// Opens the file at `path`; throws an `InputRefusal` when it cannot be read.
    public init(path: String, gzip: Bool, chunkSize: Int = 4 << 20) throws {
        precondition(chunkSize > 0, "chunkSize must be positive")
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

    /// The next chunk of whole lines, or `nil` at the end of the file; reads into `recycled`
    /// storage when given, so a pipeline can reuse a few buffers instead of mapping new ones (pass
    /// it without keeping a reference, or the first write copies it).
    public func next(reusing recycled: consuming [UInt8]? = nil) throws -> LineChunk? {
        guard !atEnd else { return nil }
        var buffer = (consume recycled) ?? []
        let needed = max(chunkSize, carry.count * 2)
        if buffer.count < needed {
            // Left uninitialized: only the bytes read are ever looked at, and a small file then
            // touches the few pages it fills instead of all of them.
            buffer = [UInt8](unsafeUninitializedCapacity: needed) { _, count in count = needed }
        }
        var filled = carry.count
        buffer.withUnsafeMutableBufferPointer { target in
            for i in 0..<carry.count { target[i] = carry[i] }
        }
        carry.removeAll(keepingCapacity: true)
        var searchedUpTo = 0
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { target in
                readInto(target.baseAddress! + filled, target.count - filled)
            }
            if n < 0 { throw InputRefusal(file: file, reason: "unreadable: \(readError())") }
            if n == 0 {
                try checkEndOfStream()
                atEnd = true
                guard filled > 0 else { return nil }
                defer { nextIndex += 1 }
                return LineChunk(index: nextIndex, storage: buffer, count: filled)
            }
            filled += n
            guard filled == buffer.count else { continue }
            let lastNewline = buffer.withUnsafeBufferPointer { all in
                UnsafeBufferPointer(rebasing: all[searchedUpTo..<filled]).lastIndex(of: UInt8(ascii: "\n")).map { $0 + searchedUpTo }
            }
            if let lastNewline {
                carry.append(contentsOf: buffer[(lastNewline + 1)..<filled])
                defer { nextIndex += 1 }
                return LineChunk(index: nextIndex, storage: buffer, count: lastNewline + 1)
            }
            searchedUpTo = filled
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
    }

    private func checkEndOfStream() throws {
        guard let gz else { return }
        var code: Int32 = 0
        let message = String(cString: gzerror(gz, &code))
        if code != Z_OK && code != Z_STREAM_END { throw InputRefusal(file: file, reason: "unreadable: \(message)") }
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
