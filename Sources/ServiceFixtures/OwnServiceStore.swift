@_spi(Tooling) import PaymentService
import PlantedFlaws
import PaymentsCore

// SimHarness's own payment service on the seeded-executor path: its store. This file imports
// PaymentService only (its `ServiceRequest` is not ServiceSimulation's); `OwnServiceAdapter.swift`
// drives it.

/// The own service as the adapter runs it.
typealias OwnService = PaymentService<RecordingStore, SplitMix64>
/// The own service's request (interned ids).
typealias OwnRequest = ServiceRequest

/// The own service's store for one incarnation: `MemoryDurableStore` in memory, rebuilt at each start
/// from the durable records, and told which payments each transaction wrote, so that the adapter writes
/// them to the durable records and syncs before it carries out the service's effects. The service
/// reads and writes it through the planted store flaws, if any; a restart rebuilds it without them.
final class RecordingStore: ForwardingPaymentStore {
    private let memory = MemoryDurableStore()
    /// `memory` as the service sees it, with the planted store flaws: what it reads and writes.
    let forwarded: any DurablePaymentStore
    /// The payments written since `takeWritten()`, in order.
    private var written: [UInt32] = []
    /// The admission number of each payment: the order a restart admits them in again.
    private var admission: [UInt32: Int] = [:]
    private var takesKey: [UInt32: Bool] = [:]
    /// The flaws planted in the service over this store.
    let plants: ReferenceServicePlants

    /// An empty store, for a service with `plants`.
    init(plants: ReferenceServicePlants) {
        self.plants = plants
        forwarded = plants.served(plants.store(memory))
    }

    func admit(_ record: PaymentRecord, takesKey: Bool) throws {
        try forwarded.admit(record, takesKey: takesKey)
        let id = record.request.payment.id
        admission[id] = admission.count
        self.takesKey[id] = takesKey
        written.append(id)
    }

    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) throws {
        try forwarded.writeIntent(payment: payment, attempt: attempt, deadline: deadline)
        written.append(payment)
    }

    func settle(payment: UInt32, _ outcome: PaymentOutcome) throws {
        try forwarded.settle(payment: payment, outcome)
        written.append(payment)
    }

    /// The payments written since the last call, each once.
    func takeWritten() -> [UInt32] {
        defer { written.removeAll(keepingCapacity: true) }
        var seen = Set<UInt32>()
        return written.filter { seen.insert($0).inserted }
    }

    /// What the durable record of `payment` holds: its admission number, whether it took its key, the
    /// time it was admitted and created, and where it stands (`R`, `I:attempt:deadline`, `F:state:reason:attempts:latency`).
    func durableFields(of payment: UInt32) -> [String] {
        let record = memory.record(of: payment)!
        let progress = switch record.progress {
        case .requested: "R"
        case .attemptSent(let attempt, let deadline): "I:\(attempt):\(deadline)"
        case .final(let outcome): "F:\(outcome.state.rawValue):\(outcome.reason?.rawValue ?? ""):\(outcome.attempts):\(outcome.latencyMillis)"
        }
        return [String(admission[payment]!), takesKey[payment]! ? "1" : "0", String(record.admittedAt), String(record.request.payment.createdAt), progress]
    }

    /// Admits `request` again as `durableFields` described it (a restart, in admission order), and
    /// brings it to where it stood.
    func restore(_ request: OwnRequest, fields: [String]) throws {
        guard fields.count == 5, let number = Int(fields[0]), let admittedAt = Int64(fields[2]) else { throw StoreFailure("a bad record: \(fields)") }
        let parts = fields[4].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        try memory.admit(PaymentRecord(request: request, progress: .requested, admittedAt: admittedAt), takesKey: fields[1] == "1")
        admission[request.payment.id] = number
        takesKey[request.payment.id] = fields[1] == "1"
        switch parts[0] {
        case "I":
            guard parts.count == 3, let attempt = Int(parts[1]), let deadline = Int64(parts[2]) else { throw StoreFailure("a bad intent: \(fields)") }
            try memory.writeIntent(payment: request.payment.id, attempt: attempt, deadline: deadline)
        case "F":
            guard parts.count == 5, let state = PaymentState(rawValue: parts[1]), let attempts = Int(parts[3]), let latency = Int64(parts[4]) else {
                throw StoreFailure("a bad outcome: \(fields)")
            }
            let outcome = PaymentOutcome(state: state, reason: PaymentRejection(rawValue: parts[2]), attempts: attempts, latencyMillis: latency)
            try memory.settle(payment: request.payment.id, outcome)
        default: break
        }
    }

    /// A service over this store.
    func service() -> OwnService {
        PaymentService(store: self, configuration: plants.configuration(), random: SplitMix64(seed: 0x0_5EED))
    }
}
