@_spi(Tooling) import SimulationCore
@_spi(Tooling) import ServiceFixtures
@_spi(Tooling) import ServiceSimulation

/// Worlds of a service on the seeded-executor path, one seed after another (100 payments, 8 clients,
/// faults and 2 crashes: the world): SimHarness's own service behind `OwnPaymentService`, or
/// the `LedgerService` fixture. `simharness-workloads own-service-worlds N` times N of them
/// (docs/performance.md, "One engine").
package struct ServiceWorldsWorkload {
    /// Which service runs.
    package enum Service: Sendable {
        /// `OwnPaymentService`: the own sans-I/O service, adapted.
        case own
        /// `LedgerService<Correct>`: a service written as users write theirs.
        case ledger
    }

    let service: Service
    private var seed: UInt64 = 0

    /// Worlds of `service`, from seed 0.
    package init(service: Service) { self.service = service }

    /// Runs the next seed's world; returns its trace hash, with 1 added when it broke an invariant.
    package mutating func run() -> UInt64 {
        let configuration = ServiceWorldConfiguration(seed: seed)
        seed += 1
        let report = switch service {
        case .own: ServiceWorld.run(OwnPaymentService<OwnServiceAsShipped>.self, configuration)
        case .ledger: ServiceWorld.run(LedgerService<Correct>.self, configuration)
        }
        return report.traceHash &+ (report.violation == nil ? 0 : 1)
    }
}
