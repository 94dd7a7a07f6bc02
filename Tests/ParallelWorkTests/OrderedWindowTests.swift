import ParallelWork
import Synchronization
import Testing

@Suite("OrderedParallel.Window: results handed in by tasks of their own, consumed in order")
struct OrderedWindowTests {
    struct Planted: Error, Equatable { let index: Int }

    @Test("results submitted by several tasks in any order are consumed once each, in index order", arguments: [1, 2, 5], [0, 1, 40])
    func order(window: Int, count: Int) async throws {
        // Given a window whose consumer records what it gets
        let sut = OrderedParallel.Window<Int, [Int]>(window: window, consumer: []) { seen, result in seen.append(result) }
        // When four tasks hand in the results of every fourth index, each task in its own order
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in stride(from: worker, to: count, by: 4) { try await sut.submit(index, index * 10) }
                }
            }
            try await group.waitForAll()
        }
        // Then the consumer got every result, in index order
        var seen: [Int] = []
        sut.withConsumer { seen = $0 }
        #expect(seen == (0..<count).map { $0 * 10 })
    }

    @Test("a result more than the window ahead waits until the results before it are consumed")
    func waits() async throws {
        // Given a window of 2 and result 3 submitted first
        let sut = OrderedParallel.Window<Int, [Int]>(window: 2, consumer: []) { seen, result in seen.append(result) }
        let early = Task { try await sut.submit(3, 3) }
        // When results 0, 1 and 2 follow
        for index in 0..<3 { try await sut.submit(index, index) }
        try await early.value
        // Then result 3 was consumed after them
        var seen: [Int] = []
        sut.withConsumer { seen = $0 }
        #expect(seen == [0, 1, 2, 3])
    }

    @Test("the consumer's error comes out of the submit that consumed it")
    func error() async throws {
        // Given a consumer that fails on result 2
        let sut = OrderedParallel.Window<Int, Int>(window: 4, consumer: 0) { _, result in if result == 2 { throw Planted(index: 2) } }
        try await sut.submit(1, 1)
        // When result 0 then result 2 are handed in
        try await sut.submit(0, 0)
        // Then the submit of result 2 throws its error
        await #expect(throws: Planted(index: 2)) { try await sut.submit(2, 2) }
    }

    @Test("a task waiting its turn is released by cancellation")
    func cancellation() async throws {
        // Given a window of 1 and a task submitting result 5, which must wait
        let sut = OrderedParallel.Window<Int, Int>(window: 1, consumer: 0) { count, _ in count += 1 }
        let waiting = Task { try await sut.submit(5, 5) }
        // When the task is cancelled
        waiting.cancel()
        // Then it ends with CancellationError and nothing was consumed
        await #expect(throws: CancellationError.self) { try await waiting.value }
        var consumed = -1
        sut.withConsumer { consumed = $0 }
        #expect(consumed == 0)
    }
}
