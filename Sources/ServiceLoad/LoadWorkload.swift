import Foundation
import PaymentsCore
@_spi(Tooling) import Scenarios
@_spi(Tooling) import ServiceSimulation
@_spi(Tooling) import Generation

/// A scenario's payment stream as load mode sends it: the generated `payments` rows of every user, in
/// SPEC §4's processing order, as `ServiceRequest`s built before the run; the users dealt to clients;
/// and what the SPEC reference (`PaymentProcessor`) answers for each request and keeps in each ledger.
///
/// Rows the generator made to fail validation (`malformed`, `unknown_user`, `missing_key`,
/// `unsupported_currency`, `invalid_amount`, `over_limit`) are left out: a `ServiceRequest` holds typed,
/// valid fields. Every other row is sent: retries (deduplicated), key conflicts, refunds of nothing, of
/// another currency or past their charge, and the gateway's scripts (`A`, `D`, `T`, `L`).
package struct LoadWorkload: Sendable {
    /// Every request, user after user, each user's in processing order.
    package let requests: [ServiceRequest]
    /// The reference's answer to each request.
    package let expected: [ServiceAnswer]
    /// The reference's ledger.
    package let expectedLedger: [ServiceLedgerLine]
    /// The gateway script of each payment id.
    package let scripts: [String: GatewayScript]
    /// Per client, the indices of its requests in order (a user's requests all go to one client, in order).
    package let lanes: [[Int32]]
    /// Per client, each request's place in the arrival order of an open load (the clients' requests interleaved).
    package let arrivals: [[Int32]]
    /// Users with at least one request.
    package let users: Int

    private static let validationFaults: Set<PaymentRejection> = [.malformed, .unknownUser, .missingKey, .unsupportedCurrency, .invalidAmount, .overLimit]

    /// The stream of `scenario`'s users under `seed`, dealt to `clients` clients, checked against SPEC §4
    /// with `maxAttempts` gateway attempts per payment.
    package init(scenario: Scenario, seed: UInt64, clients: Int, maxAttempts: Int = 3) {
        let simulator = Simulator(scenario: scenario, seed: seed)
        var requests: [ServiceRequest] = []
        var expected: [ServiceAnswer] = []
        var ledger: [ServiceLedgerLine] = []
        var scripts: [String: GatewayScript] = [:]
        var lanes = [[Int32]](repeating: [], count: max(1, clients))
        var processor = PaymentProcessor(policy: RetryPolicy(maxAttempts: maxAttempts), seed: seed)
        var users = 0
        var batch = SimulationBatch()
        for user in 0..<scenario.users {
            batch = SimulationBatch()
            simulator.generate(user: user, into: &batch)
            let rows = batch.payments.filter { $0.fault.map { !Self.validationFaults.contains($0) } ?? true }
                .sorted { ($0.createdAt, $0.ordinal) < ($1.createdAt, $1.ordinal) }
            guard !rows.isEmpty else { continue }
            let userID = Self.id("u", user)
            processor.startUser()
            let lane = users % lanes.count
            users += 1
            for row in rows {
                let outcome = processor.process(row.request)
                let request = Self.request(row, userID: userID)
                scripts[request.paymentID] = row.script.script
                lanes[lane].append(Int32(requests.count))
                requests.append(request)
                expected.append(ServiceAnswer(state: outcome.state, reason: outcome.reason))
            }
            processor.ledger.forEachEntry { entry in
                ledger.append(ServiceLedgerLine(userID: userID, currency: entry.currency, capturedMinor: entry.capturedMinor, refundedMinor: entry.refundedMinor))
            }
        }
        var arrivals = lanes.map { [Int32](repeating: 0, count: $0.count) }
        var rank: Int32 = 0
        for position in 0..<(lanes.map(\.count).max() ?? 0) {
            for lane in lanes.indices where position < lanes[lane].count {
                arrivals[lane][position] = rank
                rank += 1
            }
        }
        self.requests = requests
        self.expected = expected
        expectedLedger = ledger
        self.scripts = scripts
        self.lanes = lanes
        self.arrivals = arrivals
        self.users = users
    }

    /// `u0000042`, `p0000042-000003`: the SPEC files' ids.
    static func id(_ prefix: String, _ owner: Int, _ ordinal: UInt32? = nil) -> String {
        let head = prefix + String(repeating: "0", count: max(0, 7 - String(owner).count)) + String(owner)
        guard let ordinal else { return head }
        return head + "-" + String(repeating: "0", count: max(0, 6 - String(ordinal).count)) + String(ordinal)
    }

    private static func request(_ row: PaymentRow, userID: String) -> ServiceRequest {
        let user = Int(row.user)
        var key = id("k", user, row.keyOrdinal)
        if row.hasLongKey { key += String(repeating: "K", count: PaymentRejection.maximumKeyLength - key.count) }
        let refundOf = row.refundOf == PaymentRow.noCharge
            ? nil : id(row.refundOf & PaymentRow.ghostBit == 0 ? "p" : "q", user, row.refundOf & ~PaymentRow.ghostBit)
        return ServiceRequest(
            paymentID: id("p", user, row.ordinal), idempotencyKey: key, userID: userID, kind: row.kind, amountMinor: row.amountMinor,
            currency: row.currency, refundOf: refundOf)
    }
}
