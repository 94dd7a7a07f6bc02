@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws
import PaymentsCore

/// The checks a resumed world makes of the store and truth file a killed run left, before it trusts
/// them: every row is one the world could have written (a payment of its workload, unchanged; a
/// key, charge or ledger row that such a payment made), every row such a payment must have made is
/// there, and every instant and attempt lies in range. Sums (the ledger against the money moved, a
/// charge's refunds) stay the world's invariants to check: a wrong sum is the service's bug to find.
enum StoreAudit {
    /// Instants, deadlines and latencies stay below this (milliseconds, about 35,000 years).
    static let latestInstant: Int64 = 1 << 50

    /// Refuses `contents` or `actions` as the state of a world of `submissions` (one per payment
    /// id), naming the file, the row and what is wrong.
    static func check(
        _ contents: StoreContents, _ actions: [TruthFile.Action], submissions: [Submission], configuration: WorldConfiguration,
        runs: Int, store: String, truth: String
    ) throws(SimulationError) {
        let maxAttempts = ServiceConfiguration().policy.maxAttempts
        var admitted: [UInt32: PaymentRecord] = [:]
        if let beyond = contents.records.map(\.request.payment.id).filter({ Int($0) >= submissions.count }).min() {
            throw .unusableFile("\(store): payments row \(beyond): the world has \(submissions.count) payments (ids 0...\(submissions.count - 1))")
        }
        for record in contents.records {
            let id = record.request.payment.id
            let place = "\(store): payments row \(id)"
            if let field = difference(record.request, submissions[Int(id)].request) {
                throw .unusableFile("\(place): \(field.name) is \(field.stored), the world's payment \(id) has \(field.expected)")
            }
            try inRange(record.admittedAt, "admitted_at", place)
            switch record.progress {
            case .requested: break
            case .attemptSent(let attempt, let deadline):
                guard (0..<maxAttempts).contains(attempt) else { throw .unusableFile("\(place): attempt is \(attempt), not in 0...\(maxAttempts - 1)") }
                try inRange(deadline, "deadline", place)
            case .final(let outcome):
                guard (0...maxAttempts).contains(outcome.attempts) else { throw .unusableFile("\(place): attempts is \(outcome.attempts), not in 0...\(maxAttempts)") }
                try inRange(outcome.latencyMillis, "latency", place)
            }
            admitted[id] = record
        }
        try checkKeys(contents.keys, admitted, store)
        try checkCharges(contents.charges, admitted, store)
        try checkLedger(contents.ledger, admitted, store)
        for (index, action) in actions.enumerated() {
            let place = "\(truth):\(index + 1)"
            guard let record = admitted[action.payment] else {
                throw .unusableFile("\(place): the gateway acted for payment \(action.payment), which the store never admitted")
            }
            let payment = record.request.payment
            let keyed = configuration.flaws.contains(.retryWithoutKey) || action.key == payment.key
            guard action.user == record.request.user, action.request.kind == payment.kind, keyed,
                  action.request.amountMinor == payment.amountMinor ?? 0, action.request.currency == payment.currency
            else { throw .unusableFile("\(place): the action is not payment \(action.payment)'s (its user, key, kind, amount or currency differ)") }
            guard action.run < runs else { throw .unusableFile("\(place): run \(action.run), but the store records \(runs) runs") }
        }
    }

    private static func inRange(_ instant: Int64, _ column: String, _ place: String) throws(SimulationError) {
        guard (0...latestInstant).contains(instant) else { throw .unusableFile("\(place): \(column) is \(instant), not in 0...\(latestInstant)") }
    }

