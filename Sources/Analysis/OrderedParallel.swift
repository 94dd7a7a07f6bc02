/// Runs `count` jobs on up to `width` child tasks and hands their results to `consume` in job
/// order, holding at most a few results at a time.
enum OrderedParallel {
    static func run<R: Sendable>(
        count: Int, width: Int, job: @escaping @Sendable (Int) -> R, consume: (R) throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Int, R).self) { group in
            var next = 0
            var ready: [Int: R] = [:]
            var written = 0
            func start() {
                guard next < count else { return }
                let index = next
                group.addTask {
                    try Task.checkCancellation()
                    return (index, job(index))
                }
                next += 1
            }
            for _ in 0..<(max(1, width) + 1) { start() }
            while let (index, result) = try await group.next() {
                ready[index] = result
                while let result = ready.removeValue(forKey: written) {
                    try consume(result)
                    written += 1
                }
                start()
            }
        }
    }
}
