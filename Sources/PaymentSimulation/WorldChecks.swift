@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
import PaymentsCore

extension World {
    /// The end-of-world checks, on what is durable: every payment final, the money, SPEC §4 per user, the answers.
    func checkEnd() {
        if let host {  // the end is read from what is durable, without the faults still armed
            host.goDown(keptPermille: 1000)
            do { try host.comeUp() } catch { return fail(.noFinalState, "the store cannot be opened at the end of the world: \(error)", payment: nil) }
            attach(host.store)
        }
        guard let records = try? store.records(), let ledger = try? store.ledger() else {
            return fail(.noFinalState, "the store cannot be read at the end of the world", payment: nil)
        }
        var outcomes = [PaymentOutcome?](repeating: nil, count: submissions.count)  // payment ids are 0..<count
        for record in records {
            let id = record.request.payment.id
            guard outcomes.indices.contains(Int(id)) else {
                return fail(.noFinalState, "the store holds payment \(id), which no client of this world submitted", payment: nil)
            }
            outcomes[Int(id)] = record.outcome
            if let state = record.outcome?.state { report.states[state, default: 0] += 1 }
        }
        if let unfinished = records.first(where: { $0.outcome == nil }) {
            let id = unfinished.request.payment.id
            return fail(.noFinalState, "payment \(id) is still in progress at the end of the world", payment: id)
        }
        checkMoney(records, ledger)
        if report.violation == nil { checkUsers(records, ledger) }
        if report.violation == nil { checkAnswers(outcomes) }
    }

    /// Every payment has a final state in the store, and its client got exactly that.
    func checkAnswers(_ outcomes: [PaymentOutcome?]) {
        for (index, client) in clients.enumerated() {
            let id = submissions[index].request.payment.id
            guard let outcome = outcomes[index] else { return fail(.noFinalState, "payment \(id) has no final state in the store", payment: id) }
            guard let answer = client.answer else { return fail(.noFinalState, "payment \(id) got no final answer", payment: id) }
            if answer != outcome {
                return fail(.answerDiffersFromStore, "payment \(id): \(answer.differences(from: outcome, "answered", "the store holds"))", payment: id)
            }
        }
    }

    func checkMoney(_ records: [PaymentRecord], _ ledger: [LedgerRow]) {
        for record in records {
            let id = record.request.payment.id
            let booked = record.outcome?.state == .captured || record.outcome?.state == .refunded
            let moved = (gateway.actions[id] ?? 0) > 0
            if booked && !moved {
                return fail(.bookedWithoutMoney, "payment \(id) is \(record.outcome.map(\.state.rawValue) ?? "unfinished") but the gateway never acted", payment: id)
            }
            if moved && !booked {
                return fail(.moneyWithoutBooking, "the gateway acted for payment \(id), which the store holds as \(record.outcome.map(Self.describe) ?? "unfinished")", payment: id)
            }
        }
        var books: [UInt32: [Currency: SimulatedGateway.Moved]] = [:]
        for row in ledger {
            books[row.user, default: [:]][row.entry.currency] = SimulatedGateway.Moved(capturedMinor: row.entry.capturedMinor, refundedMinor: row.entry.refundedMinor)
        }
        for user in Set(books.keys).union(gateway.moved.keys).sorted() {
            for currency in Currency.allCases {
                let booked = books[user]?[currency] ?? .init(), moved = gateway.moved[user]?[currency] ?? .init()
                if booked != moved {
                    return fail(.ledgerDiffers, """
                        user \(user) \(currency.code): the ledger holds captured \(booked.capturedMinor) refunded \(booked.refundedMinor), \
                        the gateway moved \(moved.capturedMinor) and \(moved.refundedMinor)
                        """, payment: nil)
                }
            }
        }
    }

    /// SPEC §4's invariants per user, and the batch processor's outcomes for the same answers.
    func checkUsers(_ records: [PaymentRecord], _ ledger: [LedgerRow]) {
        // Stable: each user's records stay in admission order.
        // The indices are sorted, not the records: a record is large, and a sort moves its elements.
        let byUser = records.indices.sorted { (records[$0].request.user, $0) < (records[$1].request.user, $1) }.map { records[$0] }
        var ledgers: [UInt32: UserLedger] = [:]
        for row in ledger {
            ledgers[row.user, default: UserLedger()].capture(row.entry.capturedMinor, in: row.entry.currency)
            ledgers[row.user, default: UserLedger()].refund(row.entry.refundedMinor, in: row.entry.currency)
        }
        var first = byUser.startIndex
        while first < byUser.endIndex {
            let user = byUser[first].request.user
            let end = byUser[first...].firstIndex { $0.request.user != user } ?? byUser.endIndex
            let records = byUser[first..<end]
            first = end
            let replay = ReplayGateway(user: user, records: records, attempts: attempts, gateway: gateway)
            let problems = PaymentInvariants.violations(
                payments: records.map { ($0.request.payment, $0.outcome) }, ledger: ledgers[user] ?? UserLedger(), gateway: replay)
            if let problem = problems.first { return fail(.specInvariant, "user \(user): \(problem)", payment: nil) }
            guard checksReference, !touchedUsers.contains(user) else { continue }
            var reference = PaymentProcessor(
                policy: ServiceConfiguration().policy, gateway: replay, random: SplitMix64(seed: 0), clock: ManualClock())
            for record in records {
                guard let actual = record.outcome else { continue }  // checkEnd stopped at an unfinished payment already
                let expected = reference.process(record.request.payment)
                if expected.state != actual.state || expected.reason != actual.reason || expected.attempts != actual.attempts {
                    return fail(.differsFromReference, """
                        payment \(record.request.payment.id) for the same gateway answers: \
                        \(actual.differences(from: expected, "the service ended", "the batch processor gives", fields: [.state, .reason, .attempts]))
                        """, payment: record.request.payment.id)
                }
            }
        }
    }
}
