@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore

// The domain's values read from the UTF-8 bytes of a file field, without a `String` per field.
// The spellings are the domain's own (`FastingProtocol.spelling`, the raw values, the tokens,
// the currency codes); only the reading of bytes lives here.

extension FastingProtocol {
    /// The protocol spelled by `bytes` (`16:8`, …, `none`), as `init(name:)` reads that text.
    @inlinable @inline(__always) package init?(field bytes: UnsafeBufferPointer<UInt8>) {
        for candidate in FieldSpellings.fastingProtocols where bytes.spells(candidate.spelling) {
            self = candidate
            return
        }
        return nil
    }
}

extension ActivityLevel {
    /// The level whose raw value is `bytes`, as `init(rawValue:)` reads that text.
    @inlinable @inline(__always) package init?(field bytes: UnsafeBufferPointer<UInt8>) {
        guard let match = FieldSpellings.match(bytes, FieldSpellings.activities) else { return nil }
        self = match
    }
}

extension Sex {
    /// The sex whose raw value is `bytes`, as `init(rawValue:)` reads that text.
    @inlinable @inline(__always) package init?(field bytes: UnsafeBufferPointer<UInt8>) {
        guard let match = FieldSpellings.match(bytes, FieldSpellings.sexes) else { return nil }
        self = match
    }
}

extension Currency {
    /// Case-sensitive lookup of a three-letter code given as bytes.
    @inlinable @inline(__always) package init?(field b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 3 else { return nil }
        let packed = UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2])
        for (code, currency) in FieldSpellings.currencies where code == packed {
            self = currency
            return
        }
        return nil
    }
}

extension PaymentKind {
    /// The kind spelled by `bytes` (`charge` or `refund`), case-sensitive.
    @inlinable @inline(__always) package init?(field bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.spells(PaymentKind.charge.spelling) { self = .charge } else if bytes.spells(PaymentKind.refund.spelling) { self = .refund } else { return nil }
    }
}

extension GatewayScript {
    /// Parses `A;T;L` from bytes; `nil` for an empty script, an unknown token or a stray `;`.
    @inlinable package init?(field bytes: UnsafeBufferPointer<UInt8>) {
        self.init([])
        var expectToken = true
        for byte in bytes {
            if expectToken {
                let response = FieldSpellings.gatewayResponses[Int(byte)]
                guard response != .none else { return nil }
                append(response!)
            } else if byte != UInt8(ascii: ";") {
                return nil
            }
            expectToken.toggle()
        }
        if count == 0 || expectToken { return nil }
    }
}

/// The domain's spellings, made once into tables that bytes are compared with.
@usableFromInline enum FieldSpellings {
    @usableFromInline static let fastingProtocols = FastingProtocol.allCases
    @usableFromInline static let activities = ActivityLevel.allCases.map { (Array($0.rawValue.utf8), $0) }
    @usableFromInline static let sexes = Sex.allCases.map { (Array($0.rawValue.utf8), $0) }
    @usableFromInline static let currencies = Currency.allCases.map { currency in
        (currency.code.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, currency)
    }
    /// The response of each byte that is a token, by byte value.
    @usableFromInline static let gatewayResponses: [GatewayResponse?] = (0..<256).map { byte in
        GatewayResponse.allCases.first { $0.token.asciiValue == UInt8(byte) }
    }

    @inlinable @inline(__always) static func match<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ table: [([UInt8], T)]) -> T? {
        for (spelling, value) in table where spelling.count == bytes.count && spelling.elementsEqual(bytes) { return value }
        return nil
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly those of `literal`.
    @inlinable @inline(__always) func spells(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let spelling = literal.utf8Start
        for i in 0..<count where self[i] != spelling[i] { return false }
        return true
    }
}
