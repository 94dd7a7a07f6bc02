import PaymentsCore

/// A spy: forwards every call to a real gateway and records the submitted attempts, the
/// reconciliation queries and the resets. A class, so a test keeps a handle on what the
/// processor's copy saw.
package final class SpyGateway<Wrapped: PaymentGateway>: PaymentGateway {
    package private(set) var wrapped: Wrapped
    package private(set) var submitted: [GatewayRequest] = []
    package private(set) var reconciled: [UInt32] = []
    package private(set) var resets = 0

    package init(wrapping wrapped: Wrapped) { self.wrapped = wrapped }

    package func submit(_ request: GatewayRequest) -> GatewayResponse {
        submitted.append(request)
        return wrapped.submit(request)
    }

    package func hasActed(key: UInt32) -> Bool {
        reconciled.append(key)
        return wrapped.hasActed(key: key)
    }

    package func actions(key: UInt32) -> Int { wrapped.actions(key: key) }

    package func reset() {
        resets += 1
        wrapped.reset()
    }
}

extension SpyGateway where Wrapped == ScriptedGateway {
    /// A spy on the scripted gateway of SPEC §4.
    package convenience init() { self.init(wrapping: ScriptedGateway()) }
}

/// A stub that ignores the payment's script: it answers `answers` in turn (the last one
/// repeating) and answers reconciliation with `reconcileAnswer`.
package struct StubGateway: PaymentGateway, Sendable {
    package let answers: [GatewayResponse]
    package let reconcileAnswer: Bool
    package private(set) var calls = 0

    package init(answers: [GatewayResponse], reconcileAnswer: Bool = false) {
        precondition(!answers.isEmpty, "a stub needs at least one answer")
        self.answers = answers
        self.reconcileAnswer = reconcileAnswer
    }

    package mutating func submit(_ request: GatewayRequest) -> GatewayResponse {
        defer { calls += 1 }
        return answers[min(calls, answers.count - 1)]
    }

    package func hasActed(key: UInt32) -> Bool { reconcileAnswer }

    package func actions(key: UInt32) -> Int { reconcileAnswer ? 1 : 0 }

    package mutating func reset() { calls = 0 }
}

/// A faulty gateway that is not idempotent: it answers every attempt from the script and acts
/// again on every `A` or `L`, so a retry after `L` charges twice. For showing that the invariant
/// checker catches it.
package struct NonIdempotentGateway: PaymentGateway, Sendable {
    private var acted: [UInt32: Int] = [:]

    package init() {}

    package mutating func submit(_ request: GatewayRequest) -> GatewayResponse {
        let response = request.script.response(at: request.attempt)
        if response.acted { acted[request.key, default: 0] += 1 }
        return response
    }

    package func hasActed(key: UInt32) -> Bool { acted[key] != nil }

    package func actions(key: UInt32) -> Int { acted[key] ?? 0 }

    package mutating func reset() { acted.removeAll() }
}
