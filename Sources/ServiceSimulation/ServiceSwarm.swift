import Foundation
@_spi(Tooling) import SimulationCore

/// A swarm of worlds of one service (`Swarm`): consecutive seeds on several threads, each world alone on its own.
@_spi(Tooling) public struct ServiceSwarm: Sendable {
    /// The worlds' shape; each world takes its seed from the swarm's.
    @_spi(Tooling) public var template: ServiceWorldConfiguration
    /// The seeds, the shard and the number of worlds run side by side.
    @_spi(Tooling) public var swarm: Swarm
    /// `mixed`: even seeds run uniformly at random, odd ones under PCT with 3 change points.
    @_spi(Tooling) public var mixedSchedules: Bool

    /// A swarm of `count` worlds shaped like `template`, from seed `from`.
    @_spi(Tooling) public init(template: ServiceWorldConfiguration, from: UInt64, count: Int, shard: (index: Int, count: Int) = (0, 1), mixedSchedules: Bool, tasks: Int) {
        self.template = template
        swarm = Swarm(from: from, count: count, shard: shard, tasks: tasks)
        self.mixedSchedules = mixedSchedules
    }

    /// Worlds run side by side.
    @_spi(Tooling) public var tasks: Int { swarm.tasks }

    /// The configuration of seed `seed`.
    @_spi(Tooling) public func configuration(seed: UInt64) -> ServiceWorldConfiguration {
        var configuration = template
        configuration.seed = seed
        if mixedSchedules { configuration.schedule = seed.isMultiple(of: 2) ? .random : .pct(changePoints: 3) }
        return configuration
    }

    /// Runs every world of the swarm (`world` runs one; `watch` hears each worker's seed before and after
    /// its world runs, on the worker's thread) and adds them up; the first failing world runs again with its
    /// events kept.
    @_spi(Tooling) public func run(_ world: @escaping @Sendable (ServiceWorldConfiguration) -> ServiceWorldReport, watch: Swarm.Watch = .none) -> ServiceSwarmSummary {
        let shape = self
        var summary = swarm.run({ seed in
            var configuration = shape.configuration(seed: seed)
            configuration.keepsHistory = false  // a passing world's events are never looked at: memory stays flat
            return world(configuration)
        }, into: ServiceSwarmSummary(), fold: { summary, report in
            summary.add(report)
            return true  // every world is added up
        }, watch: watch)
        if let failing = summary.firstFailure { summary.firstFailure = Self.again(failing, running: world) }
        return summary
    }

    /// A failing world run again with its history kept (its events were not written down the first time):
    /// the same world, or a violation saying that it was not.
    static func again(_ failing: ServiceWorldReport, running world: (ServiceWorldConfiguration) -> ServiceWorldReport) -> ServiceWorldReport {
        var configuration = failing.configuration
        configuration.keepsHistory = true
        var report = world(configuration)
        if report.traceHash != failing.traceHash || report.violation != failing.violation {
            report.violation = Violation(
                .nondeterministicWorld,
                "seed \(ReproduceLine.hex(configuration.seed)) ran two ways in one process: first \(failing.violation.map(String.init(describing:)) ?? "no violation") "
                    + "(trace hash 0x\(String(failing.traceHash, radix: 16))), then \(report.violation.map(String.init(describing:)) ?? "no violation") "
                    + "(trace hash 0x\(String(report.traceHash, radix: 16))): something the world does not own chose between them")
        }
        return report
    }
}

/// The sum of a swarm's worlds, and its first failing world (the lowest seed).
@_spi(Tooling) public struct ServiceSwarmSummary: Sendable {
    /// Worlds run.
    @_spi(Tooling) public var worlds = 0
    /// Jobs run in all.
    @_spi(Tooling) public var steps = 0
    /// Crashes of the service.
    @_spi(Tooling) public var crashes = 0
    /// Client requests, retries included.
    @_spi(Tooling) public var requests = 0
    /// Keys the gateway acted for.
    @_spi(Tooling) public var gatewayActs = 0
    /// Worlds that broke an invariant.
    @_spi(Tooling) public var failed = 0
    /// The failing world of the lowest seed.
    @_spi(Tooling) public var firstFailure: ServiceWorldReport?
    /// A hash of every world's trace hash, in seed order: the same whatever `tasks` is.
    @_spi(Tooling) public var traceHash: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Adds a world's report: worlds must come in seed order (the trace hash is of that order).
    mutating func add(_ report: ServiceWorldReport) {
        worlds += 1
        steps += report.steps
        crashes += report.crashes
        requests += report.requests
        gatewayActs += report.gatewayActs
        traceHash = (traceHash ^ report.traceHash) &* 0x0000_0100_0000_01B3
        guard report.violation != nil else { return }
        failed += 1
        if firstFailure == nil { firstFailure = report }
    }
}

extension ServiceWorld {
    /// The smallest world found that still fails like `failing`'s does (the same invariant): half the
    /// payments, half the clients, half the crashes, the first that still fails taken and shrunk in turn.
    @_spi(Tooling) public static func shrink(
        _ failing: ServiceWorldReport, running world: @escaping (ServiceWorldConfiguration) -> ServiceWorldReport
    ) -> ServiceWorldReport {
        SeededServiceWorlds(running: world).shrink(failing)
    }
}

/// The seeded worlds of one service, as the shrinker runs them.
struct SeededServiceWorlds: WorldRunner {
    let running: (ServiceWorldConfiguration) -> ServiceWorldReport

    func run(_ configuration: ServiceWorldConfiguration) -> ServiceWorldReport? { running(configuration) }



    /// Half the payments, half the clients, half the crashes.
    func smaller(than configuration: ServiceWorldConfiguration) -> [ServiceWorldConfiguration] {
        var candidates: [ServiceWorldConfiguration] = []
        func with(_ smaller: Bool, _ change: (inout ServiceWorldConfiguration) -> Void) {
            guard smaller else { return }
            var candidate = configuration
            change(&candidate)
            candidates.append(candidate)
        }
        with(configuration.payments > 1) { $0.payments /= 2 }
        with(configuration.clients > 1) { $0.clients /= 2 }
        with(configuration.crashes > 0) { $0.crashes /= 2 }
        return candidates
    }
}
