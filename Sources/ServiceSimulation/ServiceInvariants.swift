import PaymentsCore
@_spi(Tooling) import SimulationCore

/// SPEC §4's invariants for a world of a user's service, judged at its end against the gateway's ground
/// truth (and, by `StepInvariants`, at each act of the gateway and each answer, when they happen): every request answered; the gateway acted at most once per client payment, with its values; no
/// answer contradicts what the gateway did (captured but never charged, failed but charged: the
/// acknowledged payment lost, the timeout taken for a failure); refunds within their charges; and the
/// ledger the service reads back after a restart equals what the gateway did.
struct ServiceInvariants {
    let workload: ClientWorkload
    let record: ClientRecord
    let acts: [String: GatewayAct]
    /// Tries a client makes before it gives up.
    let tries: Int

    func firstViolation(ledger: [ServiceLedgerLine]) -> Violation? {
        if let index = record.unanswered.first {
            return violation(.neverAnswered, "\(request(index)): no answer after \(tries) tries", about: [index])
        }
        var actsOf: [Int: [GatewayAct]] = [:]
        for act in acts.values.sorted(by: { $0.at < $1.at || ($0.at == $1.at && $0.payment.idempotencyKey < $1.payment.idempotencyKey) }) {
            guard let index = record.issued[act.payment.paymentID] else {
                return Violation(.unknownPayment, "the gateway acted for \(act.payment.paymentID), which no client sent", subjects: [act.payment.paymentID])
            }
            actsOf[index, default: []].append(act)
        }
        for (index, acted) in actsOf.sorted(by: { $0.key < $1.key }) {
            let base = workload.payments[index].base
            if acted.count > 1 {
                return violation(
                    .chargedTwice,
                    "\(request(index)): the gateway acted for keys \(acted.map(\.payment.idempotencyKey).joined(separator: ", "))", about: [index])
            }
            let act = acted[0].payment
            if act.kind != base.kind || act.amountMinor != base.amountMinor || act.currency != base.currency || act.userID != base.userID {
                return violation(.gatewayValues, "\(request(index)): the gateway was sent \(act.kind.name) \(act.amountMinor) \(act.currency.code) for \(act.userID)", about: [index])
            }
        }
        for (index, answers) in record.answers.sorted(by: { $0.key < $1.key }) {
            let acted = actsOf[index] != nil
            if let told = answers.first(where: { [.captured, .refunded].contains($0.state) }), !acted {
                return violation(.answeredWithoutMoney, "\(request(index)) was answered \(told), but the gateway never acted", about: [index])
            }
            if let told = answers.first(where: { [.declined, .failed].contains($0.state) }), acted {
                return violation(.moneyButAnsweredFailed, "\(request(index)) was answered \(told), but the gateway acted", about: [index])
            }
        }
        if let violation = refundViolation(actsOf) { return violation }
        return ledgerViolation(ledger, actsOf)
    }

    private func refundViolation(_ actsOf: [Int: [GatewayAct]]) -> Violation? {
        var refunded: [Int: Int64] = [:]
        let byName = paymentsByName()
        for (index, acted) in actsOf.sorted(by: { $0.key < $1.key }) where workload.payments[index].base.kind == .refund {
            guard let of = acted[0].payment.refundOf, let charge = byName[of], let chargeActs = actsOf[charge],
                  workload.payments[charge].base.kind == .charge
            else {
                return violation(.refundOfNothing, "\(request(index)) was refunded, but the gateway never took its charge", about: [index])
            }
            refunded[charge, default: 0] += acted[0].payment.amountMinor
            if refunded[charge]! > chargeActs[0].payment.amountMinor {
                return violation(
                    .refundExceedsCharge,
                    "\(request(charge)): \(refunded[charge]!) refunded of \(chargeActs[0].payment.amountMinor), the last by \(request(index))",
                    about: [charge, index])
            }
        }
        return nil
    }

    private func ledgerViolation(_ ledger: [ServiceLedgerLine], _ actsOf: [Int: [GatewayAct]]) -> Violation? {
        struct Line: Hashable { var user: String; var currency: Currency }
        var truth: [Line: (captured: Int64, refunded: Int64)] = [:]
        for acted in actsOf.values {
            let payment = acted[0].payment
            let line = Line(user: payment.userID, currency: payment.currency)
            if payment.kind == .charge { truth[line, default: (0, 0)].captured += payment.amountMinor }
            else { truth[line, default: (0, 0)].refunded += payment.amountMinor }
        }
        var told: [Line: (captured: Int64, refunded: Int64)] = [:]
        for line in ledger where line.capturedMinor != 0 || line.refundedMinor != 0 {
            let key = Line(user: line.userID, currency: line.currency)
            told[key, default: (0, 0)].captured += line.capturedMinor
            told[key, default: (0, 0)].refunded += line.refundedMinor
        }
        let lines = Set(truth.keys).union(told.keys).sorted { ($0.user, $0.currency.code) < ($1.user, $1.currency.code) }
        for line in lines {
            let expected = truth[line] ?? (0, 0)
            let said = told[line] ?? (0, 0)
            if expected != said {
                let payments = workload.payments.filter { $0.base.userID == line.user && $0.base.currency == line.currency }
                return Violation(
                    .ledgerDiffers,
                    "\(line.user) \(line.currency.code): the service says captured \(said.captured) refunded \(said.refunded), "
                        + "the gateway captured \(expected.captured) refunded \(expected.refunded)",
                    subjects: payments.map(\.base.paymentID) + payments.map(\.base.idempotencyKey))
            }
        }
        return nil
    }

