/// The rules of SPEC §4, one decision at a time, as pure functions of values. The batch
/// `PaymentProcessor` runs them back to back in memory; a payment service runs them one step at a
/// time around durable writes and network calls. Neither has a copy of its own.
@usableFromInline package enum PaymentRules {
    /// What steps 1–3 decide for a payment that passed `malformed` and `unknown_user`.
    @usableFromInline package enum Admission: Hashable, Sendable {
        /// Ends without a gateway call; `takesKey` says whether the key is now recorded for it
        /// (every payment past step 1 takes its key, unless the key was recorded already).
        case settled(PaymentOutcome, takesKey: Bool)
        /// Takes the key and goes to the gateway.
        case callGateway
    }

    /// What step 4 does after an attempt's answer.
    @usableFromInline package enum AttemptDecision: Hashable, Sendable {
        /// The gateway approved: the payment ends captured or refunded.
        case approved
        /// The gateway declined: the payment ends declined.
        case declined
        /// The attempt timed out and attempts remain: back off, then send the next.
        case retry
        /// Every attempt timed out: ask the gateway whether it acted.
        case reconcile
    }

    /// Step 1 after `malformed` and `unknown_user`: the key, currency, amount and limit checks.
    @inlinable package static func validationFailure(of payment: PaymentRequest) -> PaymentRejection? {
        if payment.keyLength == 0 || payment.keyLength > PaymentRejection.maximumKeyLength { return .missingKey }
        guard let currency = payment.currency else { return .unsupportedCurrency }
        guard let amount = payment.amountMinor, amount > 0 else { return .invalidAmount }
        return amount > currency.limitMinor ? .overLimit : nil
    }

    /// Steps 1–3 for `payment`, given what its key was first used for (`recorded`) and, for a
    /// refund, the captured charge it names (`charge`).
    @inlinable package static func admission(of payment: PaymentRequest, recorded: PaymentFingerprint?, charge: CapturedCharge?) -> Admission {
        if let reason = validationFailure(of: payment) { return .settled(.rejected(reason), takesKey: false) }
        let fingerprint = payment.fingerprint!
        if let recorded {
            return .settled(recorded == fingerprint ? PaymentOutcome(state: .deduplicated) : .rejected(.idempotencyConflict), takesKey: false)
        }
        if payment.kind == .refund {
            guard let charge else { return .settled(.rejected(.unknownCharge), takesKey: true) }
            if charge.currency != fingerprint.currency { return .settled(.rejected(.currencyMismatch), takesKey: true) }
            if charge.refundedMinor + fingerprint.amountMinor > charge.amountMinor {
                return .settled(.rejected(.refundExceeds), takesKey: true)
            }
        }
        return .callGateway
    }

    /// Step 4 after the answer to attempt `attempt` (0-based) of at most `maxAttempts`.
    @inlinable package static func decision(after response: GatewayResponse, attempt: Int, maxAttempts: Int) -> AttemptDecision {
        switch response {
        case .approved: .approved
        case .declined: .declined
        case .timedOut, .lost: attempt + 1 < maxAttempts ? .retry : .reconcile
        }
    }

    /// Step 5: the final state of a payment that went to the gateway.
    @inlinable package static func finalState(of kind: PaymentKind, approved: Bool, declined: Bool) -> PaymentState {
        guard approved else { return declined ? .declined : .failed }
        return kind == .charge ? .captured : .refunded
    }
}

extension PaymentRequest {
    /// What the payment's key is recorded for; nil when the currency or amount is missing.
    @inlinable package var fingerprint: PaymentFingerprint? {
        guard let currency, let amountMinor else { return nil }
        return PaymentFingerprint(kind: kind, amountMinor: amountMinor, currency: currency, refundOf: refundOf)
    }
}
