import CMalloc

/// Process-wide allocator settings for large batch runs.
enum MemoryTuning {
    /// Makes glibc serve every allocation of 256 KiB or more with its own mapping, returned to the
    /// system when freed. By default glibc raises this threshold as big blocks are freed, so a
    /// pipeline that frees one batch array while it fills the next keeps both resident.
    static func apply() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    }
}
