import Foundation

/// A payment service as the Swift testing guides shape one: an actor over a repository and a gateway,
/// both injected, with `async throws` methods.
///
/// Each payment is processed under a lock of its user (an actor is reentrant: its state can change at
/// every `await`, so a lock is what keeps one user's payments from interleaving). A new payment is saved
/// as a pending intent, with the gateway key it will be sent under, and flushed, before the gateway is
/// called; a retry finds the intent and sends it under the same key. After every attempt timed out, the
/// gateway is asked whether it acted before the payment is called failed. The final state is saved and
/// flushed before the client is answered, and the ledger is summed from the payments.
///
/// `bug` plants one of the mistakes in `Bug`; nil is the correct service.
public actor PaymentService {
    private let repository: any PaymentRepository
    private let gateway: any PaymentGateway
    private let bug: Bug?
    private let maxAttempts: Int
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// A service over `repository` and `gateway`, trying the gateway up to `maxAttempts` times a request.
    public init(repository: any PaymentRepository, gateway: any PaymentGateway, bug: Bug? = nil, maxAttempts: Int = 3) {
        self.repository = repository
        self.gateway = gateway
        self.bug = bug
        self.maxAttempts = max(1, maxAttempts)
    }

    /// Processes one client request to its final answer. Errors other than the gateway's (a repository
    /// that fails, a process going down) are thrown: the client retries with the same idempotency key.
    public func processPayment(_ request: PaymentRequest) async throws -> PaymentResult {
        let lock: String? = switch bug {
        case .checkThenAct: nil
        case .reentrancy: Payment.id(userId: request.userId, idempotencyKey: request.idempotencyKey)
        default: request.userId
        }
        if let lock { await acquire(lock) }
        defer { if let lock { release(lock) } }
        return try await process(request)
    }

    /// The ledger: captured charges and refunded refunds per user and currency, summed from the payments
    /// (from the running balances under the `reentrancy` bug).
    public func ledger() async throws -> [LedgerLine] {
        var lines: [String: LedgerLine] = [:]
        func add(_ userId: String, _ currency: String, captured: Int64, refunded: Int64) {
            let id = userId + "/" + currency
            var line = lines[id] ?? LedgerLine(userId: userId, currency: currency, capturedMinor: 0, refundedMinor: 0)
            line.capturedMinor += captured
            line.refundedMinor += refunded
            lines[id] = line
        }
        if bug == .reentrancy {
            for (account, value) in try await repository.allBalances() {
                let parts = account.split(separator: "/").map(String.init)
                guard parts.count == 3 else { continue }
                add(parts[0], parts[1], captured: parts[2] == "charge" ? value : 0, refunded: parts[2] == "refund" ? value : 0)
            }
        } else {
            for payment in try await repository.findAll() {
                add(payment.userId, payment.currency, captured: payment.status == .captured ? payment.amountMinor : 0,
                    refunded: payment.status == .refunded ? payment.amountMinor : 0)
            }
        }
        return lines.keys.sorted().map { lines[$0]! }
    }

    private func process(_ request: PaymentRequest) async throws -> PaymentResult {
        let id = Payment.id(userId: request.userId, idempotencyKey: request.idempotencyKey)
        if let existing = try await repository.findById(id) {
            // A record that may not be on the disk yet (a crash of the process keeps unflushed saves; a power
            // loss, and a flush that failed, do not): flush it before the gateway or the client hears of it.
            try await repository.flush()
            if existing.isSame(as: request), existing.status == .pending { return try await send(existing) }
            return existing.isSame(as: request) ? .deduplicated : .rejected(.idempotencyConflict)
        }
        var payment = Payment(pendingFor: request)
        if request.kind == .refund, let rejection = try await refundRejection(request) {
            payment.status = .rejected
            payment.rejection = rejection
            try await repository.save(payment)
            try await repository.flush()
            return .rejected(rejection)
        }
        if bug != .intentAfterCall {
            // The intent, with its gateway key, is durable before the gateway hears of it.
            try await repository.save(payment)
            try await repository.flush()
        }
        return try await send(payment)
    }

    /// Sends `payment` to the gateway (up to `maxAttempts` times, then reconciles), saves and flushes its
    /// final state, and answers.
    private func send(_ payment: Payment) async throws -> PaymentResult {
        var payment = payment
        let done: Payment.Status = payment.kind == .charge ? .captured : .refunded
        var status = Payment.Status.failed
        attempts: for attempt in 0..<maxAttempts {
            var sent = payment
            if attempt > 0 {
                // Back off before trying again, as app code does: on the system clock.
                try await Task.sleep(for: .milliseconds(attempt))
                if bug == .retryWithoutKey { sent.gatewayKey += "-\(attempt)" }
                if bug == .uuidKeyPerAttempt { sent.gatewayKey = UUID().uuidString }
            }
            do {
                _ = try await gateway.process(sent)
                status = done
                break attempts
            } catch PaymentGatewayError.declined {
                status = .declined
                break attempts
            } catch PaymentGatewayError.timedOut {
                // The gateway may have acted: try again under the same key (it is idempotent on it).
                if bug == .timeoutIsFailure { break attempts }
                continue attempts
            }
        }
        if status == .failed, bug != .timeoutIsFailure, try await gateway.wasProcessed(payment) {
            status = done
        }
        payment.status = status
        if bug == .reentrancy, status == done {
            // Read, await, write: another payment of the user can update the balance in between.
            let account = "\(payment.userId)/\(payment.currency)/\(payment.kind.rawValue)"
            let before = try await repository.balance(account)
            try await repository.save(payment)
            try await repository.saveBalance(before + payment.amountMinor, for: account)
        } else if bug == .fireAndForgetSave {
            // Saved "in the background" once the client has its answer.
            let repository = repository
            let final = payment
            Task {
                try? await repository.save(final)
                try? await repository.flush()
            }
        } else {
            try await repository.save(payment)
        }
        if bug != .answerBeforeSync, bug != .fireAndForgetSave { try await repository.flush() }
        return switch status {
        case .captured: .captured
        case .refunded: .refunded
        case .declined: .declined
        default: .failed
        }
    }

    /// Why a refund cannot be made: its charge must be a captured charge of the same user, in the same
    /// currency, with room left once the refunds already made or under way are counted.
    private func refundRejection(_ request: PaymentRequest) async throws -> PaymentRejectionReason? {
        let payments = try await repository.findAll(userId: request.userId)
        guard let of = request.refundOf,
              let charge = payments.first(where: { $0.kind == .charge && $0.requestId == of }), charge.status == .captured
        else { return .unknownCharge }
        guard charge.currency == request.currency else { return .currencyMismatch }
        let refunded = payments.filter { $0.kind == .refund && $0.refundOf == of && [.pending, .refunded].contains($0.status) }
            .reduce(Int64(0)) { $0 + $1.amountMinor }
        return refunded + request.amountMinor > charge.amountMinor ? .refundExceeds : nil
    }

    /// Waits until no other payment holds `key`'s lock, then holds it.
    private func acquire(_ key: String) async {
        guard busy.contains(key) else {
            busy.insert(key)
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    /// Hands `key`'s lock to the next waiter, or frees it.
    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue
            next.resume()
        } else {
            busy.remove(key)
        }
    }
}
