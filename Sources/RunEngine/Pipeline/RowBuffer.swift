/// Reusable room for one user's rows, written and read through a pointer: no per-row
/// bookkeeping, and no allocation once it has grown to the largest user. Holds plain values
/// (no references), so rows are overwritten without being deinitialized.
final class RowBuffer<Element> {
    private var base = UnsafeMutablePointer<Element>.allocate(capacity: 256)
    private var capacity = 256

    init() { precondition(_isPOD(Element.self), "RowBuffer holds plain values only") }

    deinit { base.deallocate() }

    /// Room for `count` elements (what was there before is not kept).
    @inline(__always) func room(for count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            base.deallocate()
            capacity = max(count, 2 * capacity)
            base = .allocate(capacity: capacity)
        }
        return base
    }
}
