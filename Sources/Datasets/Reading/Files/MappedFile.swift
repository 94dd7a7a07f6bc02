#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A regular file mapped into memory and read in place: no copy into a buffer, and the kernel
/// maps the pages it caches several at a time (`LineChunkReader` reads any file, and explains why
/// one cannot be read). Should the file be truncated while it is mapped, reading the lost pages
/// ends the process with a message naming the file and exit status 2 (`TruncationGuard`).
package final class MappedFile: @unchecked Sendable { // immutable after init: a read-only mapping
    private let bytes: UnsafeBufferPointer<UInt8>
    private let guardSlot: Int?

    /// The mapping of the regular file at `path`, or `nil` when it cannot be opened, is not a
    /// regular file or cannot be mapped.
    package init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            guardSlot = nil
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
        guardSlot = TruncationGuard.register(bytes, path: path)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        if let guardSlot { TruncationGuard.unregister(guardSlot) }
    }

    /// Lets the kernel drop the pages of `range` from this mapping (they stay cached in the file's
    /// page cache, and reading them again maps them again): resident memory shrinks on Linux; on Darwin
    /// `MADV_DONTNEED` is a hint the kernel may act on later.
    public func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress, !range.isEmpty else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        let end = min(bytes.count, (range.upperBound + page - 1) / page * page)
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    /// Calls `body` with the file's bytes (empty for an empty file), valid during the call.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(bytes) }
    }
}
