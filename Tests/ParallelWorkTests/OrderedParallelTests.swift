import ParallelWork
import Synchronization
import Testing

@Suite("OrderedParallel: jobs on child tasks, results in job order")
struct OrderedParallelTests {
    /// Counts the jobs started and not yet consumed, and the most there ever were.
    final class Spy: Sendable {
        private let state = Mutex((open: 0, most: 0))
        func started() { state.withLock { $0.open += 1; $0.most = max($0.most, $0.open) } }
        func consumed() { state.withLock { $0.open -= 1 } }
        var most: Int { state.withLock { $0.most } }
    }

    struct Planted: Error, Equatable { let job: Int }

    @Test("every result is consumed once, in job order, whatever the window", arguments: [1, 2, 3, 16], [0, 1, 7, 50])
    func order(window: Int, count: Int) async throws {
        // Given jobs that return their own index squared
        var sut: [(Int, Int)] = []
        // When they run
        try await OrderedParallel.run(count: count, window: window, job: { $0 * $0 }, consume: { sut.append(($0, $1)) })
        // Then the results come in job order, each with its index
        #expect(sut.map(\.0) == Array(0..<count))
        #expect(sut.map(\.1) == (0..<count).map { $0 * $0 })
    }

    @Test("no more than the window's jobs are started ahead of the consumer", arguments: [1, 2, 4])
    func window(window: Int) async throws {
        // Given a spy that counts the jobs started and not yet consumed
        let spy = Spy()
        // When 40 jobs run
        try await OrderedParallel.run(count: 40, window: window, job: { _ in spy.started() }, consume: { _, _ in spy.consumed() })
        // Then there were never more than the window of them
        #expect(spy.most <= window)
        #expect(spy.most >= 1)
    }

    @Test("an error of a job or of the consumer ends the run and is rethrown", arguments: [true, false])
    func errors(inJob: Bool) async throws {
        // Given job 5, or the consumption of job 5, fails
        // When 20 jobs run
        // Then that error comes out
        await #expect(throws: Planted(job: 5)) {
            try await OrderedParallel.run(count: 20, window: 3, job: { i in
                if inJob, i == 5 { throw Planted(job: 5) }
                return i
            }, consume: { i, _ in if !inJob, i == 5 { throw Planted(job: 5) } })
        }
    }

    /// A shared source of `count` numbered pieces of work, handed out once each (as `MappedChunks`
    /// does: an atomic counter, which ThreadSanitizer sees, where it does not see `Mutex`'s futex).
    final class Source: Sendable {
        private let handedOut = Atomic(0)
        let count: Int

        init(count: Int) { self.count = count }

        func next() -> Int? {
            let piece = handedOut.add(1, ordering: .relaxed).oldValue
            return piece < count ? piece : nil
        }
    }

    @Test("jobs drawing from a shared source: every piece consumed once, in order, whatever the window",
          arguments: [1, 2, 3, 16], [0, 1, 7, 50])
    func sourceOrder(window: Int, count: Int) async throws {
        // Given a source of `count` pieces, each job squaring its piece
        let source = Source(count: count)
        var sut: [(Int, Int)] = []
        // When jobs run until the source is empty
        try await OrderedParallel.run(window: window, next: { source.next().map { ($0, $0 * $0) } }, consume: { sut.append(($0, $1)) })
        // Then every piece's result comes once, in order
        #expect(sut.map(\.0) == Array(0..<count))
        #expect(sut.map(\.1) == (0..<count).map { $0 * $0 })
    }

    @Test("jobs drawing from a shared source: no more than the window's are ahead of the consumer", arguments: [1, 2, 4])
    func sourceWindow(window: Int) async throws {
        // Given a spy that counts the jobs started and not yet consumed, and a source of 40 pieces
        let spy = Spy()
        let source = Source(count: 40)
        // When jobs run until the source is empty
        try await OrderedParallel.run(window: window, next: { () -> (Int, Void)? in
            spy.started()
            guard let piece = source.next() else {
                spy.consumed()  // no piece: nothing will be consumed for this job
                return nil
            }
            return (piece, ())
        }, consume: { _, _ in spy.consumed() })
        // Then there were never more than the window of them
        #expect(spy.most <= window)
        #expect(spy.most >= 1)
    }

    @Test("jobs drawing from a shared source: an error of a job or of the consumer ends the run", arguments: [true, false])
    func sourceErrors(inJob: Bool) async throws {
        // Given piece 5's job, or its consumption, fails
        let source = Source(count: 20)
        // When jobs run
        // Then that error comes out
        await #expect(throws: Planted(job: 5)) {
            try await OrderedParallel.run(window: 3, next: { () throws -> (Int, Int)? in
                guard let piece = source.next() else { return nil }
                if inJob, piece == 5 { throw Planted(job: 5) }
                return (piece, piece)
            }, consume: { piece, _ in if !inJob, piece == 5 { throw Planted(job: 5) } })
        }
    }

    /// A source whose sixth piece cannot be read (and nothing after it): it fails at once, while the
    /// pieces before it are still being worked on (each job for piece `n` spins `(5 - n) * 20,000` rounds).
    final class FailingSource: Sendable {
        private let handedOut = Atomic(0)

        func next() throws -> (Int, Int)? {
            let piece = handedOut.add(1, ordering: .relaxed).oldValue
            if piece == 5 { throw Planted(job: piece) }
            if piece > 5 { return nil }
            var x = UInt64(piece)
            for _ in 0..<(5 - piece) * 20_000 { x = x &* 6_364_136_223_846_793_005 &+ 1 }
            return (piece, Int(x & 1))
        }
    }

    @Test("jobs drawing from a shared source: the pieces before a failed read are consumed, then its error comes out",
          arguments: [2, 8])
    func sourceFailsAfterPieces(window: Int) async throws {
        // Given a source that fails at its sixth piece
        let source = FailingSource()
        var sut: [Int] = []
        // When jobs run
        // Then the read's error comes out after the five pieces before it were consumed, in order
        await #expect(throws: Planted(job: 5)) {
            try await OrderedParallel.run(window: window, next: source.next, consume: { piece, _ in sut.append(piece) })
        }
        #expect(sut == [0, 1, 2, 3, 4])
    }

    @Test("jobs drawing from a shared source: a consumer's error at an earlier piece wins over a later failed read")
    func consumerErrorBeforeFailedRead() async throws {
        // Given a source that fails at its sixth piece, and a consumer that fails at the third
        let source = FailingSource()
        // When jobs run
        // Then the consumer's error comes out
        await #expect(throws: Planted(job: 2)) {
            try await OrderedParallel.run(window: 8, next: source.next, consume: { piece, _ in if piece == 2 { throw Planted(job: 2) } })
        }
    }
}
