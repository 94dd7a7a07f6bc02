@_spi(Tooling) import BenchmarkWorkloads
import Testing

@Suite("ServiceWorldsWorkload: the worlds simharness-workloads times on the seeded-executor path")
struct ServiceWorldsWorkloadTests {
    @Test("the same service gives the same worlds on every run, one seed after another", arguments: [
        ServiceWorldsWorkload.Service.own, .ledger,
    ])
    func deterministic(service: ServiceWorldsWorkload.Service) {
        // Given two workloads of the same service
        var sut = ServiceWorldsWorkload(service: service)
        var again = ServiceWorldsWorkload(service: service)

        // When each runs its first three worlds
        let first = (0..<3).map { _ in sut.run() }
        let second = (0..<3).map { _ in again.run() }

        // Then they are the same worlds, and consecutive seeds are different worlds
        #expect(first == second)
        #expect(Set(first).count == 3)
    }
}
