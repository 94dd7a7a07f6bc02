import PaymentsCore

/// A kind of fault a simulated world can inject.
@_spi(Tooling) public enum FaultKind: String, CaseIterable, Sendable, Comparable {
    /// An attempt times out and the gateway does nothing (`T`).
    case timeout
    /// The gateway acts but its answer is lost (`L`).
    case lost
    /// The gateway answers after the attempt's deadline: the service has given up on it.
    case late
    /// The gateway declines (`D`).
    case decline
    /// Windows in which the gateway is down: every attempt times out.
    case outage
    /// Windows in which the gateway declines everything.
    case storm
    /// A client's request or the service's reply is lost: the client retries with the same key.
    case retry
    /// A client sends two copies of one request at once.
    case duplicate
    /// Messages get extra network delay, so they arrive out of order.
    case reorder
    /// The service crashes before a step and restarts from its store.
    case crash
    /// A store transaction fails midway and rolls back.
    case storage
    /// The service's wall clock jumps forward or back.
    case clock
    /// A payment reuses an earlier idempotency key of its user, with the same or other values.
    case reuse
    /// The service's machine loses power (a world on a simulated disk): before a service step, or
    /// at a transaction's sync, which then never happens; a seeded share of the unsynced writes survives.
    case power
    /// Power is lost at a transaction's sync and the last write that survives is torn.
    case torn
    /// A transaction's sync fails (EIO): the store is dead, the service restarts from what is durable.
    case fsync
    /// The disk is full for the next one to three writes of a transaction: it rolls back.
    case full
    /// A read after a transaction fails (EIO): the store is dead, the service restarts.
    case read

    @_spi(Tooling) public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The kind's position in `allCases` (a table index: cheaper than hashing the name).
    var ordinal: Int {
        switch self {
        case .timeout: 0
        case .lost: 1
        case .late: 2
        case .decline: 3
        case .outage: 4
        case .storm: 5
        case .retry: 6
        case .duplicate: 7
        case .reorder: 8
        case .crash: 9
        case .storage: 10
        case .clock: 11
        case .reuse: 12
        case .power: 13
        case .torn: 14
        case .fsync: 15
        case .full: 16
        case .read: 17
        }
    }

    /// The rate `all` and a bare name give, in thousandths.
    var defaultPermille: Int {
        switch self {
        case .timeout, .lost, .decline, .retry, .reorder, .reuse: 100
        case .late, .duplicate: 50
        case .outage, .storm: 30
        case .crash, .power: 5
        case .torn, .fsync, .full, .read: 10
        case .storage: 20
        case .clock: 10
        }
    }

    /// The most a mix may ask for, in thousandths.
    var maximumPermille: Int { self == .crash || self == .power ? 100 : 900 }

    /// What the kind does, in one line (`simulate --help` lists them; docs/simulate.md and
    /// docs/simulated-disk.md say it at length).
    package var summary: String {
        switch self {
        case .timeout: "per attempt: the gateway does nothing (T)"
        case .lost: "per attempt: the gateway acts, its answer is lost (L)"
        case .late: "per answer: it comes after the attempt's deadline"
        case .decline: "per attempt: the gateway declines (D)"
        case .outage: "time share in windows where the gateway is down"
        case .storm: "time share in windows where the gateway declines everything"
        case .retry: "per message: lost; the client retries with the same key"
        case .duplicate: "per request: sent twice at once, or again after its answer"
        case .reorder: "per message: up to 300 ms more delay, so messages overtake"
        case .crash: "per service step: a crash before it, a restart from the store"
        case .storage: "per transaction: it fails midway and rolls back"
        case .clock: "per service step: a 0.3-3 s stall; every timer due fires at once"
        case .reuse: "per payment: an earlier key of its user, same or other values"
        case .power: "disk: power lost before a step or at a sync; some writes survive"
        case .torn: "disk: power lost at a sync, the last surviving write torn"
        case .fsync: "disk: a sync fails (EIO); restart from what is durable"
        case .full: "disk: full for 1-3 writes; the transaction rolls back"
        case .read: "disk: a read fails (EIO); restart from what is durable"
        }
    }

    /// Whether the kind strikes a simulated disk (only worlds on one inject it).
    package var isDisk: Bool {
        switch self {
        case .power, .torn, .fsync, .full, .read: true
        default: false
        }
    }
}

/// The faults of one world and their rates, in thousandths: per attempt (`timeout`, `lost`,
/// `decline`), per answer (`late`), per message (`retry`, `reorder`), per request (`duplicate`,
/// `reuse`), per service step (`crash`, `clock`, `power`), per transaction (`storage`, `power`,
/// `torn`, `fsync`, `full`, `read`), or the share of the world's time in windows (`outage`, `storm`). Written `timeout=0.1,crash=0.005`; `none`; `all`.
@_spi(Tooling) public struct FaultMix: Hashable, Sendable, CustomStringConvertible {
    private var rates = [Int](repeating: 0, count: FaultKind.allCases.count)

