@_spi(Tooling) import BenchmarkWorkloads
import Testing

@Suite("load mode's driver workload")
struct ServiceLoadWorkloadTests {
    @Test("every request of the stream is sent once")
    func everyRequestSentOnce() async {
        // Given a small stream split among 4 clients
        let sut = ServiceLoadWorkload(users: 40, clients: 4)

        // When it runs from a task
        let fromTask = await sut.run()

        // Then every request is sent once
        #expect(sut.requests > 0)
        #expect(fromTask == sut.requests)
    }
}
