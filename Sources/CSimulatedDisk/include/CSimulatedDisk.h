#ifndef CSIMULATEDDISK_H
#define CSIMULATEDDISK_H

#include <pthread.h>
#include <stdint.h>

/// A disk kept in memory under SQLite: a VFS of its own name (never the default one) whose files
/// hold what was written (what reads see) and what was synced (what survives a power loss). One
/// disk serves one connection at a time (locks are not kept); its faults are driven by its seed.
typedef struct sd_disk sd_disk;

/// What a disk did, and the faults it injected.
typedef struct sd_stats {
    int64_t writes;
    int64_t syncs;
    int64_t reads;
    /// Writes a power loss dropped, kept, and tore.
    int64_t lost_writes;
    int64_t kept_writes;
    int64_t torn_writes;
    int64_t power_losses;
    int64_t failed_syncs;
    int64_t failed_reads;
    int64_t full_writes;
} sd_stats;

/// A new empty disk drawing its choices from `seed`, registered with SQLite under a name of its
/// own (`sd_disk_name`); NULL when SQLite refuses it.
sd_disk *sd_disk_create(uint64_t seed);
/// Unregisters the disk and frees it, now or when the last file a connection still holds open on it is closed
/// (a crashed service's connection may outlive the disk's owner). One thread at a time, as every call here.
void sd_disk_destroy(sd_disk *disk);
/// The VFS name to open a database with (`file:NAME?vfs=THIS`).
const char *sd_disk_name(const sd_disk *disk);

/// Power is cut now: of every file's writes since its last sync, a share of `keep_permille`
/// thousandths (chosen by the seed) reaches the medium, in a seeded order; with `torn`, the last
/// of them reaches it only in part (a seeded number of its 512-byte sectors). Until
/// `sd_disk_restore_power`, every operation fails with SQLITE_IOERR and no file opens.
void sd_disk_cut_power(sd_disk *disk, int keep_permille, int torn);
/// Power is cut at the sync after the next `syncs_before`, instead of that sync (as `sd_disk_cut_power`).
void sd_disk_cut_power_at_sync(sd_disk *disk, int syncs_before, int keep_permille, int torn);
/// Power is back: files hold what reached the medium; a file opened before stays unreachable (its process
/// went down with the machine): every operation on it fails.
void sd_disk_restore_power(sd_disk *disk);
/// Whether power is off.
int sd_disk_is_down(const sd_disk *disk);
/// The next `count` syncs fail with SQLITE_IOERR_FSYNC, and write nothing to the medium.
void sd_disk_fail_syncs(sd_disk *disk, int count);
/// The next `count` reads fail with SQLITE_IOERR_READ.
void sd_disk_fail_reads(sd_disk *disk, int count);
/// The disk is full for the next `count` writes: each fails with SQLITE_FULL.
void sd_disk_fill(sd_disk *disk, int count);
/// From now on the disk answers the thread `owner` only: a call from any other (open, read, write, sync, size,
/// truncation, deletion, access, close) is passed to `on_foreign` with `context`, `tag` and the call in words
/// (`the disk's write of FILE`), which returns 1 to refuse it (it fails with an I/O error and touches nothing)
/// or 0 to let it run (the owner has let the disk go: a connection closed after its world ended).
void sd_disk_guard(sd_disk *disk, pthread_t owner, void *context, uint64_t tag, int (*on_foreign)(void *context, uint64_t tag, const char *what));
/// Counts so far.
sd_stats sd_disk_stats(const sd_disk *disk);
/// Bytes of file `name` as reads see them (`durable` 0) or as the medium holds them (1); -1 when
/// there is no such file.
int64_t sd_disk_file_size(const sd_disk *disk, const char *name, int durable);

#endif
