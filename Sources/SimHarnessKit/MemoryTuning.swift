#if os(Linux)
import CGlibcMalloc
#endif

/// Process-wide allocator settings for large batch runs.
enum MemoryTuning {
    /// Makes glibc serve every allocation of 4 MiB or more with its own mapping, returned to the
    /// system when freed. By default glibc raises this threshold as big blocks are freed, so a
    /// pipeline that frees one batch of rows while it fills the next keeps both resident; smaller
    /// thresholds add page faults for the short-lived partition buffers.
    ///
    /// Keeps up to 16 MiB free at the top of each heap instead of glibc's 128 KiB: each partition's
    /// gathered rows and output text (a few MiB a task) then reuse the pages the last partition
    /// freed rather than fault fresh ones in. Figures for both: docs/performance.md, "Figures behind
    /// choices in the code".
    ///
    /// glibc only: elsewhere (macOS) there is nothing to tune and the system allocator keeps its defaults.
    static func apply() {
        #if os(Linux)
        _ = mallopt(M_MMAP_THRESHOLD, 4 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 16 << 20)
        #else
        // Not glibc: no mallopt thresholds to set.
        #endif
    }
}
