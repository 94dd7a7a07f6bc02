import Foundation
import PaymentServiceCore
import SimHarnessKit

/// The one type SimHarness needs: it starts a `PaymentService` over the simulated disk and gateway (at
/// launch and after each crash, from what is durable) and translates requests, answers and the ledger.
struct SimulatedPaymentService: ServiceUnderSimulation {
    let service: PaymentService
    let repository: DurableRecordsRepository

    static func start(in environment: ServiceEnvironment) async throws -> SimulatedPaymentService {
        let repository = DurableRecordsRepository(store: environment.store)
        return SimulatedPaymentService(
            service: PaymentService(repository: repository, gateway: VirtualGatewayAdapter(gateway: environment.gateway), bug: plantedBug),
            repository: repository)
    }

    /// A client's request arrives as a user at the checkout screen: a tap of Pay, and an impatient second one.
    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        let checkout = await CheckoutViewModel(service: service, request: PaymentRequest(
            id: request.paymentID, idempotencyKey: request.idempotencyKey, userId: request.userID,
            kind: request.kind == .charge ? .charge : .refund, amountMinor: request.amountMinor, currency: request.currency.code,
            refundOf: request.refundOf), bug: plantedBug)
        let payment = await checkout.pay()
        await checkout.pay()
        let state: PaymentState
        switch try await payment.value {
        case .captured: state = .captured
        case .refunded: state = .refunded
        case .declined: state = .declined
        case .failed: state = .failed
        case .deduplicated: state = .deduplicated
        case .rejected(let reason): return ServiceAnswer(state: .rejected, reason: PaymentRejection(rawValue: reason.rawValue))
        }
        // The answer names the payment by the id of the request that created it: a refund names its charge so.
        let record = try await repository.findById(Payment.id(userId: request.userID, idempotencyKey: request.idempotencyKey))
        return ServiceAnswer(state: state, paymentID: record?.requestId)
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
