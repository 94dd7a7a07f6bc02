import CWorldHooks
import Foundation
@_spi(Tooling) import ServiceSimulation
import Synchronization
import Testing

/// A view model as SwiftUI apps write one: main-actor state, a `Task {}` per tap.
@MainActor
private final class TapCounter {
    private(set) var taps = 0
    private(set) var done = 0

    func tap() -> Task<Void, Never> {
        taps += 1
        return Task {
            try? await Task.sleep(for: .milliseconds(100))
            MainActor.assertIsolated()
            done += 1
        }
    }
}

/// An account updated the way app code races: read, sleep on the real clock's API, write back.
private actor SleepyAccount {
    private(set) var balance = 0

    func deposit(_ amount: Int) async {
        let read = balance
        try? await Task.sleep(for: .milliseconds(1))
        balance = read + amount
    }
}

/// What app code reads from the machine inside a world.
private struct Readings: Hashable, Sendable {
    var uuid: UUID
    var random: Int
    var shuffled: [Int]
    var wallSeconds: TimeInterval
    var sleptContinuous: Duration
    var sleptSuspending: Duration
}

/// Code written as apps write it, with no clock or generator injected, runs inside a seeded world: its
/// unstructured tasks, main actor, sleeps, clocks and randomness are the world's.
@Suite("App code inside a seeded world")
struct AppCodeInWorldTests {
    @Test("Task {} and Task.detached run in the world, and their sleeps are virtual")
    func unstructuredTasksRunInTheWorld() throws {
        // Given a body that waits for an unstructured and a detached task, each sleeping a minute
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            let attached = Task { try await Task.sleep(for: .seconds(60)); return 1 }
            let detached = Task.detached { try await Task.sleep(for: .seconds(60)); return 2 }
            return try await attached.value + detached.value
        }
        // When it runs
        let sut = try SeededWorld.run(seed: 3, body)

        // Then both ran to their end, in virtual time
        #expect(try sut.value.get() == 3)
        #expect(sut.virtualTime == .seconds(60))
    }

    @Test("a @MainActor view model's tap tasks run in the world, isolated to the main actor")
    func mainActorRunsInTheWorld() throws {
        // Given a body that taps a main-actor model twice and waits for both tasks
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            let model = TapCounter()
            let first = await model.tap()
            let second = await model.tap()
            await first.value
            await second.value
            return await model.done
        }
        // When it runs
        let sut = try SeededWorld.run(seed: 5, body)

        // Then both taps finished
        #expect(try sut.value.get() == 2)
    }

    @Test("ContinuousClock, SuspendingClock and Date read virtual time; UUID, random and shuffled come from the seed")
    func clocksAndRandomnessAreTheWorlds() throws {
        // Given a body that reads the machine as app code does
        let body: @Sendable (VirtualClock) async throws -> Readings = { _ in
            let continuous = ContinuousClock.now
            let suspending = SuspendingClock.now
            let wall = Date()
            try await Task.sleep(for: .seconds(90))
            return Readings(
                uuid: UUID(), random: Int.random(in: 0..<1_000_000_000), shuffled: Array(0..<10).shuffled(),
                wallSeconds: Date().timeIntervalSince(wall), sleptContinuous: ContinuousClock.now - continuous,
                sleptSuspending: SuspendingClock.now - suspending)
        }
        // When seeds 1 and 2 run, seed 1 twice
        let first = try SeededWorld.run(seed: 1, body).value.get()
        let again = try SeededWorld.run(seed: 1, body).value.get()
        let other = try SeededWorld.run(seed: 2, body).value.get()

        // Then the clocks moved by the virtual 90 s, and the same seed read the same values
        #expect(first.wallSeconds == 90)
        #expect(first.sleptContinuous == .seconds(90))
        #expect(first.sleptSuspending == .seconds(90))
        #expect(again == first)
        #expect(other.uuid != first.uuid)
        #expect(other.random != first.random)
    }

    @Test("outside a world the clocks and randomness stay the machine's")
    func outsideAWorldNothingChanges() async throws {
        // Given the harness's own code, on the concurrency pool
        let before = Date()
        // When it sleeps a little on the real clock and draws two UUIDs
        try await Task.sleep(for: .milliseconds(2))
        let (a, b) = (UUID(), UUID())

        // Then real time passed and the UUIDs differ
        #expect(Date().timeIntervalSince(before) >= 0.002)
        #expect(Date().timeIntervalSince1970 > 1_780_000_000)
        #expect(a != b)
    }

    @Test("a read-sleep-write actor called from Task {}s loses updates under some seeds, the same ones every run")
    func raceOfUnstructuredTasksIsSeeded() throws {
        // Given four unstructured tasks depositing 1 each into a reentrant account
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            let account = SleepyAccount()
            let tasks = (0..<4).map { _ in Task { await account.deposit(1) } }
            for task in tasks { await task.value }
            return await account.balance
        }
        // When 16 seeds run twice
        let balances = try (0..<16 as Range<UInt64>).map { try SeededWorld.run(seed: $0, body).value.get() }
        let again = try (0..<16 as Range<UInt64>).map { try SeededWorld.run(seed: $0, body).value.get() }

        // Then some seeds lose updates, and each seed gives the same balance twice
        #expect(balances.contains { $0 < 4 })
        #expect(again == balances)
    }

    @Test("work handed to Dispatch or a thread from the world is named, in every world", arguments: [
        EscapeCase.dispatchAsync, .dispatchAfter, .thread,
    ])
    func dispatchFromTheWorldIsNamed(escape: EscapeCase) {
        // Given a body that awaits a continuation resumed from outside the world
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in escape.resume(continuation) }
            return 1
        }
        // When eight seeds run, Then each fails naming what left the world and the code that sent it
        Self.expectEveryWorldEscapes(body, named: escape.named, madeIn: "EscapeCase.resume(")
    }

    @Test("a blocking sleep on the world's thread is named, in every world", arguments: [BlockingSleep.threadSleep, .usleep])
    func blockingSleepIsNamed(sleep: BlockingSleep) {
        // Given a body that sleeps its thread, as a retry written with Thread.sleep does
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            sleep.run()
            return 1
        }
        // When eight seeds run, Then each fails naming the blocking sleep
        Self.expectEveryWorldEscapes(body, named: "a blocking sleep on the world's thread (Thread.sleep, usleep, nanosleep)")
    }

    @Test("a wait for a semaphore or a group that would block the world's thread is named, in every world, and ends at once",
          arguments: BlockingWait.allCases)
    func blockingWaitIsNamed(wait: BlockingWait) {
        // Given a body that bridges async work to a blocking wait, as app code written before async/await does
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            wait.run()
            return 1
        }
        // When eight seeds run, Then each fails naming the wait and the code that waited (never a hang)
        Self.expectEveryWorldEscapes(body, named: wait.named, madeIn: "BlockingWait.run()")
    }

    @Test("a wait that need not block (the semaphore's count is up) goes on, and the world passes")
    func waitThatNeedNotBlock() throws {
        // Given a body that takes a semaphore whose count is up, and gives it back
        let body: @Sendable (VirtualClock) async throws -> Int = { _ in
            let semaphore = DispatchSemaphore(value: 1)
            semaphore.wait()
            semaphore.signal()
            return 1
        }
        // When it runs, Then the world passes
        let sut = try SeededWorld.run(seed: 3, body)
        #expect(try sut.value.get() == 1)
    }

    @Test("a sleep of Dispatch or of the concurrency runtime is a contention backoff, not the program's",
          arguments: CodeSite.allCases)
    func runtimeSleepsAreNoEscape(site: CodeSite) throws {
        // Given code of Dispatch, of the concurrency runtime, of the C library or of this program
        let sut = try #require(site.address)
        // When a sleep comes from there, Then only Dispatch's and the runtime's sleep for real, unblamed
        #expect((world_hooks_runtime_code(sut) != 0) == site.isRuntime)
    }

    /// Runs `body` in eight worlds and expects each to fail as escaped, its report starting with `named`.
    private static func expectEveryWorldEscapes(
        _ body: @escaping @Sendable (VirtualClock) async throws -> Int, named: String, madeIn code: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for seed in 0..<8 as Range<UInt64> {
            #expect(sourceLocation: sourceLocation) {
                _ = try SeededWorld.run(seed: seed, body)
            } throws: { error in
                guard case .escaped(let text)? = error as? SeededWorldFailure else { return false }
                return text.hasPrefix(named) && code.map { text.contains($0) } != false
            }
        }
    }
}

