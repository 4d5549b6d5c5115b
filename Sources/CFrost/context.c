// CFrost: contexts (who is resolving) and reclamation (which taken instances no one reads).
//
// Reclamation is hazard pointers with asymmetric fences. A reader publishes the cell it is
// about to read in its context's `hazard`, then loads the cell's instance (frost_cell_read, in
// the header). The reclaiming side takes instances out of their cells, then runs
// membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every running thread of the
// process execute a full memory barrier: after it, a reader either has its hazard visible to
// the reclaimer (who then keeps what it took from that cell), or loads the cell after the take
// and never sees the taken instance. So the reader pays a plain store and a compiler barrier,
// never a fence. Where membarrier is missing (an old kernel, another system), readers fence
// themselves (frost_readers_fence) and the reclaimer fences too.
//
// A hazard is never cleared after a read; the next read replaces it. A thread that stops
// resolving therefore protects what is taken from one cell (its last read) until it reads
// again or ends: reclamation keeps that for a later try, it never frees it early. When a
// table's slots are freed, the hazards that name them are cleared (frost_forget_hazards), so
// that a stale one does not protect what a new table's cell at the same address holds.
//
// Memory: a context (aligned_alloc) is allocated by take_context and never freed (what its
// facade fields point to is the facade's): a context goes back to the pool (give_back) and is
// reused, and reclamation walks the registry without a lock. A reclamation's list of hazards is allocated and freed
// within frost_reclaim_partition. The instances it partitions are the caller's.

#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "CFrost.h"

_Static_assert(sizeof(frost_context) == 128, "a frost_context fills two 64-byte cache lines");
_Static_assert(offsetof(frost_context, facade) == 0, "the facade's fields open the context");

__attribute__((tls_model("initial-exec"))) _Thread_local frost_context *frost_thread_context;

_Atomic(int) frost_readers_fence = 1;

_Atomic(uint32_t) frost_running_async_factories = 0;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_key;
static int have_process_barrier = 0;

/// Every context ever made, newest first; `next` is written once, before a context is
/// published, so the list is walked without a lock.
static _Atomic(frost_context *) registry = NULL;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(uint32_t) context_count = 0;

static void (*_Atomic facade_release)(void *facade) = NULL;

static void thread_ended(void *value);

static void setup(void) {
    pthread_key_create(&thread_key, thread_ended);
#if defined(__linux__) && defined(__NR_membarrier)
    if (syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0) {
        have_process_barrier = 1;
        atomic_store_explicit(&frost_readers_fence, 0, memory_order_release);
    }
#endif
}

uint32_t frost_context_count(void) {
    return atomic_load_explicit(&context_count, memory_order_relaxed);
}

void frost_context_set_facade_release(void (*release)(void *facade)) {
    atomic_store_explicit(&facade_release, release, memory_order_release);
}

/// A context no one uses, from the pool, or a new one.
static frost_context *take_context(void) {
    pthread_once(&setup_once, setup);
    for (frost_context *context = atomic_load_explicit(&registry, memory_order_acquire);
         context != NULL; context = context->next) {
        uint32_t expected = 0;
        if (atomic_load_explicit(&context->in_use, memory_order_relaxed) == 0
            && atomic_compare_exchange_strong_explicit(&context->in_use, &expected, 1,
                                                       memory_order_acquire,
                                                       memory_order_relaxed)) {
            return context;
        }
    }
    frost_context *context = aligned_alloc(128, sizeof *context);
    if (context == NULL) abort();  // 128 bytes, once per thread
    memset(context, 0, sizeof *context);
    atomic_store_explicit(&context->in_use, 1, memory_order_relaxed);
    pthread_mutex_lock(&registry_lock);
    context->next = atomic_load_explicit(&registry, memory_order_relaxed);
    atomic_store_explicit(&registry, context, memory_order_release);
    pthread_mutex_unlock(&registry_lock);
    atomic_fetch_add_explicit(&context_count, 1, memory_order_relaxed);
    return context;
}

