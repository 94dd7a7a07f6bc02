@_spi(Tooling) import PaymentService
import PaymentsCore
import Testing
import TestSupport

/// The two orders of steps besides SPEC §4's, which planted flaws choose: each loses what SPEC §4's
/// order keeps when the service crashes right after its gateway call.
@Suite("The service's procedure: SPEC §4's order of steps, and the two others")
struct ServiceProcedureTests {
    private static let charge = PaymentBuilder().id(1).key(1).charge()

    @Test("a crash right after the call: with the intent first the attempt is reconciled, with it after the call it is sent again", arguments: [
        (ServiceProcedure.Intent.beforeCall, 1, 1), (.afterCall, 0, 2),
    ])
    func intentOrder(intent: ServiceProcedure.Intent, reconciles: Int, sendsOfAttemptZero: Int) throws {
        // Given a charge whose attempt 0 just went to the gateway
        let sut = ServiceDriver(configuration: ServiceConfiguration(procedure: ServiceProcedure(intent: intent)))
        sut.deliver(.request(Self.charge.request(user: 1), client: 1), runSteps: false)
        for _ in 0..<3 where sut.calls.isEmpty { sut.runNextStep() }
        try #require(sut.calls.count == 1)
        // When the service crashes and restarts, and runs what it scheduled
        try sut.restart()
        sut.runSteps()
        // Then SPEC §4's order asks the gateway; the other sends attempt 0 again
        #expect(sut.reconciles.count == reconciles)
        #expect(sut.calls.filter { $0.attempt == 0 }.count == sendsOfAttemptZero)
    }

    @Test("a restart with an attempt out: SPEC §4 asks the gateway, the other order fails the payment unasked", arguments: [
        (ServiceProcedure.Restart.reconcile, 1, Optional<PaymentState>.none), (.failUnasked, 0, .failed),
    ])
    func restart(restart: ServiceProcedure.Restart, reconciles: Int, state: PaymentState?) throws {
        // Given a charge whose attempt 0 is out
        let sut = ServiceDriver(configuration: ServiceConfiguration(procedure: ServiceProcedure(restart: restart)))
        sut.deliver(.request(Self.charge.request(user: 1), client: 1))
        // When the service crashes and restarts
        try sut.restart()
        sut.runSteps()
        // Then it reconciles, or settles the payment failed without asking
        #expect(sut.reconciles.count == reconciles)
        #expect(sut.store.record(of: 1)?.outcome?.state == state)
    }
}
