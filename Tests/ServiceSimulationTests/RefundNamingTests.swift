@_spi(Tooling) import SimulationCore
import Foundation
import PaymentsCore
@_spi(Tooling) import ServiceSimulation
import Testing

/// How a spy service answers its charges, and how it expects refunds to name them.
private protocol AnswerStyle: Sendable {
    /// Charges are answered with an id of the service's own (`ch-<key>`).
    static var answersWithIDs: Bool { get }
    /// Refunds are expected to name their charge by that id (else by the charge's key, `k…`).
    static var expectsIDs: Bool { get }
}

private enum AnswersWithID: AnswerStyle {
    static let answersWithIDs = true
    static let expectsIDs = true
}

private enum AnswersWithoutID: AnswerStyle {
    static let answersWithIDs = false
    static let expectsIDs = false
}

/// Answers with ids, and expects refunds to name keys: the mismatch the spy exists to catch.
private enum ExpectsKeysButAnswersIDs: AnswerStyle {
    static let answersWithIDs = true
    static let expectsIDs = false
}

/// A spy service: it charges every charge once and commits it, and expects each refund to name its charge by
/// the id it answered the charge with (or, answering without ids, by the charge's key "k…"). A refund named
/// as expected is rejected; one named otherwise is told refunded, which the world catches (nothing was refunded).
private struct ExpectsChargeNames<Style: AnswerStyle>: ServiceUnderSimulation {
    let environment: ServiceEnvironment

    static func start(in environment: ServiceEnvironment) async throws -> ExpectsChargeNames { ExpectsChargeNames(environment: environment) }

    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        guard request.kind == .charge else {
            let named = request.refundOf?.hasPrefix(Style.expectsIDs ? "ch-k" : "k") ?? false
            return named ? ServiceAnswer(state: .rejected, reason: .unknownCharge) : ServiceAnswer(state: .refunded)
        }
        _ = try await environment.gateway.process(GatewayPayment(request))
        let line = "charge/\(request.userID)/\(request.currency.code)/\(request.idempotencyKey)"
        try await environment.store.commit(writing: [line: Data(String(request.amountMinor).utf8)])
        return ServiceAnswer(state: .captured, paymentID: Style.answersWithIDs ? "ch-" + request.idempotencyKey : nil)
    }

    func ledger() async throws -> [ServiceLedgerLine] {
        var lines: [ServiceLedgerLine] = []
        for key in try await environment.store.keys(withPrefix: "charge/") {
            let parts = key.split(separator: "/")
            let amount = try await environment.store.read(key).flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
            lines.append(ServiceLedgerLine(userID: String(parts[1]), currency: Currency(code: String(parts[2]))!, capturedMinor: amount, refundedMinor: 0))
        }
        return lines
    }
}

@Suite("How a refund's client names its charge")
struct RefundNamingTests {
    /// Worlds without faults or crashes (every charge is answered once), 60 payments a world.
    private static func configuration(seed: UInt64) -> ServiceWorldConfiguration {
        ServiceWorldConfiguration(seed: seed, payments: 60, clients: 4, faults: false, crashes: 0)
    }

    @Test("a refund names its charge by the id the service answered the charge with", arguments: 0..<8 as Range<UInt64>)
    func namedByAnsweredID(seed: UInt64) {
        // Given a service that answers charges with ids of its own
        // When a world runs (its refunds wait until their charges are answered)
        let report = ServiceWorld.run(ExpectsChargeNames<AnswersWithID>.self, Self.configuration(seed: seed))

        // Then every refund named its charge by that id, and refunds were sent
        #expect(report.violation == nil, "\(report.violation.map(\.description) ?? "")")
        #expect(report.history.contains { $0.contains("names its charge ch-k") })
    }

    @Test("without ids in the answers, a refund names its charge by the charge's idempotency key", arguments: 0..<8 as Range<UInt64>)
    func namedByKey(seed: UInt64) {
        // Given a service that answers without ids
        // When a world runs
        let report = ServiceWorld.run(ExpectsChargeNames<AnswersWithoutID>.self, Self.configuration(seed: seed))

        // Then every refund named its charge by the key
        #expect(report.violation == nil, "\(report.violation.map(\.description) ?? "")")
        #expect(report.history.contains { $0.contains("names its charge k") })
    }

    @Test("the spy bites: a refund named otherwise than it expects is a violation")
    func spyBites() throws {
        // Given a service that answers with ids but is checked as if it did not (it expects keys)
        let seeds = 0..<8 as Range<UInt64>

        // When its worlds run
        let reports = seeds.map { ServiceWorld.run(ExpectsChargeNames<ExpectsKeysButAnswersIDs>.self, Self.configuration(seed: $0)) }

        // Then a world sees a refund answered refunded that the gateway never made
        let violation = try #require(reports.compactMap(\.violation).first)
        #expect(violation.invariant == .answeredWithoutMoney)
    }
}
