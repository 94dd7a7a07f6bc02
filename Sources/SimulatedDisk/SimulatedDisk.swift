import CSimulatedDisk
import Foundation

/// A disk in memory under SQLite, for simulated worlds: a SQLite VFS registered under a name of its
/// own (never the default VFS), so a database opened with `uri(of:)` reads and writes here. Its
/// files hold what was written and, apart, what was synced: a power loss keeps only the synced bytes
/// and a seeded share of the rest, in a seeded order, the last perhaps torn. It also fails syncs
/// (EIO), reads, and writes (disk full) on demand. One connection at a time; not thread-safe: a
/// world uses its own disk from one thread at a time.
public final class SimulatedDisk {
    private let disk: OpaquePointer

    /// An empty disk whose choices (which unsynced writes survive, in which order, where a write
    /// tears, SQLite's randomness) derive from `seed`.
    public init(seed: UInt64) {
        guard let disk = sd_disk_create(seed) else { fatalError("SQLite refused to register a simulated disk") }
        self.disk = disk
    }

    deinit { sd_disk_destroy(disk) }

    /// From now on the disk answers `owner` only: a call from any other thread is passed to `onForeign` with
    /// `context`, `tag` and the call in words (`the disk's write of FILE`), which returns 1 to refuse it (it fails
    /// with an I/O error and touches nothing) or 0 to let it run.
    package func answer(
        only owner: pthread_t, context: UnsafeMutableRawPointer?, tag: UInt64,
        onForeign: @convention(c) (UnsafeMutableRawPointer?, UInt64, UnsafePointer<CChar>?) -> Int32
    ) {
        sd_disk_guard(disk, owner, context, tag, onForeign)
    }

    /// The VFS name.
    package var name: String { String(cString: sd_disk_name(disk)) }

    /// The URI filename that opens `file` on this disk (SQLite here is built with URI filenames on).
    public func uri(of file: String) -> String { "file:\(file)?vfs=\(name)" }

    /// Cuts the power now: of the writes not synced, a `keptPermille` share survives (in a seeded
    /// order, the last torn when `torn`); until `restorePower()`, every operation fails.
    public func cutPower(keptPermille: Int, torn: Bool = false) { sd_disk_cut_power(disk, Int32(keptPermille), torn ? 1 : 0) }

    /// Cuts the power at the sync after the next `syncsBefore`, which then never happens (as `cutPower`).
    public func cutPowerAtSync(after syncsBefore: Int = 0, keptPermille: Int, torn: Bool = false) {
        sd_disk_cut_power_at_sync(disk, Int32(syncsBefore), Int32(keptPermille), torn ? 1 : 0)
    }

    /// Power is back: each file holds what reached the medium; faults armed and not yet struck are cleared.
    /// A connection opened before stays cut off (its process went down with the machine): every operation
    /// it tries fails, so a zombie task of a crashed service cannot write to the restarted one's disk.
    public func restorePower() { sd_disk_restore_power(disk) }

    /// Whether the power is off.
    public var isDown: Bool { sd_disk_is_down(disk) != 0 }

    /// The next `count` syncs fail with EIO and write nothing.
    public func failSyncs(_ count: Int) { sd_disk_fail_syncs(disk, Int32(count)) }

    /// The next `count` reads fail.
    public func failReads(_ count: Int) { sd_disk_fail_reads(disk, Int32(count)) }

    /// The next `count` writes fail for want of space.
    public func fill(writes count: Int) { sd_disk_fill(disk, Int32(count)) }

    /// The size of `file` as reads see it, or (`synced`) as the medium holds it; nil: no such file.
    package func size(of file: String, synced: Bool = false) -> Int? {
        let size = sd_disk_file_size(disk, file, synced ? 1 : 0)
        return size < 0 ? nil : Int(size)
    }

    /// What the disk did so far.
    package var statistics: Statistics { Statistics(sd_disk_stats(disk)) }

    /// Operations and injected faults, counted.
    package struct Statistics: Hashable, Sendable {
        /// Writes, syncs and reads that succeeded.
        package var writes, syncs, reads: Int
        /// Unsynced writes a power loss dropped, kept, and tore.
        package var lostWrites, keptWrites, tornWrites: Int
        /// Power losses, failed syncs, failed reads, writes refused for want of space.
        package var powerLosses, failedSyncs, failedReads, fullWrites: Int

        init(_ stats: sd_stats) {
            (writes, syncs, reads) = (Int(stats.writes), Int(stats.syncs), Int(stats.reads))
            (lostWrites, keptWrites, tornWrites) = (Int(stats.lost_writes), Int(stats.kept_writes), Int(stats.torn_writes))
            (powerLosses, failedSyncs, failedReads, fullWrites) =
                (Int(stats.power_losses), Int(stats.failed_syncs), Int(stats.failed_reads), Int(stats.full_writes))
        }
    }
}
