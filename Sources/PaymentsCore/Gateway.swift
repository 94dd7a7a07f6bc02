/// One answer of the payment gateway to an attempt (SPEC §4).
public enum GatewayResponse: UInt8, CaseIterable, Sendable {
    /// `A`: approved; the gateway acted.
    case approved
    /// `D`: declined; nothing happened.
    case declined
    /// `T`: timed out and nothing happened.
    case timedOut
    /// `L`: timed out, but the gateway acted (the response was lost).
    case lost

    /// The letter of the response in gateway scripts.
    @usableFromInline package var token: Character { Character(Unicode.Scalar(tokenByte)) }

    /// The letter of the response in gateway scripts, as the byte writers copy it.
    @inlinable package var tokenByte: UInt8 {
        switch self {
        case .approved: UInt8(ascii: "A")
        case .declined: UInt8(ascii: "D")
        case .timedOut: UInt8(ascii: "T")
        case .lost: UInt8(ascii: "L")
        }
    }

    /// Whether the gateway did what was asked.
    @usableFromInline package var acted: Bool { self == .approved || self == .lost }
}

/// A payment's outcome script, one response per attempt; attempts past the end repeat the last.
/// Stored inline (2 bits a response) so a payment stays a plain value.
public struct GatewayScript: Hashable, Sendable {
    /// The most responses a script keeps; `maxAttempts` may not exceed it.
    @usableFromInline package static let capacity = 32

    private var packed: UInt64 = 0
    /// Responses in the script (attempts past it repeat `last`).
    public private(set) var count: Int = 0
    /// The last response.
    @usableFromInline package private(set) var last: GatewayResponse = .approved

    /// The script of `responses`, in attempt order.
    public init(_ responses: [GatewayResponse]) {
        for response in responses { append(response) }
    }

    /// The script of `count` (at most `capacity`) responses packed two bits each (their raw
    /// values), the first one lowest: the same script as appending them one by one.
    @usableFromInline package init(packed: UInt64, count: Int) {
        precondition(count >= 0 && count <= Self.capacity, "a script of \(count) packed responses")
        self.packed = count == Self.capacity ? packed : packed & (1 << (2 * UInt64(count)) - 1)
        self.count = count
        if count > 0 { last = response(at: count - 1) }
    }

    /// Adds the response to the next attempt.
    @usableFromInline package mutating func append(_ response: GatewayResponse) {
        if count < Self.capacity { packed |= UInt64(response.rawValue) << (2 * UInt64(count)) }
        count += 1
        last = response
    }

    /// The scripted response to attempt `index` (0-based).
    public func response(at index: Int) -> GatewayResponse {
        guard index < min(count, Self.capacity) else { return last }
        return GatewayResponse(rawValue: UInt8(truncatingIfNeeded: packed >> (2 * UInt64(index))) & 3)!
    }

    /// The script as written in dataset files, e.g. `T;L;D`.
    @usableFromInline package var text: String {
        (0..<count).map { String(response(at: $0).token) }.joined(separator: ";")
    }
}

/// What the processor sends the gateway for one attempt.
@usableFromInline package struct GatewayRequest: Sendable {
    /// The interned idempotency key.
    @usableFromInline package var key: UInt32
    /// The attempt, from 0.
    @usableFromInline package var attempt: Int
    /// The payment's outcome script.
    @usableFromInline package var script: GatewayScript

    /// One attempt of a payment.
    @usableFromInline package init(key: UInt32, attempt: Int, script: GatewayScript) {
        self.key = key
        self.attempt = attempt
        self.script = script
    }
}

/// A payment gateway, idempotent per key: once it acted for a key, later attempts answer approved.
/// One instance serves one user; `reset()` makes it ready for the next.
@usableFromInline package protocol PaymentGateway {
    /// Sends one attempt and returns the answer the client sees.
    mutating func submit(_ request: GatewayRequest) -> GatewayResponse
    /// Asks whether the gateway acted for `key` (reconciliation; not an attempt).
    func hasActed(key: UInt32) -> Bool
    /// How many times the gateway acted for `key`: never more than once.
    func actions(key: UInt32) -> Int
    /// Forgets every key.
    mutating func reset()
}

/// The simulated gateway of SPEC §4: answers from each payment's script.
@usableFromInline package struct ScriptedGateway: PaymentGateway, Sendable {
    private var acted = KeyTable<Int>()

    /// A gateway that has not acted yet.
    @usableFromInline package init() {}

    /// Answers from the script; approves once it has acted for the key.
    @usableFromInline package mutating func submit(_ request: GatewayRequest) -> GatewayResponse {
        if acted[request.key] != nil { return .approved }
        let response = request.script.response(at: request.attempt)
        if response.acted { acted.set(request.key, to: 1) }
        return response
    }

    /// Whether it acted for `key`.
    @usableFromInline package func hasActed(key: UInt32) -> Bool { acted[key] != nil }

    /// How many times it acted for `key`.
    @usableFromInline package func actions(key: UInt32) -> Int { acted[key] ?? 0 }

    /// Forgets every key.
    @usableFromInline package mutating func reset() { acted.removeAll() }
}
