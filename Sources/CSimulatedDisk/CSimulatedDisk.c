#include "CSimulatedDisk.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SECTOR = 512, MAX_FILES = 16 };

typedef struct bytes { unsigned char *data; int64_t size, capacity; } bytes;

/// A write (or, with `length` -1, a truncation to `offset`) not synced yet.
typedef struct pending { int64_t offset; int64_t length; unsigned char *data; } pending;

typedef struct sd_file {
    char name[512];
    int exists;
    bytes current, durable;
    pending *log;
    int64_t log_count, log_capacity;
} sd_file;

struct sd_disk {
    sqlite3_vfs vfs;
    char name[48];
    uint64_t random;
    sd_file files[MAX_FILES];
    int temp_files;
    int down, cut_at_sync, cut_keep, cut_torn, failing_syncs, failing_reads, full_writes;
    /// Power cycles so far: a file opened before the last one belongs to a machine that went down.
    int generation;
    /// The owner's reference and one per open file (atomic): the disk is freed when the last goes (a
    /// connection may outlive the disk's owner, as a crashed service's does, and close on another thread).
    int references;
    sd_stats stats;
    /// With a guard (sd_disk_guard), the thread the disk answers, and where a call from another is noted.
    int guarded;
    pthread_t owner;
    void *guard_context;
    uint64_t guard_tag;
    int (*on_foreign)(void *context, uint64_t tag, const char *what);
};

typedef struct sd_handle { sqlite3_file base; sd_disk *disk; sd_file *file; int delete_on_close; int generation; } sd_handle;

/// Whether `h` cannot reach the disk: the power is off, or it was opened before the power last came back
/// (a connection of a process that went down with the machine, still open in this one).
static int unreachable(const sd_handle *h) { return h->disk->down || h->generation != h->disk->generation; }

/// Whether a guarded disk refuses the calling thread's call (`operation` of the file `name`): a thread other
/// than its owner's, while the guard's callback says so (it notes the call).
static int foreign(sd_disk *disk, const char *operation, const char *name) {
    if (!disk->guarded || pthread_equal(pthread_self(), disk->owner)) return 0;
    char what[160];
    snprintf(what, sizeof what, "the disk's %s of %s", operation, name ? name : "a temporary file");
    return disk->on_foreign(disk->guard_context, disk->guard_tag, what);
}

