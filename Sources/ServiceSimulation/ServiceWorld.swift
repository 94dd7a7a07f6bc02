import Foundation
import PaymentsCore
@_spi(Tooling) import SimulationCore

/// One simulated world of a user's service: what the seed draws from.
@_spi(Tooling) public struct ServiceWorldConfiguration: Hashable, Sendable {
    /// The seed: the workload, the gateway's scripts and latencies, the crash points and the interleaving.
    @_spi(Tooling) public var seed: UInt64
    /// Client payments (each sent until it gets an answer).
    @_spi(Tooling) public var payments: Int
    /// Concurrent clients.
    @_spi(Tooling) public var clients: Int
    /// Gateway faults (declines, timeouts, lost answers, slow answers) and duplicate concurrent submissions.
    @_spi(Tooling) public var faults: Bool
    /// Crashes of the service, at jobs the seed chooses; with `faults`, every other one (by the seed) is a
    /// power loss, which also loses the store's writes since its last sync.
    @_spi(Tooling) public var crashes: Int
    /// How the next job is chosen.
    @_spi(Tooling) public var schedule: ScheduleStrategy
    /// How long the gateway keeps a caller waiting before a timeout.
    @_spi(Tooling) public var gatewayTimeout: Duration = .seconds(2)
    /// Tries a client makes before it gives up (a request never answered is a violation).
    @_spi(Tooling) public var clientTries = 10
    /// How long (real time) an idle world waits for work from outside before it calls the wait a deadlock
    /// (`SeededWorld.run`'s `escapeGrace`).
    @_spi(Tooling) public var escapeGrace: Duration = .milliseconds(100)
    /// Whether the world's events are written down (its `history`): a swarm runs its worlds without, and
    /// runs its first failing world again with them.
    var keepsHistory = true

    /// A world; the defaults are the issue's: 100 payments, 8 clients, faults on, 2 crashes, uniform schedule.
    @_spi(Tooling) public init(seed: UInt64, payments: Int = 100, clients: Int = 8, faults: Bool = true, crashes: Int = 2, schedule: ScheduleStrategy = .random) {
        self.seed = seed
        self.payments = payments
        self.clients = clients
        self.faults = faults
        self.crashes = crashes
        self.schedule = schedule
    }
}

/// What a seeded world counts besides its jobs and crashes.
@_spi(Tooling) public struct ServiceWorldCounts: WorldCounts, Hashable {
    /// The schedule's hash: the same for the same configuration on every run.
    @_spi(Tooling) public var traceHash: UInt64 = 0
    /// Virtual time at the end.
    @_spi(Tooling) public var virtualTime = Duration.zero
    /// Keys the gateway acted for.
    @_spi(Tooling) public var gatewayActs = 0
    /// Client requests sent, retries included.
    @_spi(Tooling) public var requests = 0
    /// The world's events (virtual time, then what happened), for the lines around a violation.
    @_spi(Tooling) public var history: [String] = []

    @_spi(Tooling) public init() {}
}

/// What one seeded world of a user's service found.
@_spi(Tooling) public typealias ServiceWorldReport = WorldReport<ServiceWorldConfiguration, ServiceWorldCounts>

extension WorldReport where Counts == ServiceWorldCounts {
    /// The events about the violation's payments, with every crash and restart (the last `limit`); the last
    /// events of the world when the violation names no payment.
    @_spi(Tooling) public func eventsAround(limit: Int = 40) -> [String] {
        let history = counts.history
        guard let subjects = violation?.subjects, !subjects.isEmpty else { return Array(history.suffix(limit)) }
        let patterns = Set(subjects)
        let relevant = history.filter { line in
            line.contains("crash") || line.contains("power loss") || line.contains("started")
                || line.split(whereSeparator: { " (,:".contains($0) }).contains { word in
                    patterns.contains(String(word)) || patterns.contains(String(word.split(separator: "-").first ?? word))
                        || (word.hasPrefix("gw-") && patterns.contains(String(word.dropFirst(3).split(separator: "-").first ?? "")))
                }
        }
        return Array(relevant.suffix(limit))
    }
}

/// Runs worlds of a user's service.
@_spi(Tooling) public enum ServiceWorld {
    /// Runs one world of `service` under `configuration`.
    @_spi(Tooling) public static func run<Service: ServiceUnderSimulation>(_ service: Service.Type, _ configuration: ServiceWorldConfiguration) -> ServiceWorldReport {
        let workload = ClientWorkload(configuration: configuration)
        let crashPoints = CrashPoints(configuration: configuration, expectedSteps: 60 * configuration.payments)
        var report = ServiceWorldReport(configuration: configuration)
        let holder = StateHolder()
        do {
            let run = try SeededWorld.run(
                seed: configuration.seed, schedule: configuration.schedule, stepLimit: 2_000 * max(1, configuration.payments),
                expectedSteps: crashPoints.horizon, escapeGrace: configuration.escapeGrace, onStep: { step in if let power = crashPoints.points[step] { holder.runner?.crash(powerLoss: power) } }
            ) { clock in
                let runner = ServiceRunner<Service>(state: WorldState(configuration: configuration, clock: clock), workload: workload)
                holder.runner = runner
                return try await runner.run()
            }
            (report.steps, report.traceHash, report.virtualTime) = (run.steps, run.traceHash, run.virtualTime)
            switch run.value {
            case .success(let violation): report.violation = violation
            case .failure(let error): report.violation = Violation(.harnessError, "\(error)")
            }
        } catch {
            report.violation = Violation(error.invariant, error.detail)
        }
        if let runner = holder.runner {
            report.crashes = runner.crashes
            report.gatewayActs = runner.state.acts.count
            report.requests = runner.requests
            report.history = runner.state.history
        }
        return report
    }
}

/// The runner of the world in progress, for the step hook (both on the world's thread).
private final class StateHolder: @unchecked Sendable {
    var runner: (any CrashableWorld)?
}

/// A world whose service can be crashed between two jobs, and what it counted.
protocol CrashableWorld: AnyObject {
    var state: WorldState { get }
    var crashes: Int { get }
    var requests: Int { get }
    func crash(powerLoss: Bool)
}

/// The jobs after which the service crashes: `crashes` of them, drawn from the seed below a horizon of
/// about the jobs a world runs, each a power loss or not.
struct CrashPoints: Sendable {
    /// The job after which a crash comes, and whether it is a power loss.
    let points: [Int: Bool]
    let horizon: Int

    init(configuration: ServiceWorldConfiguration, expectedSteps: Int) {
        let horizon = max(10, expectedSteps)
        var generator = SplitMix64(seed: configuration.seed ^ 0xC4A5_0000)
        var points: [Int: Bool] = [:]
        for _ in 0..<configuration.crashes {
            let step = 1 + Int(generator.next() % UInt64(horizon))
            points[step] = configuration.faults && generator.next() % 2 == 0
        }
        self.points = points
        self.horizon = horizon
    }
}

extension SeededWorldFailure {
    /// What failed, without its kind.
    var detail: String {
        switch self {
        case .escaped(let text), .deadlock(let text): text
        case .stepLimit(let steps): "no end after \(steps) jobs: a task that yields for ever (raise the limit if the world is that big)"
        }
    }

    /// The invariant of the catalogue it breaks.
    var invariant: Invariant {
        switch self {
        case .escaped: .nondeterminismEscaped
        case .deadlock: .deadlock
        case .stepLimit: .stepLimit
        }
    }
}
