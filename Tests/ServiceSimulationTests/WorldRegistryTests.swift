import CWorldHooks
import Foundation
import Testing

/// The live worlds' registry in `CWorldHooks`: how a job enqueued from a thread no world owns finds the
/// world that queued it. The jobs here are addresses inside a buffer of the test's own and task ids no
/// runtime hands out, so no real job (of a world another test runs meanwhile) can match them.
@Suite("The live worlds: a job from outside finds its world, and only its world")
struct WorldRegistryTests {
    /// Job addresses no real job can have: 16-byte steps inside memory this suite owns, zeroed (an adopted job's
    /// header is read for its task's last await: none here).
    private final class FakeJobs {
        private let memory: UnsafeMutableRawPointer = {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: 64 * 1024)
            return memory
        }()
        deinit { memory.deallocate() }
        func address(_ n: Int) -> UInt { UInt(bitPattern: memory + 16 * n) }
    }

    private static let fakeTask: UInt64 = .max - 7

    @Test("a job the world queued, enqueued from outside, is adopted and the world's escape names the thread")
    func adoptedFromOutside() throws {
        // Given a live world that queued a job
        let jobs = FakeJobs()
        let sut = try #require(world_hooks_acquire(1))
        defer { world_hooks_release(sut) }
        world_hooks_note_job(sut, jobs.address(3), Self.fakeTask)

        // When the job arrives from a thread no world owns
        let adopted = world_hooks_adopt_foreign(jobs.address(3), Self.fakeTask)

        // Then the world keeps it and counts an escape resumed from outside, naming the thread
        #expect(adopted == 1)
        #expect(world_hooks_escapes(sut) == 1)
        var text = [CChar](repeating: 0, count: Int(WORLD_HOOKS_ESCAPE_TEXT))
        #expect(world_hooks_first_escape(sut, &text, text.count) == WORLD_HOOKS_RESUMED_FROM)
        #expect(String(cString: text).contains("thread '"))
    }

    @Test("a job at a queued job's address but of another task is not the world's", arguments: [Self.fakeTask - 1, 0])
    func anotherTaskAtTheSameAddress(task: UInt64) throws {
        // Given a live world that queued a job of one task
        let jobs = FakeJobs()
        let sut = try #require(world_hooks_acquire(2))
        defer { world_hooks_release(sut) }
        world_hooks_note_job(sut, jobs.address(5), Self.fakeTask)

        // When another task's job at the same address (memory reused) arrives from outside
        let adopted = world_hooks_adopt_foreign(jobs.address(5), task)

        // Then it runs where it was sent: no world claims it
        #expect(adopted == 0)
        #expect(world_hooks_escapes(sut) == 0)
    }

    @Test("a job that is not a task's is never the world's: its address alone would claim a harness job that reuses it")
    func jobsOfNoTaskAreNotClaimed() throws {
        // Given a live world that queued a job of no task (a default actor's processing job)
        let jobs = FakeJobs()
        let sut = try #require(world_hooks_acquire(5))
        defer { world_hooks_release(sut) }
        world_hooks_note_job(sut, jobs.address(9), 0)

        // When a job of no task at that address (the harness's, once the memory was reused) arrives from outside
        let adopted = world_hooks_adopt_foreign(jobs.address(9), 0)

        // Then it runs where it was sent
        #expect(adopted == 0)
        #expect(world_hooks_escapes(sut) == 0)
    }

    @Test("a world that ended claims none of its jobs, and the world that takes its state over starts clean")
    func endedWorldClaimsNothing() throws {
        // Given a world that queued a job and ended
        let jobs = FakeJobs()
        let ended = try #require(world_hooks_acquire(3))
        world_hooks_note_job(ended, jobs.address(7), Self.fakeTask)
        world_hooks_release(ended)

        // When a new world starts and the ended world's job arrives from outside
        let sut = try #require(world_hooks_acquire(4))
        defer { world_hooks_release(sut) }
        let adopted = world_hooks_adopt_foreign(jobs.address(7), Self.fakeTask)

        // Then nobody claims it, and the new world has no escape and its own seed
        #expect(adopted == 0)
        #expect(world_hooks_escapes(sut) == 0)
        #expect(sut.pointee.random == 4)
    }

    @Test("an escape noted for a state's earlier world is not counted against the world holding it now")
    func staleEscapeIsDropped() throws {
        // Given a state a world holds now (its generation odd: every world before it left it even)
        let sut = try #require(world_hooks_acquire(5))
        defer { world_hooks_release(sut) }
        let now = sut.pointee.generation

        // When an escape is noted for its earlier world, and one for the present world
        let stale = world_hooks_note_escape(sut, now &- 2, Int32(WORLD_HOOKS_RESUMED_FROM), "late")
        let present = world_hooks_note_escape(sut, now, Int32(WORLD_HOOKS_CALLED_OUT), "now")

        // Then only the present one counts, and it is the one described
        #expect(now % 2 == 1)
        #expect((stale, present) == (0, 1))
        #expect(world_hooks_escapes(sut) == 1)
        var text = [CChar](repeating: 0, count: Int(WORLD_HOOKS_ESCAPE_TEXT))
        #expect(world_hooks_first_escape(sut, &text, text.count) == WORLD_HOOKS_CALLED_OUT)
        #expect(String(cString: text) == "now")
    }

    @Test("more worlds live at once than a chunk of states holds: each one's job is found", arguments: [1, 64, 200])
    func manyLiveWorlds(count: Int) throws {
        // Given `count` live worlds, each with a job of its own
        let jobs = FakeJobs()
        let sut = (0..<count).compactMap { _ in world_hooks_acquire(7) }
        defer { sut.forEach(world_hooks_release) }
        for (n, world) in sut.enumerated() { world_hooks_note_job(world, jobs.address(n), Self.fakeTask) }

        // When every job arrives from outside
        let adopted = sut.indices.map { world_hooks_adopt_foreign(jobs.address($0), Self.fakeTask) }

        // Then each is adopted by its own world
        #expect(sut.count == count)
        #expect(adopted.allSatisfy { $0 == 1 })
        #expect(sut.map { world_hooks_escapes($0) } == Array(repeating: 1, count: count))
    }
}
