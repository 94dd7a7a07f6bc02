import Foundation
@_spi(Tooling) import ServiceSimulation
import Synchronization
import Testing

/// An account written the way reentrancy bugs are: read, await, write back.
private actor ReentrantAccount {
    private(set) var balance = 0

    func deposit(_ amount: Int, clock: VirtualClock) async throws {
        let read = balance
        try await clock.sleep(for: .milliseconds(1))
        balance = read + amount
    }
}

/// The same account done right: no await between the read and the write.
private actor SafeAccount {
    private(set) var balance = 0

    func deposit(_ amount: Int, clock: VirtualClock) async throws {
        try await clock.sleep(for: .milliseconds(1))
        balance += amount
    }
}

/// Four clients deposit 1 each, concurrently, into `account`; returns the final balance.
private func depositFromFourClients(into deposit: @escaping @Sendable (VirtualClock) async throws -> Void, balance: @escaping @Sendable () async -> Int)
    -> @Sendable (VirtualClock) async throws -> Int
{
    { clock in
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<4 {
                group.addTask {
                    try await clock.sleep(for: .microseconds(client))
                    await Task.yield()
                    try await deposit(clock)
                }
            }
            try await group.waitForAll()
        }
        return await balance()
    }
}

@Suite("Seeded worlds: one interleaving a seed")
struct SeededWorldTests {
    @Test("a reentrant actor loses updates under some seeds and not under others, the same seeds on every run", arguments: [
        ScheduleStrategy.random, .pct(changePoints: 2),
    ])
    func reentrancyIsFoundAndRepeatable(schedule: ScheduleStrategy) throws {
        // Given an actor that reads, awaits and writes back, four clients depositing into it
        // When 40 seeds run twice each (each on a fresh account)
        func balances() throws -> [Int] {
            try (0..<40 as Range<UInt64>).map { seed in
                let fresh = ReentrantAccount()
                let body = depositFromFourClients(into: { try await fresh.deposit(1, clock: $0) }, balance: { await fresh.balance })
                return try SeededWorld.run(seed: seed, schedule: schedule, body).value.get()
            }
        }
        let first = try balances()
        let second = try balances()

        // Then some seeds lose updates, others do not, and each seed gives the same balance both times
        #expect(first == second)
        #expect(first.contains { $0 < 4 })
        #expect(first.allSatisfy { (1...4).contains($0) })
    }

    @Test("the correct actor keeps every update under every seed")
    func safeActorHolds() throws {
        // Given the actor without an await between read and write
        // When 40 seeds run
        let balances = try (0..<40 as Range<UInt64>).map { seed in
            let sut = SafeAccount()
            return try SeededWorld.run(seed: seed, depositFromFourClients(into: { try await sut.deposit(1, clock: $0) }, balance: { await sut.balance }))
                .value.get()
        }
        // Then no update is lost
        #expect(balances.allSatisfy { $0 == 4 })
    }

    @Test("the same seed gives the same trace hash; other seeds mostly other hashes")
    func traceHashIsTheSeeds() throws {
        // Given a world of a task group and an actor
        @Sendable func hash(_ seed: UInt64) throws -> UInt64 {
            let account = ReentrantAccount()
            return try SeededWorld.run(seed: seed, depositFromFourClients(into: { try await account.deposit(1, clock: $0) }, balance: { await account.balance }))
                .traceHash
        }
        // When seeds run twice, the second time on threads running side by side
        let once = try (0..<16 as Range<UInt64>).map(hash)
        let twice = Mutex16()
        DispatchQueue.concurrentPerform(iterations: 16) { index in twice.set(index, try? hash(UInt64(index))) }

        // Then each seed's hash is the same, and the seeds do not all give one hash
        #expect(twice.values == once)
        #expect(Set(once).count > 8)
    }

    @Test("virtual time jumps to the next sleeper: an hour of sleeps costs no real time")
    func virtualTime() throws {
        // Given a body that sleeps an hour in steps of a minute
        let body: @Sendable (VirtualClock) async throws -> Duration = { clock in
            let start = clock.now
            for _ in 0..<60 { try await clock.sleep(for: .seconds(60)) }
            return start.duration(to: clock.now)
        }
        // When it runs
        let sut = try SeededWorld.run(seed: 1, body)

        // Then an hour passed in the world
        #expect(try sut.value.get() == .seconds(3_600))
        #expect(sut.virtualTime == .seconds(3_600))
    }

