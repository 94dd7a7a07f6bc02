@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
import PaymentsCore
import SimulatedDisk

extension World {
    /// A client: its request's final answer, and its retries.
    struct Client {
        var answer: PaymentOutcome?
        var generation = 0
        var tries = 0
        /// Where the client's pending timeout waits, so an answer can cancel it.
        var timeoutSlot: Int?
    }

    var faultsActive: Bool { now < horizon }

    /// Whether a fault of `kind` strikes now (at its rate, before the horizon); counts it if so.
    func inject(_ kind: FaultKind) -> Bool {
        guard faultsActive, random.permille(configuration.faults[kind]) else { return false }
        faults.count(kind)
        return true
    }

    /// The disk's faults for the transaction under way: at its sync, power is lost (the last write
    /// perhaps torn) or the sync fails; or its writes meet a full disk; or the next read fails.
    func armDisk(_ disk: SimulatedDisk) {
        if inject(.power) {
            disk.cutPowerAtSync(keptPermille: random.below(1001))
        } else if inject(.torn) {
            disk.cutPowerAtSync(keptPermille: random.below(1001), torn: true)
        } else if inject(.fsync) {
            disk.failSyncs(1)
        } else if inject(.full) {
            disk.fill(writes: 1 + random.below(3))
        } else if inject(.read) {
            disk.failReads(1)
        }
    }

    /// Windows covering about `permille` thousandths of the time before the horizon.
    func windows(covering permille: Int) -> [Range<Int64>] {
        guard permille > 0 else { return [] }
        let span = horizon - start
        var covered: Int64 = 0, result: [Range<Int64>] = []
        while covered * 1000 < span * Int64(permille) {
            let length = Int64(200 + random.below(1_300))
            let from = start + Int64(random.below(Int(span)))
            result.append(from..<(from + length))
            covered += length
        }
        return result
    }

    /// A network delay: 1–20 ms, and up to 300 ms more for a share of messages under `reorder`.
    func delay() -> Int64 {
        var millis = Int64(1 + random.below(20))
        if inject(.reorder) {
            millis += Int64(random.below(300))
        }
        return millis
    }

    /// Whether a message is lost under `retry`.
    func dropped() -> Bool {
        inject(.retry)
    }

    /// Client `index` sends its request (unless the network loses it).
    func send(_ index: Int) {
        clients[index].tries += 1
        guard !dropped() else { return }
        schedule(.service(.request(submissions[index].request, client: index), incarnation: -1), at: now + delay())
    }

    /// Client `index` waits for its answer, longer after each try, then sends again.
    func armTimeout(_ index: Int) {
        clients[index].generation += 1
        let backoff = Self.clientTimeoutMillis << Int64(min(clients[index].tries - 1, 4))
        clients[index].timeoutSlot = schedule(.clientTimeout(index, generation: clients[index].generation), at: now + backoff)
    }

    /// Client `client` gets `outcome`: its first answer, or one that must equal the first.
    func receive(_ outcome: PaymentOutcome, of payment: UInt32, by client: Int) {
        guard let first = clients[client].answer else {
            clients[client].answer = outcome
            clients[client].generation += 1
            cancel(clients[client].timeoutSlot)
            clients[client].timeoutSlot = nil
            if inject(.duplicate) { schedule(.replay(client), at: now + delay() + 100) }
            return
        }
        if first != outcome {
            fail(.replayDiffers, "payment \(payment) was answered twice, differently: \(first.differences(from: outcome, "first", "then"))", payment: payment)
        }
    }

    /// The gateway serves `call` (down in an outage, declining in a storm) and answers, perhaps late.
    func serve(_ call: GatewayCall, from incarnation: Int) {
        let payment = call.request.payment.id
        let down = faultsActive && faults.outages.contains { $0.contains(now) }
        let declining = faultsActive && faults.storms.contains { $0.contains(now) }
        if down { faults.count(.outage) }
        if declining { faults.count(.storm) }
        let (response, acted) = gateway.serve(call, now: now, down: down, declining: declining)
        if !down, !declining, now < call.deadline {
            switch response {
            case .timedOut: faults.count(.timeout)
            case .lost: faults.count(.lost)
            case .declined: faults.count(.decline)
            case .approved: break
            }
        }
        attempts[payment, call.attempt].gatewayActed = acted
        if acted, gateway.actions[payment, default: 0] > 1 {
            return fail(.chargedTwice, "the gateway moved money \(gateway.actions[payment, default: 0]) times for payment \(payment)", payment: payment)
        }
        guard response == .approved || response == .declined else { return }
        var arrival = now + delay()
        if inject(.late) {
            arrival = max(arrival, call.deadline + 1 + Int64(random.below(500)))
        }
        schedule(.service(.answer(payment: payment, attempt: call.attempt, response), incarnation: incarnation), at: arrival)
    }
}

/// The faults a world injected, and its gateway's outage and storm windows.
struct FaultTally {
    private var injected = [Int](repeating: 0, count: FaultKind.allCases.count)
    /// When the gateway is down.
    var outages: [Range<Int64>] = []
    /// When the gateway declines everything.
    var storms: [Range<Int64>] = []

    mutating func count(_ kind: FaultKind) {
        injected[kind.ordinal] += 1
    }

    /// The counts of the kinds injected at least once.
    var byKind: [FaultKind: Int] {
        var result: [FaultKind: Int] = [:]
        for kind in FaultKind.allCases where injected[kind.ordinal] > 0 { result[kind] = injected[kind.ordinal] }
        return result
    }
}