static void give_back(frost_context *context) {
    context->stack_limit = 0;
    context->stack_limit_is_exact = 0;
    context->is_async = 0;
    context->parent = NULL;
    atomic_store_explicit(&context->waiting, NULL, memory_order_relaxed);
    atomic_store_explicit(&context->hazard, NULL, memory_order_release);
    atomic_store_explicit(&context->in_use, 0, memory_order_release);
}

/// The lowest address the calling thread may use for resolving: its stack's end plus a margin
/// for one more level and the factories between levels.
static uintptr_t stack_limit_of_this_thread(void) {
    uintptr_t low = 0;
    size_t size = 0;
#if defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    void *address = NULL;
    if (pthread_attr_getstack(&attributes, &address, &size) == 0) low = (uintptr_t)address;
    pthread_attr_destroy(&attributes);
#elif defined(__APPLE__)
    size = pthread_get_stacksize_np(pthread_self());
    low = (uintptr_t)pthread_get_stackaddr_np(pthread_self()) - size;
#endif
    if (low == 0 || size == 0) return 0;
    return low + 64 * 1024 + size / 32;
}

/// How far below the frame of a thread's first resolve its resolves go before the real end of
/// its stack is asked for.
#define FROST_PROVISIONAL_STACK (32 * 1024)

#if defined(__GLIBC__)
#include <sys/resource.h>
extern void *__libc_stack_end;
#endif

