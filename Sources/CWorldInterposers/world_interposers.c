// The executable's own clock_gettime, gettimeofday, getrandom, syscall, read, dispatch_async(_f),
// dispatch_after(_f), pthread_create, the blocking sleeps (nanosleep, clock_nanosleep, usleep, sleep) and waits
// (dispatch_semaphore_wait, dispatch_group_wait): a definition in the executable interposes the C library's for
// every library of the process (the Swift runtime's clocks, Foundation's Date and UUID, Dispatch), as
// madsim does for Rust. Off a world's thread each forwards to the next definition (dlsym(RTLD_NEXT)).
// Left out under a sanitizer, whose runtime intercepts the same functions.
#define _GNU_SOURCE
#include "world_hooks.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define WORLD_INTERPOSERS_SANITIZED 1
#  endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(WORLD_INTERPOSERS_SANITIZED)
int world_interposers_linked = 1;
extern const char *dispatch_queue_get_label(void *queue);
#define current (world_hooks_current())

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef long (*syscall_fn)(long, ...);
typedef ssize_t (*read_fn)(int, void *, size_t);

static clock_gettime_fn next_clock_gettime(void) {
    static clock_gettime_fn next;
    if (!next) next = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
    return next;
}
static syscall_fn next_syscall(void) {
    static syscall_fn next;
    if (!next) next = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
    return next;
}
static read_fn next_read(void) {
    static read_fn next;
    if (!next) next = (read_fn)dlsym(RTLD_NEXT, "read");
    return next;
}

/// A world's wall clock starts at 2026-01-01T00:00:00Z, its monotonic clocks at 1,000 s.
static const int64_t world_epoch_ns = 1767225600LL * 1000000000LL;
static const int64_t world_boot_ns = 1000LL * 1000000000LL;

int clock_gettime(clockid_t id, struct timespec *ts) {
    world_hooks_state *world = current;
    if (!world) return next_clock_gettime()(id, ts);
    int wall = id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE || id == CLOCK_TAI;
    int64_t ns = world->now_ns + (wall ? world_epoch_ns : world_boot_ns);
    ts->tv_sec = ns / 1000000000LL;
    ts->tv_nsec = ns % 1000000000LL;
    return 0;
}

int gettimeofday(struct timeval *tv, void *tz) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    (void)tz;
    return 0;
}

static void fill_random(world_hooks_state *world, void *buffer, size_t length) {
    unsigned char *bytes = buffer;
    world->random_reads += 1;
    while (length > 0) {
        uint64_t z = (world->random += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        size_t n = length < 8 ? length : 8;
        memcpy(bytes, &z, n);
        bytes += n;
        length -= n;
    }
}

ssize_t getrandom(void *buffer, size_t length, unsigned int flags) {
    world_hooks_state *world = current;
    if (!world) return next_syscall()(SYS_getrandom, buffer, length, flags);
    fill_random(world, buffer, length);
    return (ssize_t)length;
}

// The Swift standard library's SystemRandomNumberGenerator calls syscall(SYS_getrandom, …), not getrandom.
long syscall(long number, ...) {
    va_list args;
    va_start(args, number);
    long a = va_arg(args, long), b = va_arg(args, long), c = va_arg(args, long);
    long d = va_arg(args, long), e = va_arg(args, long), f = va_arg(args, long);
    va_end(args);
    world_hooks_state *world = current;
    if (world && number == SYS_getrandom) {
        fill_random(world, (void *)a, (size_t)b);
        return b;
    }
    return next_syscall()(number, a, b, c, d, e, f);
}

// Foundation's UUID() reads 16 bytes of /dev/urandom (character device 1:9; /dev/random is 1:8).
ssize_t read(int fd, void *buffer, size_t length) {
    world_hooks_state *world = current;
    if (world) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && (minor(st.st_rdev) == 9 || minor(st.st_rdev) == 8)) {
            fill_random(world, buffer, length);
            return (ssize_t)length;
        }
    }
    return next_read()(fd, buffer, length);
}

// Work handed from a world's thread to Dispatch or to a new thread leaves the world: it is forwarded (the
// program runs as written) and counted, and the world fails naming it, in every world that does it.
static void note_escape(world_hooks_state *world, const char *what, const char *label) {
    char text[sizeof world->escape];
    snprintf(text, sizeof text, "%s%s%s", what, label ? label : "", label ? "'" : "");
    world_hooks_note_named_escape(world, world->generation, WORLD_HOOKS_CALLED_OUT, text, NULL);
}

typedef void (*dispatch_async_fn)(void *, void *);
typedef void (*dispatch_async_f_fn)(void *, void *, void *);
typedef void (*dispatch_after_fn)(uint64_t, void *, void *);
typedef void (*dispatch_after_f_fn)(uint64_t, void *, void *, void *);
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

#define NEXT(type, name) static type next; if (!next) next = (type)dlsym(RTLD_NEXT, name)

