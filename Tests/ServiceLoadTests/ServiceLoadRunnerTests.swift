@_spi(Tooling) import PlantedFlaws
@_spi(Tooling) import ServiceFixtures
import Foundation
@_spi(Tooling) import RunResults
import PaymentsCore
@_spi(Tooling) import Scenarios
@testable import ServiceLoad
@_spi(Tooling) import ServiceSimulation
import Testing

@Suite("load mode: a user's service against the SPEC reference")
struct ServiceLoadRunnerTests {
    private static func plan(_ scenario: String = "smoke", users: Int = 60) throws -> RunPlan {
        var plan = try RunPlan.load(scenario)
        plan.scenario.users = users
        plan.scenario.days = 14
        plan.load = .fixed
        plan.thresholds = []
        return plan
    }

    @Test("the correct service matches the reference on every request and the ledger")
    func correctServicePasses() async throws {
        // Given the correct fixture service and a stream of 60 users
        let plan = try Self.plan()
        // When it is run from 4 clients
        let sut = try await ServiceLoadRunner.run(LedgerService<Correct>.self, plan, options: .init(clients: 4, seed: 11))
        // Then every request was answered as the reference answers, the ledgers agree, and the run passes
        let check = try #require(sut.check)
        #expect(check.mismatches == 0, "\(check.listed.prefix(3))")
        #expect(sut.metrics.payments.events == LoadWorkload(scenario: plan.scenario, seed: 11, clients: 4).requests.count)
        #expect(sut.metrics.payments.eventLatency.count == UInt64(sut.metrics.payments.events))
        #expect(sut.metrics.payments.batchLatency.count == UInt64(sut.metrics.payments.events))
        #expect(sut.passed)
    }

    @Test("a service that charges twice is caught, the payment named")
    func doubleChargeCaught() async throws {
        // Given a service that sends each charge to the gateway under two keys
        let plan = try Self.plan()
        // When it is run
        let sut = try await ServiceLoadRunner.run(DoubleChargingService.self, plan, options: .init(clients: 2, seed: 11))
        // Then the gateway's second act is a mismatch naming the payment, and the run fails
        let check = try #require(sut.check)
        #expect(check.byField["gateway.acts", default: 0] > 0)
        #expect(check.listed.contains { $0.field == "gateway.acts" && $0.row.hasPrefix("payment p") })
        #expect(!sut.passed)
    }

    @Test("a planted flaw of the fixture service is caught", arguments: [PlantedFlaw.retryWithoutKey, .timeoutIsFailure])
    func plantedFlawCaught(flaw: PlantedFlaw) async throws {
        // Given the fixture service with a flaw planted
        let plan = try Self.plan("faults", users: 60)
        // When it is run
        let sut = switch flaw {
        case .retryWithoutKey: try await ServiceLoadRunner.run(LedgerService<RetryWithoutKey>.self, plan, options: .init(clients: 4, seed: 11))
        default: try await ServiceLoadRunner.run(LedgerService<TimeoutIsFailure>.self, plan, options: .init(clients: 4, seed: 11))
        }
        // Then the check finds mismatches and the run fails
        #expect(try #require(sut.check).mismatches > 0)
        #expect(!sut.passed)
    }

    @Test("a time-limited load makes passes until its time is up")
    func durationMakesPasses() async throws {
        // Given a 1 s duration load over a small stream
        var plan = try Self.plan(users: 5)
        plan.load = .duration(.seconds(1))
        // When the correct service is run
        let began = ContinuousClock.now
        let sut = try await ServiceLoadRunner.run(LedgerService<Correct>.self, plan, options: .init(clients: 2, seed: 3))
        // Then whole passes went through until the second was over, and they match the reference
        let perPass = LoadWorkload(scenario: plan.scenario, seed: 3, clients: 2).requests.count
        #expect(ContinuousClock.now - began >= .seconds(1))
        #expect(sut.metrics.payments.events >= perPass)
        #expect(sut.metrics.payments.events % perPass == 0)
        #expect(sut.check?.mismatches == 0)
    }
}
