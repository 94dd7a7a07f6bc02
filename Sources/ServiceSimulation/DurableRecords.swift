import Foundation
import PaymentsCore

/// A durable key-value store a service's repository is built on, with a disk's crash semantics: a `write`
/// reaches the operating system's cache at once and the disk at the next `sync`. When the service's
/// process crashes, what it wrote survives (the cache is the kernel's); when the power goes, what was not
/// synced is lost. Each call takes virtual time, so a crash can land between any two of them: a service
/// that answers before it saves, or saves without syncing, is caught.
public final class DurableRecords: @unchecked Sendable {
    /// The simulated world's state; nil in load mode, where `live` keeps the records.
    let world: WorldState?
    let live: LiveRecords?
    /// What a reader sees: synced records and the writes since.
    private var cached: [String: Data] = [:]
    /// What is on the disk.
    private var synced: [String: Data] = [:]

    init(world: WorldState) {
        self.world = world
        live = nil
    }

    init(live: LiveRecords) {
        world = nil
        self.live = live
    }

    /// The record under `key`, nil when there is none.
    public func read(_ key: String) async throws -> Data? {
        if let live { return live.read(key) }
        try await call()
        return cached[key]
    }

    /// Writes `value` under `key`: seen by every read at once, on the disk after the next `sync`.
    public func write(_ key: String, _ value: Data) async throws {
        if let live { return live.write(key, value) }
        try await call()
        cached[key] = value
        world?.log("store write \(key)")
    }

    /// Removes the record under `key` (on the disk after the next `sync`).
    public func remove(_ key: String) async throws {
        if let live { return live.write(key, nil) }
        try await call()
        cached[key] = nil
    }

    /// Puts every write so far on the disk (fsync): they survive a power loss once this returns.
    public func sync() async throws {
        if live != nil { return }
        try await call()
        synced = cached
        world?.log("store sync")
    }

    /// Every key that starts with `prefix`, in byte order.
    public func keys(withPrefix prefix: String = "") async throws -> [String] {
        if let live { return live.keys(withPrefix: prefix) }
        try await call()
        return cached.keys.filter { $0.hasPrefix(prefix) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The power went: the writes not synced are gone.
    func losePower() {
        cached = synced
        world?.log("power loss: the store is back to its last sync")
    }

    /// One call's time, in a live incarnation (a call the crash interrupts does nothing).
    private func call() async throws {
        guard let world else { return }
        let incarnation = try world.check()
        try await world.clock.sleep(for: world.latency(storage: true))
        try world.check(incarnation)
    }
}

/// The state a world's gateway, store and checkers share. It is touched only from the world's thread.
final class WorldState: @unchecked Sendable {
    let configuration: ServiceWorldConfiguration
    let clock: VirtualClock
    private(set) var incarnation = 0
    var acts: [String: GatewayAct] = [:]
    private var attempts: [String: Int] = [:]
    private var generator: SplitMix
    private(set) var history: [String] = []

    init(configuration: ServiceWorldConfiguration, clock: VirtualClock) {
        self.configuration = configuration
        self.clock = clock
        generator = SplitMix(seed: configuration.seed ^ 0x6A7E_3A11)
    }

    /// The calling task's incarnation; throws when it is not the live one.
    @discardableResult
    func check(_ expected: Int? = nil) throws -> Int {
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
        var script = SplitMix(seed: configuration.seed ^ fnv1a(key))
        let length = 1 + Int(script.next() % 3)
        var token = GatewayResponse.approved
        for _ in 0...min(attempt, length - 1) {
            let draw = script.next() % 100
            token = draw < 70 ? .approved : draw < 80 ? .declined : draw < 92 ? .timedOut : .lost
        }
        return token
    }

    /// Adds a line to the world's history (kept whole: a world is small).
    func log(_ line: String) {
        history.append("\(Self.format(clock.now.offset))  \(line)")
    }

    /// `12.345 ms`.
    static func format(_ time: Duration) -> String {
        let micros = time.components.seconds * 1_000_000 + time.components.attoseconds / 1_000_000_000_000
        return String(format: "%9.3f ms", Double(micros) / 1_000)
    }
}

/// FNV-1a of `text`'s UTF-8 bytes.
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
}
