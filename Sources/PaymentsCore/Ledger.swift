/// Money captured and refunded for one currency of one user.
public struct LedgerEntry: Hashable, Sendable {
    /// The currency.
    public var currency: Currency
    /// Captured charges, in minor units.
    public var capturedMinor: Int64 = 0
    /// Refunds, in minor units.
    public var refundedMinor: Int64 = 0

    /// An entry of all its fields.
    public init(currency: Currency, capturedMinor: Int64 = 0, refundedMinor: Int64 = 0) {
        self.currency = currency
        self.capturedMinor = capturedMinor
        self.refundedMinor = refundedMinor
    }

    /// Captured less refunded (never negative).
    public var balanceMinor: Int64 { capturedMinor - refundedMinor }
}

/// One user's ledger: a row per currency that has a captured charge (SPEC §4).
public struct UserLedger: Hashable, Sendable {
    private var captured = [Int64](repeating: 0, count: Currency.allCases.count)
    private var refunded = [Int64](repeating: 0, count: Currency.allCases.count)
    private var hasCapture = [Bool](repeating: false, count: Currency.allCases.count)

    /// An empty ledger.
    public init() {}

    /// Books a captured charge.
    public mutating func capture(_ amountMinor: Int64, in currency: Currency) {
        captured[Int(currency.rawValue)] += amountMinor
        hasCapture[Int(currency.rawValue)] = true
    }

    /// Books a refund.
    public mutating func refund(_ amountMinor: Int64, in currency: Currency) {
        refunded[Int(currency.rawValue)] += amountMinor
    }

    /// The rows of `payments_ledger.csv` for this user, in currency-code order.
    public var entries: [LedgerEntry] {
        Currency.inCodeOrder.compactMap { currency in
            let i = Int(currency.rawValue)
            guard hasCapture[i] else { return nil }
            return LedgerEntry(currency: currency, capturedMinor: captured[i], refundedMinor: refunded[i])
        }
    }

    /// Empties the ledger, keeping its memory.
    public mutating func reset() {
        for i in captured.indices {
            captured[i] = 0
            refunded[i] = 0
            hasCapture[i] = false
        }
    }
}