    private func request(_ index: Int) -> String { workload.payments[index].base.description }

    /// The payment each name a refund may give its charge stands for: an id the service answered with, else
    /// an idempotency key, else the payment id of one of its tries (the first payment, when two share a name).
    private func paymentsByName() -> [String: Int] {
        var byName = record.issued
        for (index, payment) in workload.payments.enumerated().reversed() { byName[payment.base.idempotencyKey] = index }
        for (index, id) in record.answeredIDs.sorted(by: { $0.key > $1.key }) { byName[id] = index }
        return byName
    }

    /// A violation about the payments at `indices`: their ids and keys are its subjects.
    private func violation(_ kind: Invariant, _ detail: String, about indices: [Int]) -> Violation {
        let bases = indices.map { workload.payments[$0].base }
        return Violation(kind, detail, subjects: bases.map(\.paymentID) + bases.map(\.idempotencyKey))
    }
}

/// The invariants that can break at one step, checked when the gateway acts and when a client hears an
/// answer (the only steps that change what they read): two acts for one payment, an act with other values,
/// an act that contradicts an answer given, an answer that contradicts the acts. The world reports the first,
/// with the virtual time it happened; `ServiceInvariants` judges the whole world at its end.
struct StepInvariants {
    let workload: ClientWorkload
    /// The acts so far, by payment.
    private var actsOf: [Int: [GatewayPayment]] = [:]
    /// The first violation seen, and when.
    private(set) var first: Violation?

    init(workload: ClientWorkload) { self.workload = workload }

    /// The gateway acted for `payment`, which the clients sent as payment `index` (nil: none did).
    mutating func acted(_ payment: GatewayPayment, index: Int?, answers: [ServiceAnswer], at time: Duration) {
        guard first == nil else { return }
        guard let index else {
            return note(Violation(.unknownPayment, "the gateway acted for \(payment.paymentID), which no client sent", subjects: [payment.paymentID]), at: time)
        }
        actsOf[index, default: []].append(payment)
        let base = workload.payments[index].base
        let acted = actsOf[index]!
        if acted.count > 1 {
            return note(violation(
                .chargedTwice,
                "\(base): the gateway acted for keys \(acted.map(\.idempotencyKey).joined(separator: ", "))", index), at: time)
        }
        if payment.kind != base.kind || payment.amountMinor != base.amountMinor || payment.currency != base.currency || payment.userID != base.userID {
            return note(violation(.gatewayValues, "\(base): the gateway was sent \(payment.kind.name) \(payment.amountMinor) \(payment.currency.code) for \(payment.userID)", index), at: time)
        }
        if let told = answers.first(where: { [.declined, .failed].contains($0.state) }) {
            note(violation(.moneyButAnsweredFailed, "\(base) was answered \(told), but the gateway acted", index), at: time)
        }
    }

    /// A client heard `answer` to payment `index`.
    mutating func answered(_ answer: ServiceAnswer, index: Int, at time: Duration) {
        guard first == nil else { return }
        let base = workload.payments[index].base
        let acted = actsOf[index] != nil
        if [.captured, .refunded].contains(answer.state), !acted {
            note(violation(.answeredWithoutMoney, "\(base) was answered \(answer), but the gateway never acted", index), at: time)
        } else if [.declined, .failed].contains(answer.state), acted {
            note(violation(.moneyButAnsweredFailed, "\(base) was answered \(answer), but the gateway acted", index), at: time)
        }
    }

    private mutating func note(_ violation: Violation, at time: Duration) {
        var violation = violation
        violation.detail += " (at \(WorldState.format(time).trimmingCharacters(in: .whitespaces)) of virtual time)"
        violation.time = time
        first = violation
    }

    private func violation(_ kind: Invariant, _ detail: String, _ index: Int) -> Violation {
        let base = workload.payments[index].base
        return Violation(kind, detail, subjects: [base.paymentID, base.idempotencyKey])
    }
}
