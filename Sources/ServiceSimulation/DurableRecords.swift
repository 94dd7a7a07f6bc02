import CWorldHooks
import Foundation
import PaymentsCore

/// A durable key-value store a service's repository is built on, with a disk's crash semantics: a `write`
/// reaches the operating system's cache at once and the disk at the next `sync`. When the service's
/// process crashes, what it wrote survives (the cache is the kernel's); when the power goes, what was not
/// synced is lost, and a new record being written last may be left torn. Each call takes virtual time, so a
/// crash can land between any two of them: a service that answers before it saves, or saves without
/// syncing, is caught. With the world's faults on, the disk also fills (a write throws
/// `DurableRecordsError.diskFull`) and fails syncs (`.syncFailed`), as the own service's simulated disk does.
package final class DurableRecords: RecordStore, @unchecked Sendable {
    /// The simulated world's state.
    let world: WorldState
    /// What a reader sees: synced records and the writes since.
    private var cached: [String: Data] = [:]
    /// What is on the disk.
    private var synced: [String: Data] = [:]
    /// Records a power loss tore, as a reader sees them: reading one throws. A write or remove mends one in
    /// the cache; it stays torn on the disk (`tornOnDisk`) until a sync, and a power loss before it shows it again.
    private var torn: Set<String> = []
    private var tornOnDisk: Set<String> = []
    /// The key of the last write since the last sync: the one a power loss may tear.
    private var lastUnsynced: String?
    /// The storage faults' draws (nil: no faults), apart from the gateway's and the schedule's.
    private var faults: SplitMix64?

    init(world: WorldState) {
        self.world = world
        faults = world.configuration.faults ? SplitMix64(seed: world.configuration.seed ^ 0x5707_A6E5) : nil
    }

    /// The record under `key`, nil when there is none.
    package func read(_ key: String) async throws -> Data? {
        try await call("the store's read of \(key)")
        if torn.contains(key) { throw DurableRecordsError.torn(key: key) }
        return cached[key]
    }

    /// Writes `value` under `key`: seen by every read at once, on the disk after the next `sync`. Throws
    /// `DurableRecordsError.diskFull`, having written nothing, when the disk is full (1 write in 100 with faults).
    package func write(_ key: String, _ value: Data) async throws {
        try await call("the store's write of \(key)")
        if strikes(oneIn: 100) {
            world.log("store write \(key): the disk is full")
            throw DurableRecordsError.diskFull(key: key)
        }
        cached[key] = value
        torn.remove(key)
        lastUnsynced = key
        world.log("store write \(key)")
    }

    /// Removes the record under `key` (on the disk after the next `sync`).
    package func remove(_ key: String) async throws {
        try await call("the store's remove of \(key)")
        cached[key] = nil
        torn.remove(key)
    }

    /// Puts every write so far on the disk (fsync): they survive a power loss once this returns. Throws
    /// `DurableRecordsError.syncFailed`, having put nothing on the disk, when the disk fails (1 sync in 50 with
    /// faults); the writes stay in the cache, and a later sync that succeeds puts them on the disk.
    package func sync() async throws {
        try await call("the store's sync")
        if strikes(oneIn: 50) {
            world.log("store sync failed: nothing reached the disk")
            throw DurableRecordsError.syncFailed
        }
        synced = cached
        tornOnDisk = torn
        lastUnsynced = nil
        world.log("store sync")
    }

    /// Writes `records` and removes `keys` as one transaction, as a database commits: when it returns, all of
    /// them are on the disk (they survive a power loss); when it throws, none of them happened, in the cache
    /// or on the disk. With faults it throws `DurableRecordsError.diskFull` (1 commit in 100) or `.syncFailed`
    /// (1 in 50); a crash during the call leaves nothing either. Writes made with `write` and not yet synced
    /// stay as they were. A key in both `records` and `keys` is removed.
    package func commit(writing records: [String: Data], removing keys: [String]) async throws {
        let changed = Set(records.keys).union(keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        try await call("the store's commit of \(changed.joined(separator: ", "))")
        if strikes(oneIn: 100) {
            world.log("store commit: the disk is full, nothing changed")
            throw DurableRecordsError.diskFull(key: changed.first ?? "")
        }
        if strikes(oneIn: 50) {
            world.log("store commit: the sync failed, nothing changed")
            throw DurableRecordsError.syncFailed
        }
        let removed = Set(keys)
        for key in changed {
            let value = removed.contains(key) ? nil : records[key]
            cached[key] = value
            synced[key] = value
            torn.remove(key)
            tornOnDisk.remove(key)
            if lastUnsynced == key { lastUnsynced = nil }
        }
        world.log("store commit \(changed.joined(separator: ", "))")
    }

    /// Every key that starts with `prefix`, in byte order.
    package func keys(withPrefix prefix: String) async throws -> [String] {
        try await call("the store's keys")
        return cached.keys.filter { $0.hasPrefix(prefix) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The power went: the writes not synced are gone; with faults, the last of them, when it made a new
    /// record, is one time in two left torn. (The store writes out of place, as a log-structured store or
    /// SQLite's WAL does: an update the power cuts leaves the synced version whole.)
    func losePower() {
        cached = synced
        torn = tornOnDisk
        if let key = lastUnsynced, synced[key] == nil, strikes(oneIn: 2) {
            cached[key] = Data()
            synced[key] = Data()
            torn.insert(key)
            tornOnDisk.insert(key)
            world.log("power loss: the store is back to its last sync, \(key) torn")
        } else {
            world.log("power loss: the store is back to its last sync")
        }
        lastUnsynced = nil
    }

    /// Whether a fault strikes this call: a draw of the storage faults' generator, one time in `n`.
    private func strikes(oneIn n: UInt64) -> Bool {
        guard faults != nil else { return false }
        return faults!.next() % n == 0
    }

    /// One call's time, in a live incarnation (a call the crash interrupts does nothing), on the world's thread.
    private func call(_ what: @autoclosure () -> String) async throws {
        let incarnation = try world.check(calling: what())
        try await world.clock.sleep(for: world.latency(storage: true))
        try world.check(incarnation)
    }
}

/// A storage fault, as the store's caller sees it.
public enum DurableRecordsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The disk is full: the write of `key` did nothing (ENOSPC).
    case diskFull(key: String)
    /// The sync failed (EIO): nothing reached the disk; the writes stay in the cache, not yet durable.
    case syncFailed
    /// The new record under `key` was being written when the power went and is torn: the store checks its
    /// records, so it says so rather than return half of one. It was never synced, so no client can have
    /// been told of it by a service that syncs before it answers.
    case torn(key: String)

    /// What the disk refused, in words.
    public var description: String {
        switch self {
        case .diskFull(let key): "the disk is full (writing \(key))"
        case .syncFailed: "the sync failed (EIO)"
        case .torn(let key): "the record \(key) is torn"
        }
    }
}

/// The state a world's gateway, store and checkers share. It is touched only from the world's thread: a
/// call from any other thread throws `CalledFromOutside` and fails the world as escaped.
final class WorldState: @unchecked Sendable {
    let configuration: ServiceWorldConfiguration
    /// The world's thread (the state is made there), and its hooks, where a call from outside is noted.
    private let thread = pthread_self()
    private let hooks = world_hooks_current()
    private lazy var generation = hooks.map(world_hooks_generation) ?? 0
    let clock: VirtualClock
    private(set) var incarnation = 0
    var acts: [String: GatewayAct] = [:]
    /// Called at each act of the gateway, when it happens (the invariants checked at once).
    var onAct: ((GatewayAct) -> Void)?
    private var attempts: [String: Int] = [:]
    private var generator: SplitMix64
    private(set) var history: [String] = []

    init(configuration: ServiceWorldConfiguration, clock: VirtualClock) {
        self.configuration = configuration
        self.clock = clock
        generator = SplitMix64(seed: configuration.seed ^ 0x6A7E_3A11)
    }

    /// The calling task's incarnation; throws when it is not the live one, or when the caller is not on the
    /// world's thread (`what` is the call, as the escape names it).
    @discardableResult
    func check(_ expected: Int? = nil, calling what: @autoclosure () -> String = "the world's environment") throws -> Int {
        guard pthread_equal(thread, pthread_self()) != 0 else {
            let call = what()
            if let hooks { _ = world_hooks_note_foreign_call(hooks, generation, call) }
            throw CalledFromOutside(call: call)
        }
        let mine = expected ?? Incarnation.current
        guard mine == incarnation else { throw ServiceCrashed(incarnation: mine) }
        return mine
    }

    /// Ends the live incarnation: its tasks' calls throw from now on.
    func crash() {
        incarnation += 1
        log("crash: incarnation \(incarnation - 1) is gone")
    }

    /// A call's latency: 1–20 ms for the gateway, 0.1–2 ms for the store; one gateway call in 20 is slow (0.2–1 s).
    func latency(storage: Bool = false) -> Duration {
        let draw = generator.next()
        if storage { return .microseconds(100 + Int(draw % 1_900)) }
        let slow = configuration.faults && draw % 20 == 0
        return slow ? .milliseconds(200 + Int((draw >> 8) % 800)) : .milliseconds(1 + Int((draw >> 8) % 20))
    }

    /// The token the gateway follows for the next call with `key`: its script, drawn from the seed and the
    /// key, one token a call, the last repeated.
    func nextToken(for key: String) -> GatewayResponse {
        let attempt = attempts[key, default: 0]
        attempts[key] = attempt + 1
        guard configuration.faults else { return .approved }
        var script = SplitMix64(seed: configuration.seed ^ fnv1a(key))
        let length = 1 + Int(script.next() % 3)
        var token = GatewayResponse.approved
        for _ in 0...min(attempt, length - 1) {
            let draw = script.next() % 100
            token = draw < 70 ? .approved : draw < 80 ? .declined : draw < 92 ? .timedOut : .lost
        }
        return token
    }

    /// Adds a line to the world's history (kept whole: a world is small), when the world keeps one: `line`
    /// is not even made otherwise.
    func log(_ line: @autoclosure () -> String) {
        guard configuration.keepsHistory else { return }
        history.append("\(Self.format(clock.now.offset))  \(line())")
    }

    /// `12.345 ms`.
    static func format(_ time: Duration) -> String {
        let micros = time.components.seconds * 1_000_000 + time.components.attoseconds / 1_000_000_000_000
        return String(format: "%9.3f ms", Double(micros) / 1_000)
    }
}

/// A call to a world's gateway or store from a thread the world does not own: refused, never run (the
/// state is the world thread's), and the world fails as escaped.
struct CalledFromOutside: Error, CustomStringConvertible {
    var call: String
    var description: String { "\(call) was called from a thread the seeded world does not own" }
}

/// FNV-1a of `text`'s UTF-8 bytes.
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
}
