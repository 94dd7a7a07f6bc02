/// What the processor remembers of one user's payments (SPEC §4 steps 2–4): the idempotency keys
/// and what they were first used for, the captured charges and what was refunded of them, and the
/// ledger. Each mutating call is one state change, so a durable store can make each one a
/// transaction of its own; the processor records a key before it calls the gateway.
@usableFromInline package protocol PaymentStore {
    /// Forgets the previous user's keys, charges and ledger.
    mutating func startUser()
    /// What `key` was first used for, nil when the user never used it.
    func fingerprint(ofKey key: UInt32) -> PaymentFingerprint?
    /// Takes `key` for `fingerprint` (a key is taken once a payment passes validation).
    mutating func record(key: UInt32, _ fingerprint: PaymentFingerprint)
    /// The captured charge with interned id `charge`, nil when there is none.
    func capturedCharge(_ charge: UInt32) -> CapturedCharge?
    /// Books a captured charge: in the ledger and as a charge that refunds may name.
    mutating func capture(charge: UInt32, amountMinor: Int64, currency: Currency)
    /// Books a refund of `charge`: in the ledger and against the charge.
    mutating func refund(of charge: UInt32, amountMinor: Int64, currency: Currency)
    /// The user's ledger.
    var ledger: UserLedger { get }
}

/// What an idempotency key was first used for: a retry must match it (SPEC §4 step 2).
@usableFromInline package struct PaymentFingerprint: Hashable, Sendable {
    /// `charge` or `refund`.
    @usableFromInline package var kind: PaymentKind
    /// The amount in minor units.
    @usableFromInline package var amountMinor: Int64
    /// The currency.
    @usableFromInline package var currency: Currency
    /// The charge a refund names (nil for a charge).
    @usableFromInline package var refundOf: UInt32?

    /// The fingerprint of a payment.
    @usableFromInline package init(kind: PaymentKind, amountMinor: Int64, currency: Currency, refundOf: UInt32?) {
        self.kind = kind
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundOf = refundOf
    }
}

/// A charge that ended `captured`, and how much of it was refunded.
@usableFromInline package struct CapturedCharge: Hashable, Sendable {
    /// The captured amount in minor units.
    @usableFromInline package var amountMinor: Int64
    /// Its currency.
    @usableFromInline package var currency: Currency
    /// What refunds have returned of it so far.
    @usableFromInline package var refundedMinor: Int64

    /// A captured charge.
    @usableFromInline package init(amountMinor: Int64, currency: Currency, refundedMinor: Int64 = 0) {
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundedMinor = refundedMinor
    }
}

/// The store `analyze` and `run` use: one user's state in memory, its storage kept from user to
/// user.
@usableFromInline package struct InMemoryPaymentStore: PaymentStore, Sendable {
    @usableFromInline var keys = KeyTable<PaymentFingerprint>()
    @usableFromInline var charges = KeyTable<CapturedCharge>()
    /// The user's ledger.
    @usableFromInline package private(set) var ledger = UserLedger()

    /// An empty store.
    @usableFromInline package init() {}

    /// Forgets the previous user's state, keeping the memory.
    @usableFromInline package mutating func startUser() {
        keys.removeAll()
        charges.removeAll()
        ledger.reset()
    }

    /// What `key` was first used for.
    @inlinable package func fingerprint(ofKey key: UInt32) -> PaymentFingerprint? { keys[key] }

    /// Takes `key` for `fingerprint`.
    @inlinable package mutating func record(key: UInt32, _ fingerprint: PaymentFingerprint) { keys.set(key, to: fingerprint) }

    /// The captured charge `charge`.
    @inlinable package func capturedCharge(_ charge: UInt32) -> CapturedCharge? { charges[charge] }

    /// Books a captured charge.
    @usableFromInline package mutating func capture(charge: UInt32, amountMinor: Int64, currency: Currency) {
        ledger.capture(amountMinor, in: currency)
        charges.set(charge, to: CapturedCharge(amountMinor: amountMinor, currency: currency))
    }

    /// Books a refund of `charge`.
    @usableFromInline package mutating func refund(of charge: UInt32, amountMinor: Int64, currency: Currency) {
        ledger.refund(amountMinor, in: currency)
        charges.modify(charge) { $0.refundedMinor += amountMinor }
    }
}
