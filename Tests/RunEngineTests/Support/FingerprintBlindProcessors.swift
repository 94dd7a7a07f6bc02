import Synchronization
import PaymentsCore
import SpecKernel
import UserAlgorithms

/// A field of the idempotency fingerprint.
enum FingerprintField: Sendable {
    case kind, amount, currency, refundOf
}

/// One field of the idempotency fingerprint `(kind, amount_minor, currency, refund_of)` (SPEC §4
/// step 2) that a planted processor leaves out of its comparison, for keys first used by one kind
/// of payment.
protocol FingerprintBlindSpot: Sendable {
    /// The field the comparison leaves out.
    static var field: FingerprintField { get }
    /// The kind of payment whose key is compared without it.
    static var kind: PaymentKind { get }
    /// How the test names it.
    static var name: String { get }
    /// The retries of each accepted boundary user that differ in `field` alone from a `kind` payment.
    static var retriesPerBoundaryUser: Int { get }
}

extension FingerprintBlindSpot {
    static var retriesPerBoundaryUser: Int { 1 }

    /// The reference, but with this blind spot in its payment processor.
    static var implementations: Implementations {
        Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: FingerprintBlindProcessor<Self>.self)
    }
}

enum ChargeKindBlind: FingerprintBlindSpot {
    static let field = FingerprintField.kind, kind = PaymentKind.charge, name = "kind of a charge's key"
}
enum RefundKindBlind: FingerprintBlindSpot {
    static let field = FingerprintField.kind, kind = PaymentKind.refund, name = "kind of a refund's key"
}
enum ChargeAmountBlind: FingerprintBlindSpot {
    static let field = FingerprintField.amount, kind = PaymentKind.charge, name = "amount of a charge's key"
}
enum RefundAmountBlind: FingerprintBlindSpot {
    static let field = FingerprintField.amount, kind = PaymentKind.refund, name = "amount of a refund's key"
}
enum ChargeCurrencyBlind: FingerprintBlindSpot {
    static let field = FingerprintField.currency, kind = PaymentKind.charge, name = "currency of a charge's key"
}
enum RefundCurrencyBlind: FingerprintBlindSpot {
    static let field = FingerprintField.currency, kind = PaymentKind.refund, name = "currency of a refund's key"
}
enum RefundOfBlind: FingerprintBlindSpot {
    static let field = FingerprintField.refundOf, kind = PaymentKind.refund, name = "refund_of of a refund's key"
    static let retriesPerBoundaryUser = 2  // naming another charge, and naming none
}

/// The reference processor, except that a retry of a key first used by a `Spot.kind` payment which
/// differs from that payment in `Spot.field` alone is taken for the same payment (deduplicated,
/// where SPEC §4 step 2 says `idempotency_conflict`): a processor written from the SPEC that
/// compares only some of the fingerprint's fields.
struct FingerprintBlindProcessor<Spot: FingerprintBlindSpot>: PaymentProcessing {
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        var first: [UInt32: PaymentRequest] = [:]
        for i in payments.indices where PaymentRules.validationFailure(of: payments[i]) == nil {
            guard let recorded = first[payments[i].key] else {
                first[payments[i].key] = payments[i]
                continue
            }
            let blind = Self.copying(Spot.field, from: recorded, to: payments[i])
            guard recorded.kind == Spot.kind, blind.fingerprint == recorded.fingerprint else { continue }
            payments[i] = blind
        }
        return reference.process(payments, onOutcome: onOutcome)
    }

    /// `payment` with `field` set to `recorded`'s.
    private static func copying(_ field: FingerprintField, from recorded: PaymentRequest, to payment: PaymentRequest) -> PaymentRequest {
        var copy = payment
        switch field {
        case .kind: copy.kind = recorded.kind
        case .amount: copy.amountMinor = recorded.amountMinor
        case .currency: copy.currency = recorded.currency
        case .refundOf: copy.refundOf = recorded.refundOf
        }
        return copy
    }
}

/// The reference processor fed only valid rows: a processor written from "it receives the user's
/// valid payments", which takes every row as past SPEC §4 step 1 (an empty or too long key, an
/// unsupported currency, a bad amount and an amount over the limit are made valid before the
/// reference sees them).
struct TrustingProcessor: PaymentProcessing {
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        for i in payments.indices where PaymentRules.validationFailure(of: payments[i]) != nil {
            var payment = payments[i]
            payment.keyLength = min(max(payment.keyLength, 1), PaymentRejection.maximumKeyLength)
            let currency = payment.currency ?? .usd
            payment.currency = currency
            payment.amountMinor = min(max(payment.amountMinor ?? 1, 1), currency.limitMinor)
            payments[i] = payment
        }
        return reference.process(payments, onOutcome: onOutcome)
    }
}

/// The reference processor, recording which SPEC §4 step-1 reasons the rows it receives fail.
struct RecordingProcessor: PaymentProcessing {
    /// Every reason seen, by any instance.
    static let seen = Mutex<Set<PaymentRejection>>([])
    let reference: UserKernel

    init(settings: AlgorithmSettings) { reference = UserKernel(settings: settings) }

    mutating func process(_ payments: UserPayments, onOutcome: (Int, PaymentOutcome) -> Void) -> UserLedger {
        let reasons = Set(payments.compactMap { PaymentRules.validationFailure(of: $0) })
        Self.seen.withLock { $0.formUnion(reasons) }
        return reference.process(payments, onOutcome: onOutcome)
    }
}