    @Test("a task that waits for ever is a deadlock, reported, not a hang")
    func deadlock() {
        // Given a body that waits on a continuation nobody resumes
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return 1
        }
        // When it runs, Then it fails as a deadlock
        #expect {
            _ = try SeededWorld.run(seed: 1, escapeGrace: .milliseconds(5), body)
        } throws: { error in
            guard case .deadlock(let text)? = error as? SeededWorldFailure else { return false }
            return text.contains("no job to run and no sleeper")
        }
    }

    @Test("a task resumed from a thread outside the world is reported as escaped, naming the thread and its last await")
    func escape() throws {
        // Given a body whose continuation a dispatch queue (given the work before the world: no world's) resumes once
        // the body's task has suspended: the world's step hook signals it after the first job, which ends at the
        // suspension (a continuation resumed before its task suspends never leaves the world's thread)
        let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let handedOver = DispatchSemaphore(value: 0)
        DispatchQueue(label: "app.callback").async {
            handedOver.wait()
            waiting.withLock { $0.take() }?.resume()
        }
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                waiting.withLock { $0 = continuation }
            }
            return 1
        }
        let signalled = Mutex(false)
        let resumeFromOutside: @Sendable (Int) -> Void = { _ in
            guard waiting.withLock({ $0 != nil }) else { return }
            if signalled.withLock({ done in defer { done = true }; return !done }) { handedOver.signal() }
        }
        // When it runs
        let failure = #expect(throws: SeededWorldFailure.self) {
            _ = try SeededWorld.run(seed: 1, escapeGrace: .seconds(5), onStep: resumeFromOutside, body)
        }
        // Then nondeterminism escaped, naming the thread and the await in this test's code the task waited at
        let report = "\(try #require(failure))"
        #expect(report.hasPrefix("nondeterminism-escaped: a task of the world was resumed from DispatchQueue 'app.callback'"))
        #expect(report.contains("(its last await: #"), "\(report)")
        #expect(report.contains(" in ServiceSimulationTests.SeededWorldTests.escape() throws -> ())"), "\(report)")
    }

    @Test("a task that yields for ever stops at the step limit")
    func stepLimit() {
        // Given a body that never stops yielding
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            while true { await Task.yield() }
        }
        // When it runs with a limit, Then it stops there
        #expect(throws: SeededWorldFailure.stepLimit(1_000)) {
            _ = try SeededWorld.run(seed: 1, stepLimit: 1_000, body)
        }
    }

    @Test("a schedule reads back from its text", arguments: [
        ("random", ScheduleStrategy.random), ("pct", .pct(changePoints: 3)), ("pct:5", .pct(changePoints: 5)),
    ])
    func scheduleText(text: String, schedule: ScheduleStrategy) {
        #expect(ScheduleStrategy(text) == schedule)
        #expect(ScheduleStrategy(schedule.description) == schedule)
    }

    @Test("a schedule that is not one is refused", arguments: ["", "fifo", "pct:", "pct:-1", "pct:65"])
    func badScheduleText(text: String) {
        #expect(ScheduleStrategy(text) == nil)
    }

    @Test("the body's error is its world's value, not a failure of the world")
    func bodyError() throws {
        struct Planted: Error {}
        let sut = try SeededWorld.run(seed: 3) { (_: VirtualClock) async throws -> Int in throw Planted() }
        #expect(throws: Planted.self) { try sut.value.get() }
    }
}

/// Sixteen optional hashes written from several threads.
private final class Mutex16: @unchecked Sendable {
    private let lock = NSLock()
    private var slots = [UInt64?](repeating: nil, count: 16)

    func set(_ index: Int, _ value: UInt64?) { lock.withLock { slots[index] = value } }
    var values: [UInt64] { lock.withLock { slots.compactMap { $0 } } }
}