static uint64_t next_random(sd_disk *disk) {
    uint64_t z = (disk->random += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int reserve(bytes *b, int64_t size) {
    if (size <= b->capacity) return 1;
    int64_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < size) capacity *= 2;
    unsigned char *grown = realloc(b->data, (size_t)capacity);
    if (!grown) return 0;
    memset(grown + b->capacity, 0, (size_t)(capacity - b->capacity));
    b->data = grown;
    b->capacity = capacity;
    return 1;
}

static int put(bytes *b, int64_t offset, const void *data, int64_t length) {
    if (length <= 0) return 1;
    if (!reserve(b, offset + length)) return 0;
    if (offset > b->size) memset(b->data + b->size, 0, (size_t)(offset - b->size));
    memcpy(b->data + offset, data, (size_t)length);
    if (offset + length > b->size) b->size = offset + length;
    return 1;
}

static void cut(bytes *b, int64_t size) {
    if (size < b->size) b->size = size;
}

static void apply(bytes *b, const pending *p, int64_t length) {
    if (p->length < 0) cut(b, p->offset); else put(b, p->offset, p->data, length);
}

static void clear_log(sd_file *f) {
    for (int64_t i = 0; i < f->log_count; i++) free(f->log[i].data);
    f->log_count = 0;
}

static int log_op(sd_file *f, int64_t offset, const void *data, int64_t length) {
    if (f->log_count == f->log_capacity) {
        int64_t capacity = f->log_capacity ? f->log_capacity * 2 : 64;
        pending *grown = realloc(f->log, sizeof(pending) * (size_t)capacity);
        if (!grown) return 0;
        f->log = grown;
        f->log_capacity = capacity;
    }
    pending *p = &f->log[f->log_count];
    p->offset = offset;
    p->length = length;
    p->data = NULL;
    if (length > 0) {
        if (!(p->data = malloc((size_t)length))) return 0;
        memcpy(p->data, data, (size_t)length);
    }
    f->log_count++;
    return 1;
}

static void sync_file(sd_file *f) {
    for (int64_t i = 0; i < f->log_count; i++) apply(&f->durable, &f->log[i], f->log[i].length);
    clear_log(f);
}

static void power_loss(sd_disk *disk, int keep_permille, int torn) {
    disk->down = 1;
    disk->cut_at_sync = 0;
    disk->stats.power_losses++;
    for (int n = 0; n < MAX_FILES; n++) {
        sd_file *f = &disk->files[n];
        if (!f->exists || f->log_count == 0) continue;
        // Keep a seeded subset, then write it in a seeded order; with `torn`, the last kept write of
        // more than one sector reaches the medium in part.
        int64_t kept = 0;
        for (int64_t i = 0; i < f->log_count; i++) {
            if ((int)(next_random(disk) % 1000) < keep_permille) f->log[kept++] = f->log[i]; else free(f->log[i].data);
        }
        disk->stats.lost_writes += f->log_count - kept;
        disk->stats.kept_writes += kept;
        for (int64_t i = kept - 1; i > 0; i--) {
            int64_t j = (int64_t)(next_random(disk) % (uint64_t)(i + 1));
            pending swap = f->log[i]; f->log[i] = f->log[j]; f->log[j] = swap;
        }
        int64_t tear = -1;  // the last kept write of more than one sector
        for (int64_t i = kept - 1; torn && i >= 0 && tear < 0; i--) if (f->log[i].length > SECTOR) tear = i;
        for (int64_t i = 0; i < kept; i++) {
            int64_t length = f->log[i].length;
            if (i == tear) {
                length = SECTOR * (int64_t)(1 + next_random(disk) % (uint64_t)((length - 1) / SECTOR));
                disk->stats.torn_writes++;
            }
            apply(&f->durable, &f->log[i], length);
        }
        f->log_count = kept;
        clear_log(f);
    }
}

// MARK: - Files

static void free_disk(sd_disk *disk);

static int sd_close(sqlite3_file *file) {
    sd_handle *h = (sd_handle *)file;
    if (foreign(h->disk, "close", h->file->name)) return SQLITE_IOERR_CLOSE;
    if (h->delete_on_close) {
        clear_log(h->file);
        h->file->exists = 0;
        h->file->current.size = h->file->durable.size = 0;
    }
    sd_disk *disk = h->disk;
    if (__atomic_sub_fetch(&disk->references, 1, __ATOMIC_ACQ_REL) == 0) free_disk(disk);
    return SQLITE_OK;
}

static int sd_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    sd_handle *h = (sd_handle *)file;
    sd_disk *disk = h->disk;
    if (foreign(disk, "read", h->file->name) || unreachable(h)) return SQLITE_IOERR_READ;
    if (disk->failing_reads > 0) {
        disk->failing_reads--;
        disk->stats.failed_reads++;
        return SQLITE_IOERR_READ;
    }
    disk->stats.reads++;
    const bytes *b = &h->file->current;
    int64_t available = offset < b->size ? b->size - offset : 0;
    if (available > amount) available = amount;
    if (available > 0) memcpy(out, b->data + offset, (size_t)available);
    if (available < amount) {
        memset((unsigned char *)out + available, 0, (size_t)(amount - available));
        return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
}

static int sd_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    sd_handle *h = (sd_handle *)file;
    sd_disk *disk = h->disk;
    if (foreign(disk, "write", h->file->name) || unreachable(h)) return SQLITE_IOERR_WRITE;
    if (disk->full_writes > 0) {
        disk->full_writes--;
        disk->stats.full_writes++;
        return SQLITE_FULL;
    }
    if (!put(&h->file->current, offset, data, amount) || !log_op(h->file, offset, data, amount)) return SQLITE_IOERR_NOMEM;
    disk->stats.writes++;
    return SQLITE_OK;
}

static int sd_truncate(sqlite3_file *file, sqlite3_int64 size) {
    sd_handle *h = (sd_handle *)file;
    if (foreign(h->disk, "truncation", h->file->name) || unreachable(h)) return SQLITE_IOERR_TRUNCATE;
    cut(&h->file->current, size);
    return log_op(h->file, size, NULL, -1) ? SQLITE_OK : SQLITE_IOERR_NOMEM;
}

