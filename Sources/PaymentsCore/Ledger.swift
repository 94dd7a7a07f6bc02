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
    @usableFromInline package var balanceMinor: Int64 { capturedMinor - refundedMinor }
}

/// One user's ledger: a row per currency that has a captured charge (SPEC §4).
public struct UserLedger: Hashable, Sendable {
    @usableFromInline var capturedAmounts = [Int64](repeating: 0, count: Currency.allCases.count)
    @usableFromInline var refundedAmounts = [Int64](repeating: 0, count: Currency.allCases.count)
    @usableFromInline var hasCaptureFlags = [Bool](repeating: false, count: Currency.allCases.count)

    /// An empty ledger.
    public init() {}

    /// Books a captured charge.
    public mutating func capture(_ amountMinor: Int64, in currency: Currency) {
        capturedAmounts[Int(currency.rawValue)] += amountMinor
        hasCaptureFlags[Int(currency.rawValue)] = true
    }

    /// Books a refund.
    public mutating func refund(_ amountMinor: Int64, in currency: Currency) {
        refundedAmounts[Int(currency.rawValue)] += amountMinor
    }

    /// Whether a charge in `currency` was captured (the ledger then has a row for it).
    @inlinable package func hasCapture(in currency: Currency) -> Bool { hasCaptureFlags[Int(currency.rawValue)] }

    /// Captured charges in `currency`, in minor units.
    @inlinable public func capturedMinor(in currency: Currency) -> Int64 { capturedAmounts[Int(currency.rawValue)] }

    /// Refunds in `currency`, in minor units.
    @inlinable public func refundedMinor(in currency: Currency) -> Int64 { refundedAmounts[Int(currency.rawValue)] }

    /// The rows of `payments_ledger.csv` for this user, in currency-code order.
    public var entries: [LedgerEntry] {
        var entries: [LedgerEntry] = []
        forEachEntry { entries.append($0) }
        return entries
    }

    /// Calls `body` with each of `entries` in turn, without making the array (a user at a time, in a hot loop).
    @usableFromInline package func forEachEntry(_ body: (LedgerEntry) -> Void) {
        for currency in Currency.inCodeOrder where hasCaptureFlags[Int(currency.rawValue)] {
            let i = Int(currency.rawValue)
            body(LedgerEntry(currency: currency, capturedMinor: capturedAmounts[i], refundedMinor: refundedAmounts[i]))
        }
    }

    /// Empties the ledger, keeping its memory.
    @usableFromInline package mutating func reset() {
        for i in capturedAmounts.indices {
            capturedAmounts[i] = 0
            refundedAmounts[i] = 0
            hasCaptureFlags[i] = false
        }
    }
}
