import PaymentsCore

extension GatewayScript {
    /// Parses a script written as in `payments.csv` (`T;L;D`); `nil` when it is not a valid script.
    public static func parsing(_ text: String) -> GatewayScript? {
        var responses: [GatewayResponse] = []
        for token in text.split(separator: ";", omittingEmptySubsequences: false) {
            guard token.count == 1, let response = GatewayResponse.allCases.first(where: { $0.token == token.first }) else { return nil }
            responses.append(response)
        }
        return GatewayScript(responses)
    }
}

/// Builds a `PaymentRequest`: by default charge 1 with key 1 (8 scalars), 10.00 USD, created at 0,
/// gateway script `A`.
public struct PaymentBuilder: Sendable {
    public var id: UInt32 = 1
    public var key: UInt32 = 1
    public var keyLength = 8
    public var kind: PaymentKind = .charge
    public var amountMinor: Int64? = 1_000
    public var currency: Currency? = .usd
    public var createdAt: Int64 = 0
    public var refundOf: UInt32?
    public var script = GatewayScript([.approved])

    public init() {}

    public func id(_ value: UInt32) -> Self { modified(self) { $0.id = value } }
    /// The interned idempotency key and its length in Unicode scalars.
    public func key(_ value: UInt32, length: Int = 8) -> Self {
        modified(self) {
            $0.key = value
            $0.keyLength = length
        }
    }
    public func keyLength(_ value: Int) -> Self { modified(self) { $0.keyLength = value } }
    public func charge() -> Self {
        modified(self) {
            $0.kind = .charge
            $0.refundOf = nil
        }
    }
    /// A refund of the charge whose interned id is `charge` (`nil`: empty `refund_of`).
    public func refund(of charge: UInt32?) -> Self {
        modified(self) {
            $0.kind = .refund
            $0.refundOf = charge
        }
    }
    public func amount(_ minor: Int64?) -> Self { modified(self) { $0.amountMinor = minor } }
    public func currency(_ value: Currency?) -> Self { modified(self) { $0.currency = value } }
    public func createdAt(_ value: Int64) -> Self { modified(self) { $0.createdAt = value } }
    /// The gateway script, written as in `payments.csv`; it must be valid.
    public func script(_ text: String) -> Self {
        guard let parsed = GatewayScript.parsing(text) else { preconditionFailure("invalid gateway script \(text)") }
        return modified(self) { $0.script = parsed }
    }

    public func build() -> PaymentRequest {
        PaymentRequest(
            id: id, key: key, keyLength: keyLength, kind: kind, amountMinor: amountMinor, currency: currency,
            createdAt: createdAt, refundOf: refundOf, script: script
        )
    }
}