    /// A mix of the given rates.
    @_spi(Tooling) public init(permille: [FaultKind: Int] = [:]) {
        for (kind, rate) in permille where rate > 0 { rates[kind.ordinal] = rate }
    }

    /// Rates in thousandths of the kinds that are on.
    package var permille: [FaultKind: Int] {
        Dictionary(uniqueKeysWithValues: FaultKind.allCases.filter { rates[$0.ordinal] > 0 }.map { ($0, rates[$0.ordinal]) })
    }

    /// Every kind at its default rate.
    @_spi(Tooling) public static var all: FaultMix { FaultMix(permille: Dictionary(uniqueKeysWithValues: FaultKind.allCases.map { ($0, $0.defaultPermille) })) }

    /// The rate of `kind` in thousandths (0: off).
    package subscript(kind: FaultKind) -> Int { rates[kind.ordinal] }

    /// Swarm testing: the mix a seed picks, each kind on with even odds at a rate between a fifth
    /// of and twice its default; the disk's kinds only for a world on a simulated `disk` (drawn
    /// after the others, which are the same either way).
    package static func swarm(seed: UInt64, disk: Bool = false) -> FaultMix {
        var random = SplitMix64(seed: seed ^ 0x5EED_FA17)
        var rates: [FaultKind: Int] = [:]
        for kind in FaultKind.allCases.filter({ !$0.isDisk }) + (disk ? FaultKind.allCases.filter(\.isDisk) : []) where random.next() & 1 == 1 {
            let low = max(1, kind.defaultPermille / 5)
            rates[kind] = min(kind.maximumPermille, Int.random(in: low...(2 * kind.defaultPermille), using: &random))
        }
        return FaultMix(permille: rates)
    }

    /// Parses `none`, `all`, or `kind[=rate],…` with rates in 0...1 (at most three decimals).
    package init(parsing text: String) throws(SimulationError) {
        if text == "none" { return }
        if text == "all" {
            self = .all
            return
        }
        var given: Set<FaultKind> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let kind = FaultKind(rawValue: String(parts[0])) else {
                throw .invalidConfiguration("unknown fault '\(parts[0])' (known: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")), none, all)")
            }
            guard !given.contains(kind) else { throw .invalidConfiguration("'\(kind.rawValue)' is given twice") }
            given.insert(kind)
            rates[kind.ordinal] = parts.count == 2 ? try Self.permille(String(parts[1]), of: kind) : kind.defaultPermille
        }
    }

    private static func permille(_ text: String, of kind: FaultKind) throws(SimulationError) -> Int {
        let pieces = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = pieces[0], fraction = pieces.count == 2 ? pieces[1] : ""
        guard !whole.isEmpty, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber), fraction.count <= 3,
              fraction.allSatisfy(\.isASCII), fraction.allSatisfy(\.isNumber), pieces.count == 1 || !fraction.isEmpty,
              let units = Int(whole), units <= 1
        else { throw .invalidConfiguration("the rate of '\(kind.rawValue)' must be a number from 0 to 1 with at most 3 decimals, not '\(text)'") }
        let rate = units * 1000 + (Int(fraction.padding(toLength: 3, withPad: "0", startingAt: 0)) ?? 0)
        guard rate <= kind.maximumPermille else {
            throw .invalidConfiguration("the rate of '\(kind.rawValue)' may be at most \(Self.decimal(kind.maximumPermille)), not \(text)")
        }
        return rate
    }

    private static func decimal(_ permille: Int) -> String {
        var text = String(permille / 1000)
        let fraction = permille % 1000
        guard fraction > 0 else { return text }
        var digits = String(fraction + 1000).dropFirst()
        while digits.hasSuffix("0") { digits = digits.dropLast() }
        text += "." + digits
        return text
    }

    /// The mix as `init(parsing:)` reads it, kinds in name order.
    @_spi(Tooling) public var description: String {
        let on = FaultKind.allCases.filter { rates[$0.ordinal] > 0 }.sorted()
        return on.isEmpty ? "none" : on.map { "\($0.rawValue)=\(Self.decimal(rates[$0.ordinal]))" }.joined(separator: ",")
    }
}

/// Why a simulation could not start.
@_spi(Tooling) public enum SimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A configuration that cannot work: a fault mix that does not parse, a store choice that
    /// cannot hold the world asked for (its message names the fields, not command-line options).
    case invalidConfiguration(String)
    /// A store or gateway file that cannot be used.
    case unusableFile(String)

    /// The message for the user.
    @_spi(Tooling) public var description: String {
        switch self {
        case .invalidConfiguration(let message), .unusableFile(let message): message
        }
    }
}
