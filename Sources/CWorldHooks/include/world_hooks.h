#ifndef WORLD_HOOKS_H
#define WORLD_HOOKS_H
#include <stddef.h>
#include <stdint.h>

/// What a seeded world's thread reads instead of the machine: while a thread is in a world
/// (`world_hooks_enter`), `clock_gettime`, `gettimeofday`, `getrandom`, `syscall(SYS_getrandom)` and
/// reads of /dev/urandom answer from here; on every other thread they are the C library's.
typedef struct world_hooks_state {
    /// Virtual time since the world began, in nanoseconds (the world's clock moves it).
    int64_t now_ns;
    /// SplitMix64 state of the world's random bytes.
    uint64_t random;
    /// Reads of randomness the world made.
    uint64_t random_reads;
    /// The world's executor (an unretained Swift object), for the process's executors to route jobs by.
    void *world;
    /// Work the world's thread handed to a thread no world owns (dispatch_async, dispatch_after, a new
    /// thread), and what the first was.
    uint64_t escapes;
    char escape[128];
    /// The addresses of jobs the world queued, one slot per hash: a job enqueued from another thread
    /// is the world's when its slot holds it (written by the world's thread, read by any, relaxed atomics).
    uintptr_t jobs[1024];
} world_hooks_state;

/// Notes that the world queued the job at `address`.
static inline void world_hooks_note_job(world_hooks_state *state, uintptr_t address) {
    __atomic_store_n(&state->jobs[(address >> 4) & 1023], address, __ATOMIC_RELAXED);
}

/// Whether the world queued the job at `address` (recently enough that its slot still holds it).
static inline int world_hooks_knows_job(world_hooks_state *state, uintptr_t address) {
    return __atomic_load_n(&state->jobs[(address >> 4) & 1023], __ATOMIC_RELAXED) == address;
}

/// The calling thread enters `state`'s world (NULL leaves it).
void world_hooks_enter(world_hooks_state *state);
/// The calling thread's world, NULL outside one.
world_hooks_state *world_hooks_current(void);
/// Whether this process's clock, randomness and read functions are the world-aware ones.
int world_hooks_interposed(void);
/// The real monotonic time in nanoseconds, on any thread.
int64_t world_hooks_real_monotonic_ns(void);
/// The calling thread's name (pthread_getname_np), "" when it has none.
void world_hooks_thread_name(char *buffer, size_t size);
/// The label of the dispatch queue the calling thread is running, "" when none.
const char *world_hooks_queue_label(void);
/// Starts this program again with `argv`, with Set and Dictionary hashing fixed
/// (SWIFT_DETERMINISTIC_HASHING=1, read by the runtime at start) and address randomization off; returns 0
/// at once when hashing is already fixed, -1 when the program could not be started again.
int world_hooks_reexec_deterministic(char *const *argv);
#endif