void dispatch_async(void *queue, void *block) {
    NEXT(dispatch_async_fn, "dispatch_async");
    if (current) note_escape(current, "DispatchQueue.async on '", dispatch_queue_get_label(queue));
    next(queue, block);
}
void dispatch_async_f(void *queue, void *context, void *function) {
    NEXT(dispatch_async_f_fn, "dispatch_async_f");
    if (current) note_escape(current, "dispatch_async_f on '", dispatch_queue_get_label(queue));
    next(queue, context, function);
}
void dispatch_after(uint64_t when, void *queue, void *block) {
    NEXT(dispatch_after_fn, "dispatch_after");
    if (current) note_escape(current, "DispatchQueue.asyncAfter on '", dispatch_queue_get_label(queue));
    next(when, queue, block);
}
void dispatch_after_f(uint64_t when, void *queue, void *context, void *function) {
    NEXT(dispatch_after_f_fn, "dispatch_after_f");
    if (current) note_escape(current, "dispatch_after_f on '", dispatch_queue_get_label(queue));
    next(when, queue, context, function);
}
// A blocking sleep on a world's thread stops the world with it (the thread runs every job of the world):
// it is counted, moves the thread's clocks on by its duration (a loop that sleeps until a deadline ends) and
// returns at once; the world fails naming it.
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*usleep_fn)(useconds_t);
typedef unsigned (*sleep_fn)(unsigned);
static void blocking_sleep(world_hooks_state *world, int64_t ns) {
    note_escape(world, "a blocking sleep on the world's thread (Thread.sleep, usleep, nanosleep)", 0);
    if (ns > 0) world->now_ns += ns;
}
// The calling thread's world when the caller is the program; a sleep or a wait of Dispatch or of the concurrency
// runtime (a contention backoff) is theirs, no escape: it happens for real.
#define PROGRAMS_WORLD (current && !world_hooks_runtime_code(__builtin_return_address(0)) ? current : 0)
static int64_t timespec_ns(const struct timespec *ts) { return ts ? (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec : 0; }
int nanosleep(const struct timespec *duration, struct timespec *remaining) {
    NEXT(nanosleep_fn, "nanosleep");
    world_hooks_state *world = PROGRAMS_WORLD;
    if (!world) return next(duration, remaining);
    blocking_sleep(world, timespec_ns(duration));
    if (remaining) remaining->tv_sec = remaining->tv_nsec = 0;
    return 0;
}
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *duration, struct timespec *remaining) {
    NEXT(clock_nanosleep_fn, "clock_nanosleep");
    world_hooks_state *world = PROGRAMS_WORLD;
    if (!world) return next(clock, flags, duration, remaining);
    int wall = clock == CLOCK_REALTIME || clock == CLOCK_TAI;
    int64_t ns = timespec_ns(duration);
    blocking_sleep(world, (flags & TIMER_ABSTIME) ? ns - (world->now_ns + (wall ? world_epoch_ns : world_boot_ns)) : ns);
    if (remaining && !(flags & TIMER_ABSTIME)) remaining->tv_sec = remaining->tv_nsec = 0;
    return 0;
}
int usleep(useconds_t microseconds) {
    NEXT(usleep_fn, "usleep");
    world_hooks_state *world = PROGRAMS_WORLD;
    if (!world) return next(microseconds);
    blocking_sleep(world, (int64_t)microseconds * 1000);
    return 0;
}
unsigned sleep(unsigned seconds) {
    NEXT(sleep_fn, "sleep");
    world_hooks_state *world = PROGRAMS_WORLD;
    if (!world) return next(seconds);
    blocking_sleep(world, (int64_t)seconds * 1000000000LL);
    return 0;
}
// A wait on the world's thread for a semaphore or a group that other work must signal stops the world with it
// (the signaller, if it is the world's, never runs): a wait that would block is counted and answered at once as
// timed out, and the world fails naming it. One that need not block (the count is up, the group empty) goes on.
typedef long (*dispatch_wait_fn)(void *, uint64_t);
static long blocking_wait(world_hooks_state *world, dispatch_wait_fn wait, void *object, uint64_t timeout, const char *what) {
    if (!world || timeout == 0) return wait(object, timeout);
    long timed_out = wait(object, 0);
    if (timed_out) note_escape(world, what, 0);
    return timed_out;
}
long dispatch_semaphore_wait(void *semaphore, uint64_t timeout) {
    NEXT(dispatch_wait_fn, "dispatch_semaphore_wait");
    return blocking_wait(PROGRAMS_WORLD, next, semaphore, timeout, "a blocking wait on the world's thread (DispatchSemaphore.wait)");
}
long dispatch_group_wait(void *group, uint64_t timeout) {
    NEXT(dispatch_wait_fn, "dispatch_group_wait");
    return blocking_wait(PROGRAMS_WORLD, next, group, timeout, "a blocking wait on the world's thread (DispatchGroup.wait)");
}
int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    NEXT(pthread_create_fn, "pthread_create");
    if (current) note_escape(current, "a new thread (Thread, pthread_create)", 0);
    return next(thread, attributes, start, argument);
}

#endif
