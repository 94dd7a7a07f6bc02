import Foundation

/// Names the worlds in progress when the process traps (a service's `fatalError`, a failed `precondition`,
/// an overflow, a bad access): each worker's reproduce line is written before its world runs, and a handler
/// for SIGILL, SIGTRAP, SIGABRT, SIGSEGV and SIGBUS writes them to stderr, then lets the signal take its
/// course. So a trap never loses the seed.
final class TrapReporter: Sendable {
    /// Bytes a line may take (the rest is cut).
    private static let lineCapacity = 512
    /// The signals reported.
    private static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS]
    /// One line per worker, written by that worker only; read by the handler.
    nonisolated(unsafe) private static var lines: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var workers = 0

    private let line: @Sendable (UInt64) -> String

    /// A reporter for `workers` threads; `line` renders a seed's reproduce line.
    init(workers: Int, line: @escaping @Sendable (UInt64) -> String) {
        self.line = line
        Self.lines?.deallocate()
        Self.lines = .allocate(capacity: workers * Self.lineCapacity)
        Self.lines!.initialize(repeating: 0, count: workers * Self.lineCapacity)
        Self.workers = workers
        Self.install()
    }

    /// Records that `worker` is about to run the world of `seed`.
    func starting(_ worker: Int, _ seed: UInt64) {
        let text = Array("simulate: the process trapped while running the world of seed \(seed); reproduce: \(line(seed))\n".utf8CString)
        let slot = Self.lines! + worker * Self.lineCapacity
        let count = min(text.count, Self.lineCapacity)
        text.withUnsafeBufferPointer { slot.update(from: $0.baseAddress!, count: count) }
        slot[count - 1] = 0
    }

    /// Records that `worker`'s world ended.
    func finished(_ worker: Int) {
        Self.lines![worker * Self.lineCapacity] = 0
    }

    private static func install() {
        var action = sigaction()
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
        let handler: @convention(c) (Int32) -> Void = { _ in
            guard let lines = TrapReporter.lines else { return }
            for worker in 0..<TrapReporter.workers {
                let slot = lines + worker * TrapReporter.lineCapacity
                let length = strlen(slot)
                if length > 0 { _ = write(2, slot, length) }
            }
            // SA_RESETHAND put the default action back: returning re-runs the trapping instruction, or (abort)
            // raises again, and the process ends as it would have.
        }
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaction(signal, &action, nil) }
    }
}
