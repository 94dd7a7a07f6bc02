import Foundation
import PaymentServiceCore
import SimHarnessKit

/// The one type SimHarness needs: it starts a `PaymentService` over the simulated disk and gateway (at
/// launch and after each crash, from what is durable) and translates requests, answers and the ledger.
struct SimulatedPaymentService: ServiceUnderSimulation {
    let service: PaymentService

    static func start(in environment: ServiceEnvironment) async throws -> SimulatedPaymentService {
        SimulatedPaymentService(service: PaymentService(
            repository: DurableRecordsRepository(store: environment.store),
            gateway: VirtualGatewayAdapter(gateway: environment.gateway),
            bug: plantedBug))
    }

    /// A client's request arrives as a user at the checkout screen: a tap of Pay, and an impatient second one.
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        let checkout = await CheckoutViewModel(service: service, request: PaymentRequest(
            id: request.paymentID, idempotencyKey: request.idempotencyKey, userId: request.userID,
            kind: request.kind == .charge ? .charge : .refund, amountMinor: request.amountMinor, currency: request.currency.code,
            refundOf: request.refundOf), bug: plantedBug)
        let payment = await checkout.pay()
        await checkout.pay()
        let result = try await payment.value
        return switch result {
        case .captured: ServiceAnswer(state: .captured)
        case .refunded: ServiceAnswer(state: .refunded)
        case .declined: ServiceAnswer(state: .declined)
        case .failed: ServiceAnswer(state: .failed)
        case .deduplicated: ServiceAnswer(state: .deduplicated)
        case .rejected(let reason): ServiceAnswer(state: .rejected, reason: PaymentRejection(rawValue: reason.rawValue))
        }
    }

    func ledger() async throws -> [ServiceLedgerLine] {
        try await service.ledger().map { line in
            guard let currency = Currency(code: line.currency) else { throw UnknownCurrency(code: line.currency) }
            return ServiceLedgerLine(userID: line.userId, currency: currency, capturedMinor: line.capturedMinor, refundedMinor: line.refundedMinor)
        }
    }
}

/// The bug `BUG` plants (main has refused an unknown name); nil, the correct service, without `BUG`.
let plantedBug: Bug? = ProcessInfo.processInfo.environment["BUG"].flatMap { Bug(rawValue: $0) }
