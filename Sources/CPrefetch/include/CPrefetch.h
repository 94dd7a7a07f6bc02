#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for a later write, without waiting.
static inline void simharness_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

#endif
