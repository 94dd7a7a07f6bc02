/// Runs numbered jobs on child tasks and hands their results on in job order: the shape of every
/// parallel stage that writes a file (`analyze`'s partitions, `generate`'s chunks). At most
/// `window` jobs are started and not yet consumed, so memory holds at most `window` results.
package enum OrderedParallel {
    /// Runs jobs `0..<count`, at most `window` (at least 1) ahead of the one `consume` takes next;
    /// `consume` gets each result in job order (it may await, e.g. work it handed to other tasks).
    /// The first error thrown by a job or by `consume` cancels the jobs still running and is rethrown.
    package static func run<R: Sendable>(
        count: Int, window: Int, job: @escaping @Sendable (Int) throws -> R, consume: (Int, R) async throws -> Void
    ) async throws {
        let window = max(1, window)
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            var next = 0
            var ready: [Int: R] = [:]
            var consumed = 0
            while consumed < count {
                while next < count, next - consumed < window {
                    let index = next
                    group.addTask {
                        try Task.checkCancellation()
                        return (index, try job(index))
                    }
                    next += 1
                }
                guard let (index, result) = try await group.next() else { break }
                ready[index] = result
                while let result = ready.removeValue(forKey: consumed) {
                    try await consume(consumed, result)
                    consumed += 1
                }
            }
        }
    }

    /// Runs jobs that each take the next piece of a shared source of work: `next`, on a child task,
    /// returns the piece's position and result, or `nil` once the source is empty (positions are 0,
    /// 1, 2, … each handed out once, in order). At most `window` (at least 1) jobs are started and not
    /// yet consumed; `consume` gets the results in order of position. Errors come as they would one
    /// piece after another: when `next` throws, the pieces handed out before are still consumed, then
    /// its error is rethrown, unless `consume` threw first (at an earlier piece), whose error is.
    package static func run<R: Sendable>(
        window: Int, next: @escaping @Sendable () throws -> (Int, R)?, consume: (Int, R) throws -> Void
    ) async throws {
        let window = max(1, window)
        try await withThrowingTaskGroup(of: (Int, R)?.self) { group in
            var running = 0
            var exhausted = false
            var failure: (any Error)?
            var ready: [Int: R] = [:]
            var consumed = 0
            repeat {
                while !exhausted, running + ready.count < window {
                    group.addTask {
                        try Task.checkCancellation()
                        return try next()
                    }
                    running += 1
                }
                let finished: (Int, R)??
                do {
                    finished = try await group.next()
                } catch {
                    // The source failed: no piece comes after it; those before it are still consumed.
                    running -= 1
                    exhausted = true
                    failure = failure ?? error
                    continue
                }
                guard let finished else { break }
                running -= 1
                guard let (position, result) = finished else {
                    exhausted = true
                    continue
                }
                ready[position] = result
                while let result = ready.removeValue(forKey: consumed) {
                    try consume(consumed, result)
                    consumed += 1
                }
            } while running > 0 || !exhausted
            if let failure { throw failure }
        }
    }
}
