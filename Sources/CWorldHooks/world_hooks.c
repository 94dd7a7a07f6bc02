// A thread's world: what CWorldInterposers' clock, random, read, dispatch and thread functions answer from.
#define _GNU_SOURCE
#include "world_hooks.h"
#include <dlfcn.h>
#include <pthread.h>
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

void world_hooks_thread_name(char *buffer, size_t size) {
    if (pthread_getname_np(pthread_self(), buffer, size) != 0 && size > 0) buffer[0] = 0;
}

extern const char *dispatch_queue_get_label(void *queue);
const char *world_hooks_queue_label(void) {
    const char *label = dispatch_queue_get_label(0);
    return label ? label : "";
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

// Defined by CWorldInterposers when the process has them (the default trait WorldInterposers, no sanitizer).
extern int world_interposers_linked __attribute__((weak));
int world_hooks_interposed(void) { return &world_interposers_linked != 0; }

#if defined(__linux__) && defined(__GLIBC__)
#include <stdlib.h>
#include <sys/personality.h>
int world_hooks_reexec_deterministic(char *const *argv) {
    if (getenv("SWIFT_DETERMINISTIC_HASHING")) return 0;
    if (setenv("SWIFT_DETERMINISTIC_HASHING", "1", 1) != 0) return -1;
    int current = personality(0xffffffff);
    if (current != -1) personality((unsigned long)current | ADDR_NO_RANDOMIZE);
    execv("/proc/self/exe", argv);
    return -1;
}
#else
int world_hooks_reexec_deterministic(char *const *argv) { (void)argv; return -1; }
#endif
