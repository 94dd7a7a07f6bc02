#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension Array where Element: BitwiseCopyable {
    /// `count` copies of `value` in memory that the kernel is asked to back with huge pages before
    /// it is first written (where it allows, on Linux): random probes into a table of megabytes then
    /// miss the TLB far less. A hint: the array is an ordinary array either way.
    init(hugePagesRepeating value: Element, count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            #if os(Linux)
            let huge = 2 << 20
            let start = (Int(bitPattern: buffer.baseAddress) + huge - 1) / huge * huge
            let end = (Int(bitPattern: buffer.baseAddress) + count * MemoryLayout<Element>.stride) / huge * huge
            if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, 14) } // MADV_HUGEPAGE
            #else
            // Darwin: no transparent huge pages to ask for; an ordinary array.
            #endif
            buffer.initialize(repeating: value)
            initialized = count
        }
    }
}