/// Blocking waits app code writes: a task's result bridged to synchronous code.
enum BlockingWait: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case semaphore, group

    var testDescription: String { rawValue }

    var named: String { "a blocking wait on the world's thread (\(self == .semaphore ? "DispatchSemaphore" : "DispatchGroup").wait)" }

    func run() {
        switch self {
        case .semaphore:
            let done = DispatchSemaphore(value: 0)
            Task { done.signal() }
            done.wait()
        case .group:
            let group = DispatchGroup()
            group.enter()
            Task { group.leave() }
            group.wait()
        }
    }
}

/// Where code lives, for telling the runtime's sleeps from the program's.
enum CodeSite: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case dispatch, concurrencyRuntime, cLibrary, program

    var testDescription: String { rawValue }
    var isRuntime: Bool { self == .dispatch || self == .concurrencyRuntime }

    /// The address of a function there.
    var address: UnsafeRawPointer? {
        switch self {
        case .dispatch: UnsafeRawPointer(dlsym(nil, "dispatch_semaphore_create"))
        case .concurrencyRuntime: UnsafeRawPointer(dlsym(nil, "swift_task_getCurrent"))
        case .cLibrary: UnsafeRawPointer(dlsym(nil, "nanosleep"))
        case .program: unsafeBitCast(programFunction, to: UnsafeRawPointer.self)
        }
    }
}

private let programFunction: @convention(c) () -> Void = {}

/// Blocking sleeps app code writes.
enum BlockingSleep: String, CustomTestStringConvertible, Sendable {
    case threadSleep, usleep

    var testDescription: String { rawValue }

    func run() {
        switch self {
        case .threadSleep: Thread.sleep(forTimeInterval: 0.05)
        case .usleep: _ = Foundation.usleep(50_000)
        }
    }
}

/// Ways app code hands a continuation to a thread the world does not own.
enum EscapeCase: String, CustomTestStringConvertible, Sendable {
    case dispatchAsync, dispatchAfter, thread

    var testDescription: String { rawValue }

    /// How the world's report begins.
    var named: String {
        switch self {
        case .dispatchAsync: "DispatchQueue.async on 'app.network'"
        case .dispatchAfter: "DispatchQueue.asyncAfter on 'app.retry'"
        case .thread: "a new thread"
        }
    }

    func resume(_ continuation: CheckedContinuation<Void, Never>) {
        switch self {
        case .dispatchAsync: DispatchQueue(label: "app.network").async { continuation.resume() }
        case .dispatchAfter: DispatchQueue(label: "app.retry").asyncAfter(deadline: .now() + .milliseconds(1)) { continuation.resume() }
        case .thread: Thread { continuation.resume() }.start()
        }
    }
}
