#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Totals since the process started counting (cumulative: only differences mean anything).
typedef struct {
    int64_t allocations;     ///< malloc, calloc, realloc and aligned-allocation calls
    int64_t requestedBytes;  ///< bytes those calls asked for
} allocation_counter_totals;

/// Whether this process's malloc family is the counting one (false off glibc, under a sanitizer,
/// or when the build left it out).
bool allocation_counter_is_installed(void);

/// Starts counting; counting stays on.
void allocation_counter_start(void);

/// The totals now (zero before `allocation_counter_start`).
allocation_counter_totals allocation_counter_read(void);

/// Starts following live heap bytes (the allocator's usable sizes, allocated minus freed) and
/// their highest value, both from zero. One follower at a time: a second caller waits until the first
/// ends, so call both from the same thread.
void allocation_counter_begin_peak(void);

/// Stops following and returns the highest rise of live bytes since `allocation_counter_begin_peak`.
int64_t allocation_counter_end_peak(void);

#endif
