import Foundation
import Observation

/// The checkout screen of a SwiftUI app: its Pay button calls `pay()`, which starts the payment in a
/// `Task {}` and shows its result. A second tap while a payment is under way joins it (the correct
/// screen); with the `double-tap` bug each tap starts a payment of its own under a fresh key.
@MainActor
@Observable
public final class CheckoutViewModel {
    /// What the screen shows.
    public private(set) var result: PaymentResult?
    private let service: PaymentService
    private let request: PaymentRequest
    private let bug: Bug?
    private var payment: Task<PaymentResult, any Error>?

    /// The screen for paying `request` through `service`.
    public init(service: PaymentService, request: PaymentRequest, bug: Bug? = nil) {
        self.service = service
        self.request = request
        self.bug = bug
    }

    /// The Pay button's action: the payment under way (a new one on the first tap).
    @discardableResult
    public func pay() -> Task<PaymentResult, any Error> {
        if let payment, bug != .doubleTap { return payment }
        var request = request
        if bug == .doubleTap, payment != nil { request.idempotencyKey = UUID().uuidString }
        let service = service
        let started = Task {
            let result = try await service.processPayment(request)
            self.result = result
            return result
        }
        payment = started
        return started
    }
}
