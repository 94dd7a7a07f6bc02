import Foundation
@_spi(Tooling) import Scenarios
import ServiceLoad
@_spi(Tooling) import ServiceSimulation

/// Load mode's driver against a service that answers at once: the harness's own cost per request, which
/// must leave a service room for >= 1,000,000 requests a second on 2 cores (docs/your-service.md).
@_spi(Tooling) public struct ServiceLoadWorkload: Sendable {
    let workload: LoadWorkload

    /// The smoke scenario's payment stream (`users` users × 14 days), split among `clients` clients.
    @_spi(Tooling) public init(users: Int = 3_000, clients: Int = 8) {
        var scenario = try! ScenarioParser.parse(ScenarioCatalog.embeddedText("smoke")!, file: "smoke")
        scenario.users = users
        scenario.days = 14
        workload = LoadWorkload(scenario: scenario, seed: 42, clients: clients)
    }

    /// Requests one pass sends.
    @_spi(Tooling) public var requests: Int { workload.requests.count }

    /// Sends every request once, through a service that answers at once; the requests answered.
    @_spi(Tooling) public func run() async -> Int {
        let driver = LoadDriver<InstantService>(workload: workload, schedule: nil, rankOffset: 0, start: monotonicNanos(), deadline: nil)
        return await driver.run(InstantService()).reduce(0) { $0 + $1.sent }
    }

    /// `run()`, from a thread that is not the concurrency pool's (a benchmark's): blocks until it ends.
    @_spi(Tooling) public func runBlocking() -> Int {
        let done = DispatchSemaphore(value: 0)
        let answered = Answered()
        Task {
            answered.count = await run()
            done.signal()
        }
        done.wait()
        return answered.count
    }
}

/// A service that answers every request captured, at once.
struct InstantService: ServiceUnderSimulation {
    static func start(in environment: ServiceEnvironment) async throws -> InstantService { InstantService() }
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer { ServiceAnswer(state: .captured) }
    func ledger() async throws -> [ServiceLedgerLine] { [] }
}

/// The count a task hands back to a blocked thread (written before the semaphore's signal, read after its wait).
private final class Answered: @unchecked Sendable {
    var count = 0
}
