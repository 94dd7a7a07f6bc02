#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A large zeroed buffer mapped straight from the system and backed by huge pages where the
/// kernel allows it: random access to a big hash table then misses the TLB far less.
final class LargeBuffer<Element: BitwiseCopyable>: @unchecked Sendable {
    let elements: UnsafeMutableBufferPointer<Element>
    private let bytes: Int

    init(zeroedCount count: Int) {
        bytes = max(1, count * MemoryLayout<Element>.stride)
        let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let raw, raw != MAP_FAILED else { fatalError("cannot map \(bytes) bytes: \(String(cString: strerror(errno)))") }
        #if os(Linux)
        _ = madvise(raw, bytes, 14) // MADV_HUGEPAGE
        #else
        // Darwin: no transparent huge pages to ask for; ordinary pages.
        #endif
        elements = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Element.self, capacity: count), count: count)
    }

    deinit { munmap(elements.baseAddress!, bytes) }
}
