@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws
import PaymentsCore

/// Everything one world is made from: the same configuration runs the same world again.
@_spi(Tooling) public struct WorldConfiguration: Hashable, Sendable {
    /// The seed every choice of the world derives from.
    package var seed: UInt64
    /// Payments the clients submit.
    package var payments: Int
    /// Concurrent clients.
    package var clients: Int
    /// The faults and their rates.
    package var faults: FaultMix
    /// Defects planted in the service (tests only): flaws of the reference service.
    package var flaws: Set<PlantedFlaw>
    /// The history of a world over a store that outlives its runs (`--db`, `--resume`): the step
    /// after which each earlier run was killed, oldest first; the world then ran again from the store
    /// it left. Empty: one run.
    package var kills: [Int]
    /// Where the service's store lives (never `.mixed`).
    package var store: StoreKind

    /// A world; `faults` nil picks the seed's own mix (swarm testing), with the disk's faults on `.disk`.
    @_spi(Tooling) public init(
        seed: UInt64, payments: Int = 1_000, clients: Int = 8, faults: FaultMix? = nil, flaws: Set<PlantedFlaw> = [], kills: [Int] = [],
        store: StoreKind = .memory
    ) {
        self.seed = seed
        self.payments = payments
        self.clients = clients
        self.faults = faults ?? .swarm(seed: seed, disk: store == .disk)
        self.flaws = flaws
        self.kills = kills
        self.store = store
    }

    /// The planted flaws, as the world plants them; refused when one is not the reference service's.
    package func plants() throws(SimulationError) -> ReferenceServicePlants {
        do { return try ReferenceServicePlants(flaws) } catch { throw .invalidConfiguration(error.description) }
    }

    /// Users the payments belong to: about six payments each.
    package var users: Int { max(1, (payments + 5) / 6) }
}

/// Which durable store a world's service writes to.
@_spi(Tooling) public enum StoreKind: String, CaseIterable, Sendable {
    /// `MemoryDurableStore`: a simulated disk.
    case memory
    /// `SQLitePaymentStore` in a file.
    case sqlite
    /// `SQLitePaymentStore` on a `SimulatedDisk`, with the disk's faults.
    case disk
    /// A swarm's choice: every `diskShare`-th seed on `.disk`, the others in `.memory`.
    case mixed

    /// One seed in `mixed` out of this many runs on the disk.
    package static let diskShare: UInt64 = 8

    /// The store of the world of `seed`: this one, or for `.mixed`, `.disk` or `.memory`.
    package func world(seed: UInt64) -> StoreKind {
        guard self == .mixed else { return self }
        return seed % Self.diskShare == 0 ? .disk : .memory
    }
}

/// One payment of the workload: who sends it, when, and what.
package struct Submission: Hashable, Sendable {
    /// The request.
    package var request: ServiceRequest
    /// The client that sends it.
    package var client: Int
    /// When it is first sent (monotonic milliseconds from the world's start).
    package var at: Int64
}

/// The workload of a world: payments of every kind SPEC §4 knows, spread over users and clients,
/// with keys reused on purpose and a share of invalid rows, and gateway scripts drawn from the
/// mix's `timeout`, `lost` and `decline` rates.
package enum Workload {
    /// Milliseconds between two submissions, on average.
    static let spacingMillis: Int64 = 10

    /// The submissions of `configuration`, in submission order; payment ids are their indices.
    package static func make(_ configuration: WorldConfiguration) -> [Submission] {
        var random = SplitMix64(seed: configuration.seed ^ 0xC0FF_EE00_D15E_A5E5)
        let mix = configuration.faults
        var submissions: [Submission] = []
        submissions.reserveCapacity(configuration.payments)
        var chargesOfUser: [UInt32: [Int]] = [:]
        var keysOfUser: [UInt32: UInt32] = [:]
        var firstOfKey: [UInt64: Int] = [:]
        let currencies: [Currency] = [.usd, .usd, .usd, .eur, .eur, .gbp, .jpy, .kwd]
        for index in 0..<configuration.payments {
            let user = UInt32(random.below(configuration.users))
            var payment = PaymentRequest(
                id: UInt32(index), key: 0, keyLength: 12, kind: .charge, amountMinor: Int64(100 + random.below(99_900)),
                currency: currencies[random.below(currencies.count)], createdAt: Int64(index), refundOf: nil,
                script: script(&random, mix))
            let earlier = chargesOfUser[user] ?? []
            if !earlier.isEmpty, random.below(4) == 0 {
                let charge = submissions[earlier[random.below(earlier.count)]].request.payment
                payment.kind = .refund
                payment.refundOf = charge.id
                payment.currency = charge.currency
                payment.amountMinor = Int64(1 + random.below(max(1, Int(charge.amountMinor ?? 1))))
                switch random.below(40) {
                case 0: payment.refundOf = UInt32(configuration.payments + random.below(100))  // unknown_charge
                case 1: payment.currency = .chf  // currency_mismatch
                case 2: payment.amountMinor = (charge.amountMinor ?? 0) + 1  // refund_exceeds
                default: break
                }
            }
            switch random.below(200) {
            case 0: payment.keyLength = 0  // missing_key
            case 1: payment.currency = nil  // unsupported_currency
            case 2: payment.amountMinor = 0  // invalid_amount
            case 3: payment.amountMinor = (payment.currency?.limitMinor ?? 0) + 1  // over_limit
            default: break
            }
            let keys = keysOfUser[user, default: 0]
            if keys > 0, random.permille(mix[.reuse]) {
                // A key used before: half the time for the very same payment (deduplicated), else a conflict.
                let key = UInt32(random.below(Int(keys)))
                payment.key = key
                if random.below(2) == 0, let first = firstOfKey[UInt64(user) << 32 | UInt64(key)] {
                    let original = submissions[first].request.payment
                    (payment.kind, payment.amountMinor, payment.currency, payment.refundOf) =
                        (original.kind, original.amountMinor, original.currency, original.refundOf)
                    payment.keyLength = original.keyLength
                }
            } else {
                payment.key = keys
                keysOfUser[user] = keys + 1
                firstOfKey[UInt64(user) << 32 | UInt64(keys)] = index
            }
            if payment.kind == .charge { chargesOfUser[user, default: []].append(index) }
            let at = Int64(index) * spacingMillis + Int64(random.below(Int(spacingMillis)))
            submissions.append(Submission(request: ServiceRequest(user: user, payment: payment), client: random.below(configuration.clients), at: at))
        }
        return submissions
    }

    private static func script(_ random: inout SplitMix64, _ mix: FaultMix) -> GatewayScript {
        let odds = GatewayOdds(timeout: mix[.timeout], lost: mix[.lost], decline: mix[.decline])
        var responses: [GatewayResponse] = []
        for _ in 0..<(1 + random.below(3)) {
            responses.append(odds.response(for: random.below(1000)))
        }
        return GatewayScript(responses)
    }
}

extension SplitMix64 {
    /// A number in `0..<bound` (bound > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// True with a chance of `permille` in a thousand.
    mutating func permille(_ permille: Int) -> Bool { permille > 0 && below(1000) < permille }
}
