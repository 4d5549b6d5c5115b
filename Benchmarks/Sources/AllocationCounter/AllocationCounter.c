// Counts the process's allocations for frost-bench's allocations-per-operation figures.
//
// The executable defines malloc and its siblings; the dynamic linker binds every call in the
// process (the Swift runtime's, Foundation's, Frost's) to the executable's definition first,
// which counts (while counting is on) and forwards to glibc's own entry points
// (__libc_malloc, ...). No dlsym, no LD_PRELOAD: `swift run frost-bench` counts as it is.
// free() is not counted and not defined.
#include "AllocationCounter.h"

#if defined(__GLIBC__)
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocations;
static _Atomic int counting;

static inline void count(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void frost_bench_count_allocations(int on) {
    atomic_store_explicit(&counting, on != 0, memory_order_seq_cst);
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer == NULL) count();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

uint64_t frost_bench_allocations(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}

int frost_bench_counts_allocations(void) { return 1; }

#else

void frost_bench_count_allocations(int on) { (void)on; }

uint64_t frost_bench_allocations(void) { return 0; }

int frost_bench_counts_allocations(void) { return 0; }

#endif
