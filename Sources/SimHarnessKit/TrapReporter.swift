import Foundation
@_spi(Tooling) import SimulationCore

/// Names the worlds in progress when the process traps (a service's `fatalError`, a failed `precondition`,
/// an overflow, a bad access): each worker's reproduce line is written before its world runs, and a handler
/// for SIGILL, SIGTRAP, SIGABRT and SIGSEGV writes them to stderr, puts back the handler it replaced (the
/// Swift runtime's backtracer, say) and lets the signal take its course. So a trap never loses the seed.
///
/// The lines live in one process-wide table, allocated once and never freed (the handler may read it at any
/// moment); each reporter reserves slots in it and gives them back, so swarms that run at the same time (tests
/// in parallel) never write into each other's lines.
final class TrapReporter: @unchecked Sendable {
    /// Bytes a line may take (the rest is cut).
    private static let lineCapacity = 512
    /// Lines in the table: workers of all swarms running at once (more get no line).
    private static let capacity = 256
    /// The signals reported (not SIGBUS: `TruncationGuard` turns a truncated mapped file's into a message).
    private static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV]
    /// The actions these signals had before, by signal number, put back by the handler.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
        actions.initialize(repeating: sigaction(), count: 32)
        return actions
    }()
    /// The table, set once; read by the handler.
    nonisolated(unsafe) private static var table: UnsafeMutablePointer<CChar>?
    private static let lock = NSLock()
    nonisolated(unsafe) private static var reserved = [Bool](repeating: false, count: capacity)

    private let line: @Sendable (UInt64) -> String
    /// Each worker's slot in the table, nil when none was free.
    private let slots: [Int?]

    /// A reporter for `workers` threads; `line` renders a seed's reproduce line.
    init(workers: Int, line: @escaping @Sendable (UInt64) -> String) {
        self.line = line
        slots = Self.lock.withLock {
            if Self.table == nil {
                let table = UnsafeMutablePointer<CChar>.allocate(capacity: Self.capacity * Self.lineCapacity)
                table.initialize(repeating: 0, count: Self.capacity * Self.lineCapacity)
                Self.table = table
                Self.install()
            }
            return (0..<workers).map { _ in
                guard let free = Self.reserved.firstIndex(of: false) else { return nil }
                Self.reserved[free] = true
                return free
            }
        }
    }

    deinit {
        Self.lock.withLock {
            for slot in slots.compactMap({ $0 }) {
                Self.table![slot * Self.lineCapacity] = 0
                Self.reserved[slot] = false
            }
        }
    }

    /// The swarm's watch that keeps the lines: each worker's, while its world runs.
    var watch: Swarm.Watch { Swarm.Watch(starting: starting, finished: finished) }

    /// Records that `worker` is about to run the world of `seed`.
    func starting(_ worker: Int, _ seed: UInt64) {
        guard let slot = slots[worker] else { return }
        let text = Array("simulate: the process trapped while running the world of seed \(seed); reproduce: \(line(seed))\n".utf8CString)
        let start = Self.table! + slot * Self.lineCapacity
        let count = min(text.count, Self.lineCapacity)
        text.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: count) }
        start[count - 1] = 0
    }

    /// Records that `worker`'s world ended.
    func finished(_ worker: Int) {
        guard let slot = slots[worker] else { return }
        Self.table![slot * Self.lineCapacity] = 0
    }

    private static func install() {
        var action = sigaction()
        let handler: @convention(c) (Int32) -> Void = { signal in
            if let table = TrapReporter.table {
                for slot in 0..<TrapReporter.capacity {
                    let start = table + slot * TrapReporter.lineCapacity
                    let length = strlen(start)
                    if length > 0 { _ = write(2, start, length) }
                }
            }
            // The handler we replaced comes back: returning re-runs the trapping instruction, or (abort) raises
            // again, and the process ends as it would have.
            sigaction(signal, TrapReporter.previous + Int(signal), nil)
        }
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        for signal in signals { sigaction(signal, &action, previous + Int(signal)) }
    }
}
