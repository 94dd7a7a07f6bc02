// Counts the process's allocations by defining the malloc family over glibc's own entry points
// (`__libc_malloc` and friends): no lookup at start-up, no header on the blocks (a block from
// anywhere may be freed here), and no per-thread state (nothing to free when a thread exits, which
// is where ordo-one/malloc-interposer 1.6.1 wrote into its freed per-thread block and corrupted the
// heap). Counters are relaxed atomics: each counted call costs two atomic adds.
#include "allocation_counter.h"

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define ALLOCATION_COUNTER_SANITIZED 1
#  endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTER_SANITIZED) && !defined(ALLOCATION_COUNTER_DISABLED)

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic bool counting;
static _Atomic int64_t allocations;
static _Atomic int64_t requested_bytes;
static _Atomic bool following_peak;
static _Atomic int64_t live_bytes;
static _Atomic int64_t peak_live_bytes;
/// Held from `allocation_counter_begin_peak` to `allocation_counter_end_peak`: one follower at a time.
static pthread_mutex_t peak_follower = PTHREAD_MUTEX_INITIALIZER;

static void count_allocation(void *block, size_t requested) {
    if (!block) return;
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&requested_bytes, (int64_t)requested, memory_order_relaxed);
    }
    if (!atomic_load_explicit(&following_peak, memory_order_relaxed)) return;
    int64_t usable = (int64_t)malloc_usable_size(block);
    int64_t live = atomic_fetch_add_explicit(&live_bytes, usable, memory_order_relaxed) + usable;
    int64_t peak = atomic_load_explicit(&peak_live_bytes, memory_order_relaxed);
    while (live > peak &&
           !atomic_compare_exchange_weak_explicit(&peak_live_bytes, &peak, live, memory_order_relaxed, memory_order_relaxed)) {
    }
}

/// Called before `block` is freed or moved.
static void count_release(void *block) {
    if (!block || !atomic_load_explicit(&following_peak, memory_order_relaxed)) return;
    atomic_fetch_sub_explicit(&live_bytes, (int64_t)malloc_usable_size(block), memory_order_relaxed);
}

void *malloc(size_t size) {
    void *block = __libc_malloc(size);
    count_allocation(block, size);
    return block;
}

void *calloc(size_t count, size_t size) {
    void *block = __libc_calloc(count, size);
    count_allocation(block, count * size);  // no overflow when the block exists
    return block;
}

void *realloc(void *pointer, size_t size) {
    if (pointer && size == 0) {
        count_release(pointer);
        __libc_free(pointer);
        return NULL;
    }
    // The old block's size is taken before it may move; if realloc fails it stays allocated.
    int64_t old_usable = pointer && atomic_load_explicit(&following_peak, memory_order_relaxed)
        ? (int64_t)malloc_usable_size(pointer) : 0;
    void *block = __libc_realloc(pointer, size);
    if (block) {
        atomic_fetch_sub_explicit(&live_bytes, old_usable, memory_order_relaxed);
        count_allocation(block, size);
    }
    return block;
}

void free(void *pointer) {
    count_release(pointer);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    void *block = __libc_memalign(alignment, size);
    count_allocation(block, size);
    return block;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
        errno = EINVAL;
        return NULL;
    }
    return memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *block = memalign(alignment, size);
    if (!block) return ENOMEM;
    *result = block;
    return 0;
}

void *valloc(size_t size) {
    void *block = __libc_valloc(size);
    count_allocation(block, size);
    return block;
}

void *pvalloc(size_t size) {
    void *block = __libc_pvalloc(size);
    count_allocation(block, size);
    return block;
}

bool allocation_counter_is_installed(void) { return true; }

void allocation_counter_start(void) { atomic_store_explicit(&counting, true, memory_order_relaxed); }

allocation_counter_totals allocation_counter_read(void) {
    allocation_counter_totals totals = {
        atomic_load_explicit(&allocations, memory_order_relaxed),
        atomic_load_explicit(&requested_bytes, memory_order_relaxed),
    };
    return totals;
}

void allocation_counter_begin_peak(void) {
    pthread_mutex_lock(&peak_follower);
    atomic_store_explicit(&live_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&peak_live_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&following_peak, true, memory_order_seq_cst);
}

int64_t allocation_counter_end_peak(void) {
    atomic_store_explicit(&following_peak, false, memory_order_seq_cst);
    int64_t peak = atomic_load_explicit(&peak_live_bytes, memory_order_relaxed);
    pthread_mutex_unlock(&peak_follower);
    return peak;
}

#else

bool allocation_counter_is_installed(void) { return false; }
void allocation_counter_start(void) {}
allocation_counter_totals allocation_counter_read(void) {
    allocation_counter_totals none = {0, 0};
    return none;
}
void allocation_counter_begin_peak(void) {}
int64_t allocation_counter_end_peak(void) { return 0; }

#endif
