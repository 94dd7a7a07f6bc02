/// The invariants of SPEC §4 that must hold after any run, under any faults.
public enum PaymentInvariants {
    /// Returns one message per broken invariant of one user's run (empty when all hold).
    /// - Parameters:
    ///   - payments: every input row of the user with its outcome (`nil` if it got none).
    ///   - ledger: the user's ledger after the run.
    ///   - gateway: the gateway that served the user.
    public static func violations(
        payments: [(request: PaymentRequest, outcome: PaymentOutcome?)], ledger: UserLedger, gateway: some PaymentGateway
    ) -> [String] {
        var problems: [String] = []
        var captured = [Int64](repeating: 0, count: Currency.allCases.count)
        var refunded = [Int64](repeating: 0, count: Currency.allCases.count)
        var keys = Set<UInt32>()
        for (request, outcome) in payments {
            guard let outcome else {
                problems.append("payment \(request.id) has no final state")
                continue
            }
            if (outcome.state == .rejected) != (outcome.reason != nil) {
                problems.append("payment \(request.id) is \(outcome.state.rawValue) with reason \(outcome.reason?.rawValue ?? "none")")
            }
            keys.insert(request.key)
            guard let currency = request.currency, let amount = request.amountMinor else { continue }
            if outcome.state == .captured { captured[Int(currency.rawValue)] += amount }
            if outcome.state == .refunded { refunded[Int(currency.rawValue)] += amount }
        }
        for key in keys.sorted() where gateway.actions(key: key) > 1 {
            problems.append("gateway acted \(gateway.actions(key: key)) times for key \(key)")
        }
        let entries = ledger.entries
        for entry in entries where entry.balanceMinor < 0 {
            problems.append("\(entry.currency.code) balance \(entry.balanceMinor) < 0")
        }
        for currency in Currency.allCases {
            let i = Int(currency.rawValue)
            let entry = entries.first { $0.currency == currency } ?? LedgerEntry(currency: currency)
            if entry.capturedMinor != captured[i] || entry.refundedMinor != refunded[i] {
                problems.append(
                    "\(currency.code) ledger captured \(entry.capturedMinor) refunded \(entry.refundedMinor), outcomes sum to \(captured[i]) and \(refunded[i])"
                )
            }
        }
        return problems
    }
}
