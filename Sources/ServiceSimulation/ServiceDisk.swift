import CWorldHooks
import Foundation
import PaymentsCore
import SimulatedDisk

/// A disk for a service's SQLite database: the simulated disk the own service's worlds run SQLite on (a
/// SQLite VFS in memory), made when the service first asks for a file on it. A crash of the process keeps
/// what SQLite wrote; a power loss keeps what it synced and a seeded share of the rest, in a seeded order,
/// the last write perhaps torn. With the world's faults, now and then a sync fails (EIO) or a write finds
/// the disk full. The connections of a crashed incarnation fail every operation after the crash: the
/// restarted service opens its database again in `start`. In a world, the disk answers the world's thread
/// only: SQLite called from another thread gets an I/O error, touches nothing, and the world fails as escaped.
public final class ServiceDisk: @unchecked Sendable {
    private let seed: UInt64
    private let faults: Bool
    private var disk: SimulatedDisk?
    private var generator: SplitMix64
    /// The thread the disk is made on, and its world's hooks (nil outside a world: load mode).
    private let thread = pthread_self()
    private let hooks = world_hooks_current()

    package init(seed: UInt64, faults: Bool) {
        self.seed = seed
        self.faults = faults
        generator = SplitMix64(seed: seed ^ 0xD15C_0000)
    }

    /// The URI filename of `file` on the disk, for SQLite's URI filenames (GRDB's `DatabaseQueue(path:)`
    /// opens it). The disk has no shared memory: use WAL with `PRAGMA locking_mode = EXCLUSIVE`, or a
    /// rollback journal. Call SQLite synchronously from the service's tasks (GRDB's blocking `read` and
    /// `write`): its async variants run on threads of their own, which the world reports as escaped.
    public func uri(of file: String) -> String {
        if disk == nil {
            let made = SimulatedDisk(seed: seed)
            if let hooks {
                // A call from another thread fails this world while it lives; after it, the call runs (GRDB closes a
                // connection on its queue's thread when the last reference goes, which may be after the world).
                made.answer(only: thread, context: UnsafeMutableRawPointer(hooks), tag: world_hooks_generation(hooks)) { hooks, generation, what in
                    world_hooks_note_foreign_call(hooks?.assumingMemoryBound(to: world_hooks_state.self), generation, what)
                }
            }
            disk = made
        }
        return disk!.uri(of: file)
    }

    /// Storage faults that struck so far (failed syncs, failed reads, writes refused for want of space).
    var faultsStruck: Int {
        guard let statistics = disk?.statistics else { return 0 }
        return statistics.failedSyncs + statistics.failedReads + statistics.fullWrites
    }

    /// Before a client's request, with faults: one time in 50 the next sync fails, one in 100 the next write
    /// finds the disk full.
    func armFaults() {
        guard faults, let disk else { return }
        let draw = generator.next()
        if draw % 50 == 0 { disk.failSyncs(1) }
        if (draw >> 8) % 100 == 0 { disk.fill(writes: 1) }
    }

    /// The service's process went down (with the machine when `powerLoss`) and the machine is up again.
    func crash(powerLoss: Bool) {
        guard let disk else { return }
        disk.cutPower(keptPermille: powerLoss ? Int(generator.next() % 1_001) : 1_000, torn: powerLoss && faults)
        disk.restorePower()
    }
}
