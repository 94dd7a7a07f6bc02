import Foundation
import PaymentsCore
@testable import ServiceLoad
@_spi(Tooling) import ServiceSimulation
import Testing

@Suite("load mode's environment: a gateway that answers at once, records in memory, a clock that never waits")
struct LoadEnvironmentTests {
    @Test("a commit writes and removes its records at once; a key in both is removed")
    func commitWritesAndRemoves() async throws {
        // Given load mode's records with two records
        let (environment, _) = ServiceEnvironment.load(scripts: [:], origin: .now)
        let sut = environment.store
        try await sut.write("payment/u1/k1", Data("old".utf8))
        try await sut.write("payment/u1/k2", Data("gone".utf8))
        // When one commit rewrites the first, removes the second, and names a third in both lists
        try await sut.commit(writing: ["payment/u1/k1": Data("new".utf8), "payment/u2/k3": Data("x".utf8)], removing: ["payment/u1/k2", "payment/u2/k3"])
        // Then the reads see exactly that, in byte order, with no sync needed
        try await sut.sync()
        #expect(try await sut.keys() == ["payment/u1/k1"])
        #expect(try await sut.read("payment/u1/k1") == Data("new".utf8))
        try await sut.remove("payment/u1/k1")
        #expect(try await sut.keys(withPrefix: "payment/") == [])
    }

    @Test("the clock's sleeps return at once, and it counts from the run's origin")
    func clockNeverWaits() async throws {
        // Given load mode's clock, whose origin is an hour ago
        let origin = ContinuousClock.now - .seconds(3_600)
        let (environment, _) = ServiceEnvironment.load(scripts: [:], origin: origin)
        // When it sleeps for an hour
        let before = ContinuousClock.now
        try await environment.clock.sleep(for: .seconds(3_600))
        // Then no real hour passed, and the time since the origin is at least an hour
        #expect(before.duration(to: .now) < .seconds(60))
        #expect(environment.sinceOrigin >= .seconds(3_600))
    }

    @Test("the gateway follows each payment's script once per key, then answers approved; it keeps what it did")
    func gatewayFollowsScripts() async throws {
        // Given a gateway whose script for p1 declines, then approves
        let (environment, gateway) = ServiceEnvironment.load(scripts: ["p1": GatewayScript([.declined, .approved])], origin: .now)
        let payment = GatewayPayment(idempotencyKey: "gw-k1", paymentID: "p1", userID: "u1", kind: .charge, amountMinor: 100, currency: .usd)
        // When it is called three times under one key
        await #expect(throws: GatewayError.declined) { try await environment.gateway.process(payment) }
        let approved = try await environment.gateway.process(payment)
        let again = try await environment.gateway.process(payment)
        // Then it declined, acted once, and says so
        #expect(approved.idempotencyKey == "gw-k1" && again.idempotencyKey == "gw-k1")
        #expect(try await environment.gateway.hasActed(idempotencyKey: "gw-k1"))
        #expect(gateway.acts == ["gw-k1": payment])
    }
}
