@_spi(Tooling) @testable import Generation
import Testing

@Suite("DayRows: a day's rows written by index, then appended in one copy")
struct DayRowsTests {
    @Test("rows arrive in the order written, day after day, also when a day needs more room than the last")
    func orderAndGrowth() {
        // Given day rows and an array
        var sut = DayRows<Int>()
        var rows: [Int] = []
        // When a small day, then a day larger than the first memory, then an empty day are written
        for day in [Array(1...3), Array(100..<300), []] {
            var writer = sut.writer(room: day.count)
            for value in day { writer.append(value) }
            writer.append(to: &rows)
        }
        // Then the array holds every row, in order
        #expect(rows == Array(1...3) + Array(100..<300))
    }

    @Test("a day's times are sorted where they were written, equal ones included", arguments: [
        [Int64](), [5], [3, 1, 2], [7, 7, 1, 7, 0], Array((0..<40).reversed()), [86_399, 0, 43_200, 43_200, -60],
    ])
    func sortedInPlace(times: [Int64]) {
        // Given a day's times written in draw order
        var sut = DayRows<Int64>()
        var writer = sut.writer(room: times.count)
        for time in times { writer.append(time) }
        // When they are sorted in place
        sortShort(writer.written)
        // Then they read in ascending order
        #expect(Array(writer.written) == times.sorted())
    }

    @Test("every arrangement of up to six values from three, repeats included, sorts as Array.sorted does")
    func sortsEveryArrangement() {
        for count in 0...6 {
            for code in 0..<pow3(count) {
                // Given the arrangement numbered `code` (its base-3 digits are the values)
                var values: [Int64] = []
                var rest = code
                for _ in 0..<count {
                    values.append(Int64(rest % 3) * 1_000 - 1)
                    rest /= 3
                }
                var sut = values
                // When it is sorted in place
                sut.withUnsafeMutableBufferPointer { sortShort($0) }
                // Then it is the sorted arrangement
                #expect(sut == values.sorted(), "arrangement \(values)")
            }
        }
    }

    private func pow3(_ n: Int) -> Int { (0..<n).reduce(1) { product, _ in product * 3 } }

    @Test("a copy writes into memory of its own (the batch is a value)")
    func copiesDoNotShareMemory() {
        // Given day rows that have memory, and a copy of them
        var sut = DayRows<Int>()
        var rows: [Int] = []
        sut.writer(room: 4).append(to: &rows)
        var copy = sut
        // When both write a day at once
        var original = sut.writer(room: 2)
        var copied = copy.writer(room: 2)
        original.append(1)
        copied.append(2)
        original.append(to: &rows)
        // Then the original's rows are its own
        #expect(rows == [1])
    }

    @Test("writing past the room asked for stops the process rather than the memory after it")
    func pastTheRoom() async {
        await #expect(processExitsWith: .failure) {
            var sut = DayRows<Int>()
            var writer = sut.writer(room: 1)
            writer.append(1)
            writer.append(2)
        }
    }
}
