/// The invariants of SPEC §4 that must hold after any run, under any faults.
@usableFromInline package enum PaymentInvariants {
    /// Returns one message per broken invariant of one user's run (empty when all hold). Checked
    /// after every user of every run: when everything holds, it allocates nothing.
    /// - Parameters:
    ///   - payments: every input row of the user with its outcome (`nil` if it got none).
    ///   - ledger: the user's ledger after the run.
    ///   - gateway: the gateway that served the user.
    @usableFromInline package static func violations(
        payments: [(request: PaymentRequest, outcome: PaymentOutcome?)], ledger: UserLedger, gateway: some PaymentGateway
    ) -> [String] {
        var problems: [String] = []
        // Per currency (raw value); in memory, updated in place (a SIMD16 in the loop is spilled and
        // reloaded whole at every payment).
        var captured = InlineArray<16, Int64>(repeating: 0), refunded = InlineArray<16, Int64>(repeating: 0)
        var actedTwice = false
        for (request, outcome) in payments {
            guard let outcome else {
                problems.append("payment \(request.id) has no final state")
                continue
            }
            if (outcome.state == .rejected) != (outcome.reason != nil) {
                problems.append("payment \(request.id) is \(outcome.state.rawValue) with reason \(outcome.reason?.rawValue ?? "none")")
            }
            if !actedTwice, gateway.actions(key: request.key) > 1 { actedTwice = true }
            guard let currency = request.currency, let amount = request.amountMinor else { continue }
            if outcome.state == .captured { captured[Int(currency.rawValue)] += amount }
            if outcome.state == .refunded { refunded[Int(currency.rawValue)] += amount }
        }
        if actedTwice {
            for key in Set(payments.map(\.request.key)).sorted() where gateway.actions(key: key) > 1 {
                problems.append("gateway acted \(gateway.actions(key: key)) times for key \(key)")
            }
        }
        for currency in Currency.inCodeOrder where ledger.hasCapture(in: currency) {
            let balance = ledger.capturedMinor(in: currency) - ledger.refundedMinor(in: currency)
            if balance < 0 { problems.append("\(currency.code) balance \(balance) < 0") }
        }
        for currency in Currency.allCases {
            let i = Int(currency.rawValue)
            let booked = ledger.hasCapture(in: currency) ? (ledger.capturedMinor(in: currency), ledger.refundedMinor(in: currency)) : (0, 0)
            if booked.0 != captured[i] || booked.1 != refunded[i] {
                problems.append("\(currency.code) ledger captured \(booked.0) refunded \(booked.1), outcomes sum to \(captured[i]) and \(refunded[i])")
            }
        }
        return problems
    }
}
