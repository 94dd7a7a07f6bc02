// A thread's world: what CWorldInterposers' clock, random, read, dispatch and thread functions answer from.
#define _GNU_SOURCE
#include "world_hooks.h"
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>


static __thread world_hooks_state *current;
void world_hooks_enter(world_hooks_state *state) { current = state; }
world_hooks_state *world_hooks_current(void) { return current; }

// The live worlds' states: chunks of 64, linked and never freed, so that a thread that finds a state
// live may read it after its world has ended. A job enqueued from a thread no world owns is looked for
// in every live state (the harness's own jobs only pay one load while no world is live).
enum { chunk_states = 64 };
typedef struct state_chunk {
    world_hooks_state states[chunk_states];
    struct state_chunk *next;
} state_chunk;
static state_chunk first_chunk;
uint64_t world_hooks_live_worlds;

world_hooks_state *world_hooks_acquire(uint64_t random_seed) {
    for (state_chunk *chunk = &first_chunk;;) {
        for (int i = 0; i < chunk_states; i++) {
            world_hooks_state *state = &chunk->states[i];
            uint64_t generation = __atomic_load_n(&state->generation, __ATOMIC_ACQUIRE);
            if ((generation & 1) == 0 && __atomic_compare_exchange_n(&state->generation, &generation, generation + 1, 0,
                                                                      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
                state->now_ns = 0;
                state->random = random_seed;
                state->random_reads = 0;
                state->world = NULL;
                state->escape_kind = 0;
                state->escape[0] = 0;
                __atomic_store_n(&state->escape_ready, 0, __ATOMIC_RELAXED);
                __atomic_store_n(&state->escape_word, (generation + 1) << 32, __ATOMIC_RELEASE);
                __atomic_add_fetch(&world_hooks_live_worlds, 1, __ATOMIC_RELEASE);
                return state;
            }
        }
        state_chunk *next = __atomic_load_n(&chunk->next, __ATOMIC_ACQUIRE);
        if (!next) {
            state_chunk *fresh = calloc(1, sizeof *fresh);
            if (!fresh) abort();
            if (__atomic_compare_exchange_n(&chunk->next, &next, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) next = fresh;
            else free(fresh);
        }
        chunk = next;
    }
}

void world_hooks_release(world_hooks_state *state) {
    // No escape can be noted from now on (the word's generation is an even one, never a live world's), and
    // the first one's description, if a thread is still writing it, is written before the state is reused.
    uint64_t generation = __atomic_load_n(&state->generation, __ATOMIC_ACQUIRE);
    uint64_t word = __atomic_exchange_n(&state->escape_word, (generation + 1) << 32, __ATOMIC_ACQ_REL);
    if ((word & 0xffffffffu) != 0) {
        while (!__atomic_load_n(&state->escape_ready, __ATOMIC_ACQUIRE)) sched_yield();
    }
    // Its jobs are forgotten before the state can be taken again: a stale slot never names a new world.
    for (int i = 0; i < WORLD_HOOKS_JOB_SLOTS; i++) __atomic_store_n(&state->jobs[i].address, 0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&state->generation, 1, __ATOMIC_RELEASE);
    __atomic_sub_fetch(&world_hooks_live_worlds, 1, __ATOMIC_RELEASE);
}

// Counts an escape; the first is described by `what`, then (when `named`) the code that made it.
static int note_escape(world_hooks_state *state, uint64_t generation, int kind, const char *what, int named, const void *task) {
    uint64_t word = __atomic_load_n(&state->escape_word, __ATOMIC_ACQUIRE);
    do {
        if ((word >> 32) != (generation & 0xffffffffu)) return 0;
    } while (!__atomic_compare_exchange_n(&state->escape_word, &word, word + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
    if ((word & 0xffffffffu) == 0) {
        char code[WORLD_HOOKS_ESCAPE_TEXT];
        state->escape_kind = kind;
        if (named && task && world_hooks_name_last_await(task, code, sizeof code))
            snprintf(state->escape, sizeof state->escape, "%s (its last await: %s)", what, code);
        else if (named && !task && world_hooks_name_caller(code, sizeof code))
            snprintf(state->escape, sizeof state->escape, "%s (in %s)", what, code);
        else
            snprintf(state->escape, sizeof state->escape, "%s", what);
        __atomic_store_n(&state->escape_ready, 1, __ATOMIC_RELEASE);
    }
    return 1;
}

int world_hooks_note_escape(world_hooks_state *state, uint64_t generation, int kind, const char *what) {
    return note_escape(state, generation, kind, what, 0, NULL);
}

int world_hooks_note_named_escape(world_hooks_state *state, uint64_t generation, int kind, const char *what, const void *task) {
    return note_escape(state, generation, kind, what, 1, task);
}

extern const char *dispatch_queue_get_label(void *queue);
// The calling thread as an escape names it: its dispatch queue's label and its name.
static void describe_thread(char *buffer, size_t size) {
    char name[64] = "";
    if (pthread_getname_np(pthread_self(), name, sizeof name) != 0) name[0] = 0;
    const char *queue = dispatch_queue_get_label(0);
    if (queue && queue[0]) snprintf(buffer, size, "DispatchQueue '%s' (thread '%s')", queue, name);
    else snprintf(buffer, size, "thread '%s'", name);
}

// Notes, for the state's world of `generation`, the calling thread (no world's) resuming `job`, a task's job of
// the world (`what` NULL), or calling `what`; 0 when the state holds another world now.
static int note_foreign(world_hooks_state *state, uint64_t generation, const char *what, const void *job) {
    char thread[120], text[sizeof state->escape];
    describe_thread(thread, sizeof thread);
    if (what) snprintf(text, sizeof text, "%s called from %s", what, thread);
    else snprintf(text, sizeof text, "%s", thread);
    return world_hooks_note_named_escape(state, generation, what ? WORLD_HOOKS_CALLED_FROM : WORLD_HOOKS_RESUMED_FROM, text, job);
}

int world_hooks_note_foreign_call(world_hooks_state *state, uint64_t generation, const char *what) {
    return note_foreign(state, generation, what, NULL);
}

int world_hooks_note_foreign_job(world_hooks_state *state, uint64_t generation, const void *job) {
    return note_foreign(state, generation, NULL, job);
}

// Whether the state's slot for `job` holds it (read twice around the task id: a slot being rewritten
// does not match).
static int knows_job(world_hooks_state *state, uintptr_t job, uint64_t task) {
    world_hooks_job *slot = &state->jobs[(job >> 4) & (WORLD_HOOKS_JOB_SLOTS - 1)];
    if (__atomic_load_n(&slot->address, __ATOMIC_ACQUIRE) != job) return 0;
    uint64_t noted = __atomic_load_n(&slot->task, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return noted == task && __atomic_load_n(&slot->address, __ATOMIC_RELAXED) == job;
}

int world_hooks_adopt_foreign(uintptr_t job, uint64_t task) {
    if (job == 0 || task == 0 || __atomic_load_n(&world_hooks_live_worlds, __ATOMIC_ACQUIRE) == 0) return 0;
    for (state_chunk *chunk = &first_chunk; chunk; chunk = __atomic_load_n(&chunk->next, __ATOMIC_ACQUIRE)) {
        for (int i = 0; i < chunk_states; i++) {
            world_hooks_state *state = &chunk->states[i];
            uint64_t generation = __atomic_load_n(&state->generation, __ATOMIC_ACQUIRE);
            if ((generation & 1) == 0 || !knows_job(state, job, task)) continue;
            return note_foreign(state, generation, NULL, (const void *)job);
        }
    }
    return 0;
}

uint32_t world_hooks_escapes(world_hooks_state *state) {
    return (uint32_t)(__atomic_load_n(&state->escape_word, __ATOMIC_ACQUIRE) & 0xffffffffu);
}

int world_hooks_first_escape(world_hooks_state *state, char *buffer, size_t size) {
    // The first escaper counts, then writes: wait the moment it takes.
    while (!__atomic_load_n(&state->escape_ready, __ATOMIC_ACQUIRE)) sched_yield();
    snprintf(buffer, size, "%s", state->escape);
    return state->escape_kind;
}

// The Swift side installs the process's executors before main (WorldExecutors, when it is linked).
extern void simharness_install_world_executors(void) __attribute__((weak));
__attribute__((constructor)) static void world_hooks_install(void) {
    if (simharness_install_world_executors) simharness_install_world_executors();
}

// The real monotonic clock, past any interposed clock_gettime: the system call itself.
int64_t world_hooks_real_monotonic_ns(void) {
    struct timespec ts;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void world_hooks_real_sleep_us(int64_t microseconds) {
    struct timespec duration = {microseconds / 1000000, (microseconds % 1000000) * 1000};
    syscall(SYS_nanosleep, &duration, NULL);
}

int world_hooks_runtime_code(const void *address) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fname) return 0;
    const char *file = strrchr(info.dli_fname, '/');
    file = file ? file + 1 : info.dli_fname;
    return strncmp(file, "libdispatch.", 12) == 0 || strncmp(file, "libswift_Concurrency.", 21) == 0;
}

// Defined by CWorldInterposers when the process has them (the default trait WorldInterposers, no sanitizer).
extern int world_interposers_linked __attribute__((weak));
int world_hooks_interposed(void) { return &world_interposers_linked != 0; }

#if defined(__linux__) && defined(__GLIBC__)
#include <stdlib.h>
#include <sys/personality.h>
int world_hooks_reexec_deterministic(char *const *argv) {
    int persona = personality(0xffffffff);
    int fixed_addresses = persona == -1 || (persona & ADDR_NO_RANDOMIZE);
    // Once only: a process whose environment set the hashing but not the addresses is started again too.
    if ((getenv("SWIFT_DETERMINISTIC_HASHING") && fixed_addresses) || getenv("SIMHARNESS_REEXECUTED")) return 0;
    if (setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1) != 0 || setenv("SIMHARNESS_REEXECUTED", "1", 1) != 0) return -1;
    if (persona != -1) personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
    execv("/proc/self/exe", argv);
    return -1;
}
#else
int world_hooks_reexec_deterministic(char *const *argv) { (void)argv; return -1; }
#endif
