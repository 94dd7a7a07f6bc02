#ifndef WORLD_HOOKS_H
#define WORLD_HOOKS_H
#include <stddef.h>
#include <stdint.h>

/// Job slots a world keeps: a job of the world enqueued from another thread is recognised while its
/// slot (one per address hash) still holds it.
#define WORLD_HOOKS_JOB_SLOTS 1024
/// The longest description of an escape kept, with its terminating zero.
#define WORLD_HOOKS_ESCAPE_TEXT 512

/// A job the world queued, by address and task id (task ids are never reused; addresses are).
typedef struct world_hooks_job {
    uintptr_t address;
    uint64_t task;
} world_hooks_job;

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
    /// The world's executor (a Swift object retained by the world), for the process's executors to
    /// route the world thread's jobs by. Read on the world's thread only.
    void *world;
    /// Odd while a world holds the state (world_hooks_acquire), even while it is free; atomic.
    uint64_t generation;
    /// The generation (high 32 bits) and the number of escapes (low 32 bits); atomic.
    uint64_t escape_word;
    /// The first escape: its kind, what it was, and whether it is written (atomic).
    int escape_kind;
    int escape_ready;
    char escape[WORLD_HOOKS_ESCAPE_TEXT];
    /// The jobs the world queued (written by the world's thread, read by any; atomics).
    world_hooks_job jobs[WORLD_HOOKS_JOB_SLOTS];
} world_hooks_state;

/// What an escape was: work the world's thread handed out (a dispatch queue, a new thread), a job of the
/// world that came back from a thread no world owns, or the world's environment (its gateway, store or
/// disk) called from such a thread.
enum { WORLD_HOOKS_CALLED_OUT = 0, WORLD_HOOKS_RESUMED_FROM = 1, WORLD_HOOKS_CALLED_FROM = 2 };

/// A state for a new world, zeroed but for its random seed, and registered among the live ones; its
/// memory is never freed (a thread that found it live may still read it), only reused.
world_hooks_state *world_hooks_acquire(uint64_t random_seed);
/// The world is done with `state`.
void world_hooks_release(world_hooks_state *state);

/// Notes that the world queued `job` (of task `task`); the world's thread only. A job that is not a task's (task 0:
/// a default actor's processing job, for one) is not noted: it is known by its address alone, which the allocator
/// gives to the next such job of any thread, so a harness job that took the address would be kept as the world's
/// escape and never run (a TSan run of the unit tests hung so).
static inline void world_hooks_note_job(world_hooks_state *state, uintptr_t job, uint64_t task) {
    if (task == 0) return;
    world_hooks_job *slot = &state->jobs[(job >> 4) & (WORLD_HOOKS_JOB_SLOTS - 1)];
    __atomic_store_n(&slot->address, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->task, task, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->address, job, __ATOMIC_RELEASE);
}

/// Notes an escape of `state`'s world of `generation`, from any thread: its count goes up and the first is
/// described by `kind` and `what`; 0, and nothing noted, when the state now holds another world.
int world_hooks_note_escape(world_hooks_state *state, uint64_t generation, int kind, const char *what);
/// The same, the first escape's description naming the program's code that made it: the await the suspended
/// `task` (a task's job) waits at, or with `task` NULL the function on the calling thread's stack.
int world_hooks_note_named_escape(world_hooks_state *state, uint64_t generation, int kind, const char *what, const void *task);
/// The last await of the suspended `task` (a task's job), into buffer: the innermost of its async frames in the
/// program's own code ("#2 in App.pay() async -> ()"), named from the symbol tables; 0 when none can be named.
int world_hooks_name_last_await(const void *task, char *buffer, size_t size);
/// The innermost function of the program's own code on the calling thread's stack, into buffer; 0 when none.
int world_hooks_name_caller(char *buffer, size_t size);
/// Worlds holding a state now (atomic).
extern uint64_t world_hooks_live_worlds;

/// Whether any world is live: a job from outside is looked for only then.
static inline int world_hooks_any_live(void) { return __atomic_load_n(&world_hooks_live_worlds, __ATOMIC_ACQUIRE) != 0; }

/// A job enqueued from a thread no world owns: 1 when a live world queued it (that world notes the
/// escape, naming the calling thread, and the job must not run), 0 when none did or it is not a task's (task 0).
int world_hooks_adopt_foreign(uintptr_t job, uint64_t task);
/// Notes that the calling thread, which no world owns, called `what` of the world's environment of `state`'s
/// world of `generation` (`world_hooks_generation` on the world's thread); 0, and nothing noted, when that world
/// has ended.
int world_hooks_note_foreign_call(world_hooks_state *state, uint64_t generation, const char *what);
/// The same for the calling thread enqueuing `job` (a task's job, or NULL) on the world: the escape names the
/// task's last await.
int world_hooks_note_foreign_job(world_hooks_state *state, uint64_t generation, const void *job);
/// The generation of the world holding `state` now.
static inline uint64_t world_hooks_generation(world_hooks_state *state) { return __atomic_load_n(&state->generation, __ATOMIC_ACQUIRE); }
/// The escapes of `state`'s world so far.
uint32_t world_hooks_escapes(world_hooks_state *state);
/// The first escape's description into `buffer`, and its kind; call once `world_hooks_escapes` is above 0.
int world_hooks_first_escape(world_hooks_state *state, char *buffer, size_t size);

/// The calling thread enters `state`'s world (NULL leaves it).
void world_hooks_enter(world_hooks_state *state);
/// The calling thread's world, NULL outside one.
world_hooks_state *world_hooks_current(void);
/// Whether this process's clock, randomness and read functions are the world-aware ones.
int world_hooks_interposed(void);
/// Whether `address` is code of Dispatch or of the Swift concurrency runtime, whose own sleeps (a lock's or a
/// queue's contention backoff while another thread holds it) are no program's doing.
int world_hooks_runtime_code(const void *address);
/// Sleeps `microseconds` of real time, on any thread (a world's thread included: past the interposed sleeps).
void world_hooks_real_sleep_us(int64_t microseconds);
/// The real monotonic time in nanoseconds, on any thread.
int64_t world_hooks_real_monotonic_ns(void);
/// Starts this program again with `argv`, with Set and Dictionary hashing fixed
/// (SWIFT_DETERMINISTIC_HASHING=1, read by the runtime at start) and address randomization off; returns 0
/// at once when both are already so (or it started again once), -1 when the program could not be started again.
int world_hooks_reexec_deterministic(char *const *argv);
#endif
