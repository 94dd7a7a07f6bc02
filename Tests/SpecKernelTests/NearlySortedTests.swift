import Testing
@testable import SpecKernel

@Suite("Sorting nearly sorted rows")
struct NearlySortedTests {
    @Test("the result is sorted, whether the rows are nearly sorted or not at all", arguments: [
        [Int](), [7], [1, 2, 3, 4], [5, 1], [2, 3, 4, 5, 1], [1, 4, 2, 3], [2, 1, 3, 5, 4, 6], [1, 3, 3, 2, 2, 9, 8],
        Array((0..<500).reversed()), (0..<300).map { ($0 * 7919) % 300 },
    ])
    func sorts(rows: [Int]) {
        // Given the rows in a buffer
        var sut = rows
        // When they are sorted
        sut.withUnsafeMutableBufferPointer { sortNearlySorted($0, by: <) }
        // Then they are in order, the same elements
        #expect(sut == rows.sorted())
    }
}
