import PaymentsCore
@_spi(Tooling) import ServiceSimulation

/// A service that charges each charge twice, under the client's key and a key of its own, and answers
/// captured: the gateway acts twice for one payment, and the ledger it keeps counts it once.
package struct DoubleChargingService: ServiceUnderSimulation {
    let environment: ServiceEnvironment
    let ledgerLines = LedgerLines()

    package static func start(in environment: ServiceEnvironment) async throws -> DoubleChargingService { DoubleChargingService(environment: environment) }

    package func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        guard request.kind == .charge else { return ServiceAnswer(state: .rejected, reason: .unknownCharge) }
        var payment = GatewayPayment(request)
        for key in [request.idempotencyKey, request.idempotencyKey + "-again"] {
            payment.idempotencyKey = key
            _ = try? await environment.gateway.process(payment)
        }
        ledgerLines.add(request)
        return ServiceAnswer(state: .captured)
    }

    package func ledger() async throws -> [ServiceLedgerLine] { ledgerLines.lines }
}

/// The captured amounts a fake says it took.
final class LedgerLines: Sendable {
    private let sums = Locked<[ServiceLedgerLine]>([])

    func add(_ request: ServiceRequest) {
        sums.withLock { $0.append(ServiceLedgerLine(userID: request.userID, currency: request.currency, capturedMinor: request.amountMinor, refundedMinor: 0)) }
    }

    var lines: [ServiceLedgerLine] { sums.withLock { $0 } }
}

