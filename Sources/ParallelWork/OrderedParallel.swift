/// Runs numbered jobs on child tasks and hands their results on in job order: the shape of every
/// parallel stage that writes a file (`analyze`'s partitions, `generate`'s chunks). At most
/// `window` jobs are started and not yet consumed, so memory holds at most `window` results.
public enum OrderedParallel {
    /// Runs jobs `0..<count`, at most `window` (at least 1) ahead of the one `consume` takes next;
    /// `consume` gets each result in job order. The first error thrown by a job or by `consume`
    /// cancels the jobs still running and is rethrown.
    public static func run<R: Sendable>(
        count: Int, window: Int, job: @escaping @Sendable (Int) throws -> R, consume: (Int, R) throws -> Void
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
                    try consume(consumed, result)
                    consumed += 1
                }
            }
        }
    }
}
