import PaymentsCore
@_spi(Tooling) import RunResults
@_spi(Tooling) import ServiceSimulation

/// Load mode's differential check of one pass: each answer against the SPEC reference's, the service's
/// ledger against the reference's, and SPEC §4's invariants against the gateway's ground truth (it acted
/// at most once per client payment, with the payment's values, and the ledger equals what it did).
package struct LoadCheck {
    let workload: LoadWorkload
    /// The most mismatches listed.
    static var listLimit: Int { 20 }

    package init(workload: LoadWorkload) { self.workload = workload }

    /// The mismatches of a pass: its clients' figures, the ledger the service read back (nil when
    /// `ledger()` threw: `ledgerError`), and the gateway's acts. Requests not sent (a time limit) are not
    /// compared, nor the ledgers then (a partial pass): the gateway's truth still is.
    package func check(_ clients: [ClientFigures], ledger: [ServiceLedgerLine]?, ledgerError: String?, acts: [String: GatewayPayment]) -> CheckReport {
        var report = CheckReport(sample: 1)
        report.users = workload.users
        var complete = true
        var found: [(Int, Mismatch)] = []
        func add(_ index: Int, _ field: String, _ value: String, _ reference: String, row: String? = nil) {
            report.mismatches += 1
            report.byField[field, default: 0] += 1
            let request = index < workload.requests.count ? workload.requests[index] : nil
            found.append((index, Mismatch(
                user: request?.userID ?? "", row: row ?? "payment \(request?.paymentID ?? "?")", field: field, value: value, reference: reference)))
        }
        for (lane, figures) in clients.enumerated() {
            complete = complete && figures.sent == workload.lanes[lane].count
            for position in 0..<figures.sent {
                let index = Int(workload.lanes[lane][position])
                let expected = workload.expected[index]
                guard let answer = figures.answers[position] else {
                    add(index, "payments_outcomes.state", "threw: \(figures.firstError?.message ?? "an error")", expected.description)
                    continue
                }
                // The state and reason are SPEC §4's; the id a service answers with is its own.
                if answer.state != expected.state || answer.reason != expected.reason {
                    add(index, "payments_outcomes.state", ServiceAnswer(state: answer.state, reason: answer.reason).description, expected.description)
                }
            }
        }
        let positions = Dictionary(workload.requests.indices.map { (workload.requests[$0].paymentID, $0) }, uniquingKeysWith: { a, _ in a })
        var actsOf: [String: [GatewayPayment]] = [:]
        for (key, act) in acts.sorted(by: { $0.key < $1.key }) {
            guard let index = positions[act.paymentID] else {
                add(workload.requests.count, "gateway.acts", "acted for \(act.paymentID) (key \(key))", "no such payment", row: "gateway \(key)")
                continue
            }
            let request = workload.requests[index]
            if act.kind != request.kind || act.amountMinor != request.amountMinor || act.currency != request.currency || act.userID != request.userID {
                add(index, "gateway.values", "\(act.kind.name) \(act.amountMinor) \(act.currency.code) for \(act.userID)",
                    "\(request.kind.name) \(request.amountMinor) \(request.currency.code) for \(request.userID)")
            }
            actsOf[act.paymentID, default: []].append(act)
        }
        for (paymentID, acted) in actsOf where acted.count > 1 {
            add(positions[paymentID]!, "gateway.acts", "acted \(acted.count) times (keys \(acted.map(\.idempotencyKey).sorted().joined(separator: ", ")))", "at most once")
        }
        let truth = Self.ledger(of: acts.values)
        if let ledgerError {
            add(workload.requests.count, "payments_ledger", "ledger() threw: \(ledgerError)", "a ledger", row: "ledger")
        } else if let ledger {
            compare(Self.ledger(of: ledger), truth, field: "payments_ledger (against the gateway)", add)
            if complete { compare(Self.ledger(of: workload.expectedLedger), Self.ledger(of: ledger), field: "payments_ledger", add, swapped: true) }
        }
        report.listed = found.sorted { $0.0 < $1.0 }.prefix(Self.listLimit).map(\.1)
        return report
    }

    private struct Line: Hashable, Comparable {
        var user: String
        var currency: Currency
        static func < (a: Line, b: Line) -> Bool { (a.user, a.currency.code) < (b.user, b.currency.code) }
    }

    private typealias Sums = [Line: (captured: Int64, refunded: Int64)]

    private static func ledger(of lines: [ServiceLedgerLine]) -> Sums {
        var sums: Sums = [:]
        for line in lines where line.capturedMinor != 0 || line.refundedMinor != 0 {
            sums[Line(user: line.userID, currency: line.currency), default: (0, 0)].captured += line.capturedMinor
            sums[Line(user: line.userID, currency: line.currency), default: (0, 0)].refunded += line.refundedMinor
        }
        return sums
    }

    private static func ledger(of acts: some Sequence<GatewayPayment>) -> Sums {
        ledger(of: acts.map { act in
            ServiceLedgerLine(userID: act.userID, currency: act.currency, capturedMinor: act.kind == .charge ? act.amountMinor : 0,
                              refundedMinor: act.kind == .refund ? act.amountMinor : 0)
        })
    }

    /// Adds a mismatch for each line where `told` and `truth` differ (`swapped`: `truth` is the service's).
    private func compare(_ told: Sums, _ truth: Sums, field: String, _ add: (Int, String, String, String, String?) -> Void, swapped: Bool = false) {
        for line in Set(told.keys).union(truth.keys).sorted() where told[line] ?? (0, 0) != truth[line] ?? (0, 0) {
            let (said, expected) = swapped ? (truth[line] ?? (0, 0), told[line] ?? (0, 0)) : (told[line] ?? (0, 0), truth[line] ?? (0, 0))
            let index = workload.requests.firstIndex { $0.userID == line.user } ?? workload.requests.count
            add(index, field, "captured \(said.captured) refunded \(said.refunded)", "captured \(expected.captured) refunded \(expected.refunded)",
                "ledger \(line.user) \(line.currency.code)")
        }
    }
}
