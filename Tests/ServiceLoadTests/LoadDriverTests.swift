import Foundation
@_spi(Tooling) import RunResults
import PaymentsCore
@_spi(Tooling) import Scenarios
@testable import ServiceLoad
@_spi(Tooling) import ServiceSimulation
import Testing

@Suite("load mode's driver")
struct LoadDriverTests {
    private static func workload(clients: Int) throws -> LoadWorkload {
        var plan = try RunPlan.load("smoke")
        plan.scenario.users = 40
        plan.scenario.days = 7
        return LoadWorkload(scenario: plan.scenario, seed: 7, clients: clients)
    }

    @Test("every request of the stream is sent once, each user's on one client in order, and timed once", arguments: [1, 3, 8])
    func sendsEveryRequestOnce(clients: Int) async throws {
        // Given a stream of 40 users dealt to the clients, and a service that counts what it is sent
        let workload = try Self.workload(clients: clients)
        let service = CountingService(tag: "driver-\(clients)-")
        let sut = LoadDriver<CountingService>(workload: workload, schedule: nil, rankOffset: 0, start: monotonicNanos(), deadline: nil)
        // When the driver runs a closed pass
        let figures = await sut.run(service)
        // Then every request was sent once and answered, with one latency each
        let seen = CountingService.seen.withLock { $0.filter { $0.key.hasPrefix(service.tag) } }
        #expect(!workload.requests.isEmpty)
        #expect(seen.count == workload.requests.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(figures.map(\.sent) == workload.lanes.map(\.count))
        #expect(figures.allSatisfy { Int($0.serviceNanos.count) == $0.sent && $0.answers.allSatisfy { $0 != nil } })
        // And each user's requests are on one client, in the stream's order
        for lane in workload.lanes {
            #expect(lane == lane.sorted())
            let users = Set(lane.map { workload.requests[Int($0)].userID })
            #expect(workload.lanes.filter { $0 != lane }.allSatisfy { other in other.allSatisfy { !users.contains(workload.requests[Int($0)].userID) } })
        }
    }

    @Test("an open load records each request's latency from when it was due")
    func openLoadRecordsResponseLatency() async throws {
        // Given a stream and an arrival rate of 20,000 requests/s
        let workload = try Self.workload(clients: 2)
        let schedule = ArrivalSchedule(startRate: 20_000, stages: [RampStage(duration: .seconds(10), target: 20_000)])
        let sut = LoadDriver<CountingService>(workload: workload, schedule: schedule, rankOffset: 0, start: monotonicNanos(), deadline: nil)
        // When the driver runs a pass
        let figures = await sut.run(CountingService(tag: "open-"))
        // Then every request has a corrected latency, and the pass lasted about as long as the schedule asked
        let total = figures.reduce(0) { $0 + $1.sent }
        #expect(total == workload.requests.count)
        #expect(figures.reduce(0) { $0 + Int($1.responseMicros.count) } == total)
    }

    @Test("a deadline is looked at every 256 requests of a client, after its first 256")
    func deadlineStops() async throws {
        // Given one client with more than 256 requests, and a deadline already past
        var plan = try RunPlan.load("smoke")
        (plan.scenario.users, plan.scenario.days) = (100, 7)
        let workload = LoadWorkload(scenario: plan.scenario, seed: 7, clients: 1)
        #expect(workload.requests.count > 256)
        let sut = LoadDriver<CountingService>(workload: workload, schedule: nil, rankOffset: 0, start: monotonicNanos(), deadline: monotonicNanos())
        // When the driver runs
        let figures = await sut.run(CountingService(tag: "deadline-"))
        // Then the client stopped at its first look at the clock
        #expect(figures.map(\.sent) == [256])
    }
}
