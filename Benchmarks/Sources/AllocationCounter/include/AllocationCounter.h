#ifndef FROST_BENCH_ALLOCATION_COUNTER_H
#define FROST_BENCH_ALLOCATION_COUNTER_H

#include <stdint.h>

/// How many blocks the process has allocated so far (malloc, calloc, realloc of NULL,
/// posix_memalign, aligned_alloc, memalign), counted by the allocation functions this target
/// defines in the executable, which forward to glibc's. 0 forever where they are not defined
/// (not glibc): frost_bench_counts_allocations() says which.
uint64_t frost_bench_allocations(void);

/// Whether allocations are counted on this platform.
int frost_bench_counts_allocations(void);

/// Turns counting on (non-zero) or off. Off, an allocation costs one relaxed load more than
/// glibc's: timed runs leave it off (a shared counter would slow allocations, most of all
/// from several threads at once), and a separate run counts.
void frost_bench_count_allocations(int on);

#endif