static int sd_sync(sqlite3_file *file, int flags) {
    (void)flags;
    sd_handle *h = (sd_handle *)file;
    sd_disk *disk = h->disk;
    if (foreign(disk, "sync", h->file->name) || unreachable(h)) return SQLITE_IOERR_FSYNC;
    if (disk->cut_at_sync && --disk->cut_at_sync == 0) {
        power_loss(disk, disk->cut_keep, disk->cut_torn);
        return SQLITE_IOERR_FSYNC;
    }
    if (disk->failing_syncs > 0) {
        disk->failing_syncs--;
        disk->stats.failed_syncs++;
        return SQLITE_IOERR_FSYNC;
    }
    disk->stats.syncs++;
    sync_file(h->file);
    return SQLITE_OK;
}

static int sd_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    sd_handle *h = (sd_handle *)file;
    if (foreign(h->disk, "size", h->file->name) || unreachable(h)) return SQLITE_IOERR_FSTAT;
    *size = h->file->current.size;
    return SQLITE_OK;
}

static int sd_lock(sqlite3_file *file, int level) { (void)file; (void)level; return SQLITE_OK; }
static int sd_check_reserved(sqlite3_file *file, int *out) { (void)file; *out = 0; return SQLITE_OK; }
static int sd_file_control(sqlite3_file *file, int op, void *arg) { (void)file; (void)op; (void)arg; return SQLITE_NOTFOUND; }
static int sd_sector_size(sqlite3_file *file) { (void)file; return SECTOR; }
static int sd_characteristics(sqlite3_file *file) { (void)file; return 0; }

static const sqlite3_io_methods io_methods = {
    1, sd_close, sd_read, sd_write, sd_truncate, sd_sync, sd_file_size, sd_lock, sd_lock, sd_check_reserved,
    sd_file_control, sd_sector_size, sd_characteristics, 0, 0, 0, 0, 0, 0,
};

// MARK: - The VFS

static sd_file *find(sd_disk *disk, const char *name, int create) {
    sd_file *free_slot = NULL;
    for (int n = 0; n < MAX_FILES; n++) {
        sd_file *f = &disk->files[n];
        if (f->exists && strcmp(f->name, name) == 0) return f;
        if (!f->exists && !free_slot) free_slot = f;
    }
    if (!create || !free_slot || strlen(name) >= sizeof free_slot->name) return NULL;
    strcpy(free_slot->name, name);
    free_slot->exists = 1;
    free_slot->current.size = free_slot->durable.size = 0;
    clear_log(free_slot);
    return free_slot;
}

static int sd_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    sd_disk *disk = vfs->pAppData;
    sd_handle *h = (sd_handle *)file;
    h->base.pMethods = NULL;
    if (foreign(disk, "open", name) || disk->down) return SQLITE_CANTOPEN;
    char temp[32];
    if (!name) {
        snprintf(temp, sizeof temp, "temp-%d", disk->temp_files++);
        name = temp;
    }
    sd_file *f = find(disk, name, flags & SQLITE_OPEN_CREATE);
    if (!f) return SQLITE_CANTOPEN;
    h->disk = disk;
    h->file = f;
    h->delete_on_close = (flags & SQLITE_OPEN_DELETEONCLOSE) != 0;
    h->generation = disk->generation;
    __atomic_add_fetch(&disk->references, 1, __ATOMIC_ACQ_REL);
    h->base.pMethods = &io_methods;
    if (out_flags) *out_flags = flags;
    return SQLITE_OK;
}

static int sd_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    (void)sync_directory;
    sd_disk *disk = vfs->pAppData;
    if (foreign(disk, "deletion", name) || disk->down) return SQLITE_IOERR_DELETE;
    sd_file *f = find(disk, name, 0);
    if (f) {
        clear_log(f);
        f->exists = 0;
    }
    return SQLITE_OK;
}

static int sd_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)flags;
    sd_disk *disk = vfs->pAppData;
    if (foreign(disk, "access", name) || disk->down) return SQLITE_IOERR_ACCESS;
    *out = find(disk, name, 0) != NULL;
    return SQLITE_OK;
}

static int sd_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    if ((int)strlen(name) >= size) return SQLITE_CANTOPEN;
    strcpy(out, name);
    return SQLITE_OK;
}

