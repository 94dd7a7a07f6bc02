#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Hints that the cache line at `address` will be read soon (no fault, no effect on results).
static inline void simharness_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// Hints that the cache line at `address` will be written soon (no fault, no effect on results).
static inline void simharness_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
