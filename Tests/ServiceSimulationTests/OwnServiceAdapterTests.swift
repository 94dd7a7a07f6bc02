@_spi(Tooling) import SimulationCore
@_spi(Tooling) import ServiceFixtures
@_spi(Tooling) import ServiceSimulation
import Testing

/// The first failing world of `seeds` for `Service` (100 payments, 8 clients), nil when every one holds.
private func firstFailure<Service: ServiceUnderSimulation>(_ service: Service.Type, seeds: Range<UInt64>, schedule: ScheduleStrategy) -> ServiceWorldReport? {
    seeds.lazy
        .map { ServiceWorld.run(service, ServiceWorldConfiguration(seed: $0, payments: 100, clients: 8, schedule: schedule)) }
        .first { $0.violation != nil }
}

@Suite("SimHarness's own service on the seeded-executor path")
struct OwnServiceAdapterTests {
    @Test("the own service holds in every world, with crashes, faults and duplicates", arguments: [ScheduleStrategy.random, .pct(changePoints: 3)])
    func ownServiceHolds(schedule: ScheduleStrategy) {
        // Given the own sans-I/O service behind the adapter; When 100 worlds of 100 payments and 8 clients run
        let failure = firstFailure(OwnPaymentService<OwnServiceAsShipped>.self, seeds: 0..<100, schedule: schedule)

        // Then none breaks an invariant
        #expect(failure?.violation == nil, "\(failure.map { "seed \($0.configuration.seed): \($0.violation!)\n" + $0.eventsAround().joined(separator: "\n") } ?? "")")
    }

    @Test("a defect planted in the own service is caught on this path, and its world runs the same way again")
    func plantedDefectIsCaught() throws {
        // Given the own service that retries a timed-out attempt under a new gateway key
        let sut = OwnPaymentService<OwnRetryWithoutKey>.self

        // When worlds run until one fails
        let failing = try #require(firstFailure(sut, seeds: 0..<200, schedule: .random))

        // Then the gateway charged one payment twice (or once, the client told it was declined: the second key's
        // answer, caught at that step), and the same world fails the same way with the same trace
        #expect([Invariant.chargedTwice, .moneyButAnsweredFailed].contains(failing.violation?.invariant))
        let again = ServiceWorld.run(sut, failing.configuration)
        #expect(again.traceHash == failing.traceHash)
        #expect(again.violation == failing.violation)
    }
}