static int sd_randomness(sqlite3_vfs *vfs, int size, char *out) {
    sd_disk *disk = vfs->pAppData;
    for (int i = 0; i < size; i++) out[i] = (char)next_random(disk);
    return size;
}

static int sd_sleep(sqlite3_vfs *vfs, int micros) { (void)vfs; return micros; }
static int sd_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; *out = 2461000.5; return SQLITE_OK; }
static int sd_last_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; (void)size; (void)out; return 0; }

sd_disk *sd_disk_create(uint64_t seed) {
    static uint64_t disks;  // names only: each disk's own name
    sd_disk *disk = calloc(1, sizeof *disk);
    if (!disk) return NULL;
    snprintf(disk->name, sizeof disk->name, "simulated-disk-%llu", (unsigned long long)__atomic_fetch_add(&disks, 1, __ATOMIC_RELAXED));
    disk->random = seed;
    disk->references = 1;
    disk->vfs.iVersion = 1;
    disk->vfs.szOsFile = sizeof(sd_handle);
    disk->vfs.mxPathname = 511;
    disk->vfs.zName = disk->name;
    disk->vfs.pAppData = disk;
    disk->vfs.xOpen = sd_open;
    disk->vfs.xDelete = sd_delete;
    disk->vfs.xAccess = sd_access;
    disk->vfs.xFullPathname = sd_full_pathname;
    disk->vfs.xRandomness = sd_randomness;
    disk->vfs.xSleep = sd_sleep;
    disk->vfs.xCurrentTime = sd_current_time;
    disk->vfs.xGetLastError = sd_last_error;
    if (sqlite3_vfs_register(&disk->vfs, 0) != SQLITE_OK) {
        free(disk);
        return NULL;
    }
    return disk;
}

void sd_disk_destroy(sd_disk *disk) {
    if (!disk) return;
    sqlite3_vfs_unregister(&disk->vfs);
    if (__atomic_sub_fetch(&disk->references, 1, __ATOMIC_ACQ_REL) == 0) free_disk(disk);
}

static void free_disk(sd_disk *disk) {
    for (int n = 0; n < MAX_FILES; n++) {
        clear_log(&disk->files[n]);
        free(disk->files[n].log);
        free(disk->files[n].current.data);
        free(disk->files[n].durable.data);
    }
    free(disk);
}

const char *sd_disk_name(const sd_disk *disk) { return disk->name; }

void sd_disk_cut_power(sd_disk *disk, int keep_permille, int torn) {
    if (!disk->down) power_loss(disk, keep_permille, torn);
}

void sd_disk_cut_power_at_sync(sd_disk *disk, int syncs_before, int keep_permille, int torn) {
    disk->cut_at_sync = 1 + syncs_before;
    disk->cut_keep = keep_permille;
    disk->cut_torn = torn;
}

void sd_disk_restore_power(sd_disk *disk) {
    for (int n = 0; n < MAX_FILES; n++) {
        sd_file *f = &disk->files[n];
        if (!f->exists) continue;
        f->current.size = 0;
        put(&f->current, 0, f->durable.data, f->durable.size);
        f->current.size = f->durable.size;
    }
    disk->down = disk->cut_at_sync = 0;
    disk->generation++;
    disk->failing_syncs = disk->failing_reads = disk->full_writes = 0;
}

int sd_disk_is_down(const sd_disk *disk) { return disk->down; }

void sd_disk_guard(sd_disk *disk, pthread_t owner, void *context, uint64_t tag, int (*on_foreign)(void *context, uint64_t tag, const char *what)) {
    disk->owner = owner;
    disk->guard_context = context;
    disk->guard_tag = tag;
    disk->on_foreign = on_foreign;
    disk->guarded = 1;
}
void sd_disk_fail_syncs(sd_disk *disk, int count) { disk->failing_syncs = count; }
void sd_disk_fail_reads(sd_disk *disk, int count) { disk->failing_reads = count; }
void sd_disk_fill(sd_disk *disk, int count) { disk->full_writes = count; }
sd_stats sd_disk_stats(const sd_disk *disk) { return disk->stats; }

int64_t sd_disk_file_size(const sd_disk *disk, const char *name, int durable) {
    for (int n = 0; n < MAX_FILES; n++) {
        const sd_file *f = &disk->files[n];
        if (f->exists && strcmp(f->name, name) == 0) return durable ? f->durable.size : f->current.size;
    }
    return -1;
}