/// Whether the calling thread may resolve with a provisional stack limit (FROST_PROVISIONAL_STACK
/// below `here`, where it first resolves) that is certainly above its real one: only glibc's
/// main thread, where asking for the real one reads /proc/self/maps, and only while it has used
/// at most a quarter of a stack of at least 4 MiB. Its stack then ends, at the nearest, a
/// quarter of it (arguments and environment, at most another quarter) below `here`: far below
/// the provisional limit, and below the real limit's margin (64 KiB and 1/32 of the stack).
/// Linux places other mappings at least 128 MiB below the main thread's stack, so nothing
/// shortens it. Any other thread asks at once: pthread answers from the thread's own record.
static int may_defer_stack_limit(uintptr_t here) {
#if defined(__GLIBC__)
    if (getpid() != (pid_t)syscall(SYS_gettid)) return 0;
    struct rlimit limit;
    if (getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    uintptr_t top = (uintptr_t)__libc_stack_end;
    if (here > top || limit.rlim_cur < 4 * 1024 * 1024) return 0;
    return top - here <= limit.rlim_cur / 4;
#else
    (void)here;
    return 0;
#endif
}

frost_context *frost_context_register_thread(void) {
    frost_context *context = take_context();
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (may_defer_stack_limit(here)) {
        context->stack_limit = here - FROST_PROVISIONAL_STACK;
        context->stack_limit_is_exact = 0;
    } else {
        context->stack_limit = stack_limit_of_this_thread();
        context->stack_limit_is_exact = 1;
    }
    pthread_setspecific(thread_key, context);
    frost_thread_context = context;
    return context;
}

int frost_context_refine_stack_limit(frost_context *context) {
    if (!context->stack_limit_is_exact) {
        context->stack_limit = stack_limit_of_this_thread();
        context->stack_limit_is_exact = 1;
        // An async resolve's context runs on the thread (frost_context_enter_thread): the
        // thread's own context learns the limit too, so that no later resolve asks again.
        frost_context *own = pthread_getspecific(thread_key);
        if (own != NULL && own != context) {
            own->stack_limit = context->stack_limit;
            own->stack_limit_is_exact = 1;
        }
    }
    return frost_stack_has_room(context);
}

static void thread_ended(void *value) {
    frost_context *context = value;
    void (*release)(void *) = atomic_load_explicit(&facade_release, memory_order_acquire);
    if (release != NULL) release(context->facade);  // may run deinits: no lock is held
    frost_thread_context = NULL;
    give_back(context);
}

frost_context *frost_context_acquire(frost_context *parent) {
    frost_context *context = take_context();
    context->is_async = 1;
    context->parent = parent;
    return context;
}

frost_context *frost_context_enter_thread(frost_context *context) {
    frost_context *thread = frost_context_current();
    context->stack_limit = thread->stack_limit;
    context->stack_limit_is_exact = thread->stack_limit_is_exact;
    context->is_async = 0;
    frost_thread_context = context;
    return thread;
}

void frost_context_leave_thread(frost_context *context, frost_context *thread) {
    frost_thread_context = thread;
    context->is_async = 1;
}

void frost_context_relinquish(frost_context *context) { give_back(context); }

// MARK: - Reclamation

static int compare_addresses(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
    return x < y ? -1 : x > y;
}

/// Makes every hazard published before the instances were taken visible to this thread.
/// Returns 0 when that cannot be guaranteed.
static int process_barrier(void) {
    pthread_once(&setup_once, setup);
#if defined(__linux__) && defined(__NR_membarrier)
    if (have_process_barrier) {
        return syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0;
    }
#endif
    atomic_thread_fence(memory_order_seq_cst);  // readers fence too (frost_readers_fence)
    return 1;
}

uint32_t frost_reclaim_partition(void **instances, void **cells, uint32_t count) {
    if (count == 0) return 0;
    // The caller reads no cell while it reclaims: its last read protects nothing any more.
    frost_context *self = frost_thread_context;
    if (self != NULL) atomic_store_explicit(&self->hazard, NULL, memory_order_release);
    if (!process_barrier()) return count;  // keep everything: never free what may be read
    size_t capacity = 64, found = 0;
    void **hazards = malloc(sizeof *hazards * capacity);
    if (hazards == NULL) return count;
    int complete = 1;  // 0 when memory ran out before every hazard was collected
    for (frost_context *context = atomic_load_explicit(&registry, memory_order_acquire);
         context != NULL; context = context->next) {
        // Acquire: pairs with the reader's release store of its next hazard, so what it read
        // through this one happened before it is released here.
        void *hazard = atomic_load_explicit(&context->hazard, memory_order_acquire);
        if (hazard == NULL) continue;
        if (found == capacity) {
            void **grown = realloc(hazards, sizeof *hazards * capacity * 2);
            if (grown == NULL) {
                complete = 0;
                break;
            }
            hazards = grown;
            capacity *= 2;
        }
        hazards[found++] = hazard;
    }
    uint32_t kept = count;  // without every hazard, keep everything: never free what may be read
    if (complete) {
        qsort(hazards, found, sizeof *hazards, compare_addresses);
        kept = 0;
        for (uint32_t i = 0; i < count; i++) {
            if (found > 0
                && bsearch(&cells[i], hazards, found, sizeof *hazards, compare_addresses)) {
                void *instance = instances[i], *cell = cells[i];
                instances[i] = instances[kept];
                cells[i] = cells[kept];
                instances[kept] = instance;
                cells[kept++] = cell;
            }
        }
    }
    free(hazards);
    return kept;
}

void frost_forget_hazards(const void *cells, size_t length) {
    uintptr_t begin = (uintptr_t)cells, end = begin + length;
    for (frost_context *context = atomic_load_explicit(&registry, memory_order_acquire);
         context != NULL; context = context->next) {
        void *hazard = atomic_load_explicit(&context->hazard, memory_order_relaxed);
        if ((uintptr_t)hazard < begin || (uintptr_t)hazard >= end) continue;
        // Fails, harmlessly, when that thread has meanwhile published another hazard.
        atomic_compare_exchange_strong_explicit(&context->hazard, &hazard, NULL,
                                                memory_order_relaxed, memory_order_relaxed);
    }
}
