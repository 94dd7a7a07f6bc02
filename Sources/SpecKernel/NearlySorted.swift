/// Sorts rows that are almost in order, as a user's rows usually are (a few late or interleaved
/// ones): insertion sort, linear in the rows plus the inversions and allocation-free; falls back
/// to the standard sort when the rows turn out to be far from sorted. The result is the order
/// `precedes` defines; equal elements are interchangeable (they are equal values).
@inline(__always)
func sortNearlySorted<T>(_ rows: UnsafeMutableBufferPointer<T>, by precedes: (T, T) -> Bool) {
    guard rows.count > 1 else { return }
    var budget = 16 * rows.count
    for i in 1..<rows.count {
        let row = rows[i]
        // Most rows are already in place: one comparison, nothing written.
        guard precedes(row, rows[i - 1]) else { continue }
        var j = i - 1
        rows[i] = rows[j]
        while j > 0, precedes(row, rows[j - 1]) {
            rows[j] = rows[j - 1]
            j -= 1
        }
        rows[j] = row
        budget -= i - j
        if budget < 0 {
            var all = rows
            all.sort(by: precedes)
            return
        }
    }
}