    /// The first field in which `stored` differs from the workload's `expected` request.
    private static func difference(_ stored: ServiceRequest, _ expected: ServiceRequest) -> (name: String, stored: String, expected: String)? {
        let (a, b) = (stored.payment, expected.payment)
        let fields: [(String, String, String)] = [
            ("user", "\(stored.user)", "\(expected.user)"), ("key", "\(a.key)", "\(b.key)"), ("key_length", "\(a.keyLength)", "\(b.keyLength)"),
            ("kind", "\(a.kind)", "\(b.kind)"), ("amount", Self.text(a.amountMinor), Self.text(b.amountMinor)),
            ("currency", a.currency?.code ?? "none", b.currency?.code ?? "none"), ("created_at", "\(a.createdAt)", "\(b.createdAt)"),
            ("refund_of", Self.text(a.refundOf), Self.text(b.refundOf)), ("script", a.script.text, b.script.text),
        ]
        return fields.first { $0.1 != $0.2 }.map { (name: $0.0, stored: $0.1, expected: $0.2) }
    }

    private static func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }

    private static func checkKeys(_ keys: [KeyRow], _ admitted: [UInt32: PaymentRecord], _ store: String) throws(SimulationError) {
        var fingerprints: [UInt64: [PaymentFingerprint]] = [:]
        for record in admitted.values {
            guard let fingerprint = record.request.payment.fingerprint else { continue }
            fingerprints[SimulatedGateway.slot(record.request.user, record.request.payment.key), default: []].append(fingerprint)
        }
        for row in keys where !(fingerprints[SimulatedGateway.slot(row.user, row.key)] ?? []).contains(row.fingerprint) {
            throw .unusableFile("\(store): keys row (user \(row.user), key \(row.key)): no payment of the store has this key and fingerprint")
        }
    }

    private static func checkCharges(_ charges: [ChargeRow], _ admitted: [UInt32: PaymentRecord], _ store: String) throws(SimulationError) {
        var charged: Set<UInt32> = []
        for row in charges {
            let payment = admitted[row.id]?.request.payment
            guard let record = admitted[row.id], record.outcome?.state == .captured, record.request.user == row.user,
                  payment?.amountMinor == row.charge.amountMinor, payment?.currency == row.charge.currency, row.charge.refundedMinor >= 0
            else { throw .unusableFile("\(store): charges row \(row.id): not a charge the store captured (payment, user, amount or currency differ)") }
            charged.insert(row.id)
        }
        for record in admitted.values.sorted(by: { $0.request.payment.id < $1.request.payment.id })
        where record.outcome?.state == .captured && record.request.payment.amountMinor != nil && record.request.payment.currency != nil {
            guard charged.contains(record.request.payment.id) else {
                throw .unusableFile("\(store): payment \(record.request.payment.id) is captured, but the charges table has no row for it")
            }
        }
    }

    private static func checkLedger(_ ledger: [LedgerRow], _ admitted: [UInt32: PaymentRecord], _ store: String) throws(SimulationError) {
        var booked: Set<UInt64> = []
        for record in admitted.values {
            guard let state = record.outcome?.state, state == .captured || state == .refunded, let currency = record.request.payment.currency,
                  record.request.payment.amountMinor != nil else { continue }
            booked.insert(UInt64(record.request.user) << 8 | UInt64(currency.rawValue))
        }
        var present: Set<UInt64> = []
        for row in ledger {
            let slot = UInt64(row.user) << 8 | UInt64(row.entry.currency.rawValue)
            let place = "\(store): ledger row (user \(row.user), \(row.entry.currency.code))"
            guard booked.contains(slot) else { throw .unusableFile("\(place): no payment of the store booked it") }
            guard row.entry.capturedMinor >= 0, row.entry.refundedMinor >= 0 else {
                throw .unusableFile("\(place): captured \(row.entry.capturedMinor) and refunded \(row.entry.refundedMinor) may not be negative")
            }
            present.insert(slot)
        }
        if let missing = booked.subtracting(present).min() {
            throw .unusableFile("\(store): user \(missing >> 8) has payments booked in \(Currency(rawValue: UInt8(missing & 0xFF))?.code ?? "?"), but no ledger row")
        }
    }
}
