/// A hint that the cache line at `address` will be read soon (no fault, no effect on results).
static inline void simharness_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
