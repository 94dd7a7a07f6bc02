/// A supported ISO 4217 currency and its minor-unit exponent (SPEC §0).
public enum Currency: UInt8, CaseIterable, Sendable {
    /// USD, US dollar: exponent 2.
    case usd
    /// EUR, Euro: exponent 2.
    case eur
    /// GBP, Pound sterling: exponent 2.
    case gbp
    /// CHF, Swiss franc: exponent 2.
    case chf
    /// CAD, Canadian dollar: exponent 2.
    case cad
    /// AUD, Australian dollar: exponent 2.
    case aud
    /// SEK, Swedish krona: exponent 2.
    case sek
    /// INR, Indian rupee: exponent 2.
    case inr
    /// BRL, Brazilian real: exponent 2.
    case brl
    /// JPY, Japanese yen: exponent 0.
    case jpy
    /// KWD, Kuwaiti dinar: exponent 3.
    case kwd
    /// BHD, Bahraini dinar: exponent 3.
    case bhd

    /// The three-letter code, as written in dataset files.
    public var code: String { codeLiteral.description }

    /// The code as a static string, for writers that copy bytes.
    @inlinable package var codeLiteral: StaticString {
        switch self {
        case .usd: "USD"
        case .eur: "EUR"
        case .gbp: "GBP"
        case .chf: "CHF"
        case .cad: "CAD"
        case .aud: "AUD"
        case .sek: "SEK"
        case .inr: "INR"
        case .brl: "BRL"
        case .jpy: "JPY"
        case .kwd: "KWD"
        case .bhd: "BHD"
        }
    }

    /// Digits after the decimal point of the major unit.
    @usableFromInline package var exponent: Int {
        switch self {
        case .jpy: 0
        case .kwd, .bhd: 3
        default: 2
        }
    }

    /// The largest allowed amount: 1,000,000 major units.
    public var limitMinor: Int64 {
        var limit: Int64 = 1_000_000
        for _ in 0..<exponent { limit *= 10 }
        return limit
    }

    /// Every currency in code order (the order of ledger rows).
    @usableFromInline package static let inCodeOrder: [Currency] = allCases.sorted { $0.code < $1.code }

    /// Case-sensitive lookup of a three-letter code.
    public init?(code: some StringProtocol) {
        guard let match = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = match
    }

}

/// Whether a payment takes money (`charge`) or returns it (`refund`).
public enum PaymentKind: UInt8, CaseIterable, Sendable {
    /// Takes money from the user.
    case charge
    /// Returns money from a captured charge (`refund_of`).
    case refund

    /// The spelling in dataset files.
    public var name: String { spelling.description }

    /// The spelling in dataset files, as a literal (for writers that copy bytes).
    @inlinable package var spelling: StaticString { self == .charge ? "charge" : "refund" }
}
