@_spi(Tooling) @testable import RunEngine
import PaymentsCore
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import SpecKernel
import Testing
import TestSupport
import UserAlgorithms

/// What a `PaymentProcessing` receives (its doc comment, docs/custom-implementation.md): every row but
/// the `malformed` and `unknown_user` ones, so rows failing the rest of SPEC §4 step 1 too, which the
/// implementation must reject itself.
@Suite("The PaymentProcessing contract: the rows an implementation receives", .budget(minutes: 2))
struct PaymentContractTests {
    /// A checked one-pass run of a shipped scenario.
    private func checkedRun(_ name: String, payments: any PaymentProcessing.Type) async throws -> RunResult {
        var options = RunOptions.test(tasks: 2, timing: false)
        options.implementations = Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: payments)
        options.checkSample = 1
        return try await ScenarioRunner.run(RunPlan(scenario: try ScenarioCatalog.load(name, currentDirectory: "/nonexistent")), options: options)
    }

    @Test("an implementation receives rows failing each step-1 check it owns: missing_key, unsupported_currency, invalid_amount, over_limit")
    func rowsFailingStepOneArrive() async throws {
        // Given the reference processor recording the step-1 reasons of what it receives
        // When faults (every SPEC rejection injected) is run with the check
        _ = try await checkedRun("faults", payments: RecordingProcessor.self)
        // Then it received rows failing each of the four checks the implementation owns
        let sut = RecordingProcessor.seen.withLock { $0 }
        #expect(sut == [.missingKey, .unsupportedCurrency, .invalidAmount, .overLimit])
    }

    @Test("a processor that takes every row it receives as valid fails the check")
    func trustingProcessorFails() async throws {
        // Given a processor written from "the user's valid payments"
        // When smoke is run with the check
        let sut = try await checkedRun("smoke", payments: TrustingProcessor.self)
        let check = try #require(sut.check)
        // Then the rows it should have rejected differ in state and reason, and the run fails
        #expect(check.byField["payments_outcomes.state", default: 0] > 0)
        #expect(check.byField["payments_outcomes.reason", default: 0] > 0)
        #expect(!sut.passed)
    }
}
