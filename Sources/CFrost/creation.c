// CFrost: cells and their create-once protocol.
//
// A cell's creator is claimed with a compare-and-swap and released with an exchange: creating
// takes no lock, and no lock is held while the creator runs (it runs the application's
// factories). Only a context that finds the cell's creation in progress waits, on one
// process-wide condition, and only for that cell. Before it waits it follows the chain "this
// cell is created by a context that waits for that cell, created by ..." under the wait lock:
// if the chain comes back to itself, waiting would close a circle (each waits for the next
// forever), and it returns FROST_BEGIN_CYCLE instead.
//
// Why the chain can be trusted under the lock: a context that waits (its `waiting` set, which
// happens only under the lock) is blocked, so it cannot end the creations it owns; a context
// that does not wait ends the chain. Contexts are never freed, so reading one is always safe.
//
// Memory: a cell lives in a table's slot (table.c), or in a block of frost_cells_new that the
// facade owns (a Lazy's, an @LazyInjected's, a scope storage entry's, a child's per-child and
// override cells, weak side cells) and frees with frost_cells_free after releasing their
// instances; frost_cells_new is the only function here that allocates. A context is
// context.c's; an instance is the facade's.

#include <pthread.h>
#include <stdlib.h>

#include "CFrost.h"

/// Bit 0 of a cell's creator: someone waits for this creation (the creator wakes them).
#define FROST_WAITED ((uintptr_t)1)
/// Bit 1 of a cell's creator: an async resolve claimed it while running async code; it may
/// suspend before it ends the creation, so no thread may block waiting for it.
#define FROST_CREATOR_ASYNC ((uintptr_t)2)

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t creation_ended = PTHREAD_COND_INITIALIZER;
static void (*_Atomic async_wakeup)(void *) = NULL;

void frost_set_async_wakeup(void (*wakeup)(void *)) {
    atomic_store_explicit(&async_wakeup, wakeup, memory_order_release);
}

frost_cell *frost_cells_new(size_t count) {
    if (count == 0) count = 1;
    frost_cell *cells = malloc(sizeof *cells * count);
    if (cells == NULL) return NULL;
    // Atomic stores, which the compiler does not merge into a memset (malloc then memset
    // would compile to calloc).
    for (size_t i = 0; i < count; i++) {
        atomic_store_explicit(&cells[i].instance, NULL, memory_order_relaxed);
        atomic_store_explicit(&cells[i].creator, 0, memory_order_relaxed);
    }
    return cells;
}

void frost_cells_free(frost_cell *cells) { free(cells); }

int frost_cell_preset(frost_cell *cell, void *instance) {
    void *expected = NULL;
    return atomic_compare_exchange_strong_explicit(&cell->instance, &expected, instance,
                                                   memory_order_release, memory_order_relaxed);
}

void *frost_cell_take(frost_cell *cell) {
    return atomic_exchange_explicit(&cell->instance, NULL, memory_order_acq_rel);
}

int frost_cell_compare_exchange(frost_cell *cell, void *expected, void *desired) {
    return atomic_compare_exchange_strong_explicit(&cell->instance, &expected, desired,
                                                   memory_order_acq_rel, memory_order_acquire);
}

void *frost_cell_exchange(frost_cell *cell, void *desired) {
    return atomic_exchange_explicit(&cell->instance, desired, memory_order_acq_rel);
}

static frost_context *owner_of(uintptr_t creator) {
    return (frost_context *)(creator & ~(FROST_WAITED | FROST_CREATOR_ASYNC));
}

/// Whether `owner` is `context` or one of the async resolves it works for.
static int is_self_or_ancestor(const frost_context *owner, const frost_context *context) {
    for (const frost_context *current = context; current != NULL; current = current->parent) {
        if (current == owner) return 1;
    }
    return 0;
}

/// Whether `context` waiting for `cell` would close a circle of waits. Under the wait lock.
static int closes_circle(const frost_context *context, frost_cell *cell) {
    frost_cell *current = cell;
    // A circle has at most one step per context; more steps means the chain moved under us.
    uint32_t limit = frost_context_count() + 1;
    for (uint32_t step = 0; step <= limit; step++) {
        uintptr_t creator = atomic_load_explicit(&current->creator, memory_order_acquire);
        frost_context *owner = owner_of(creator);
        if (owner == NULL) return 0;
        if (is_self_or_ancestor(owner, context)) return 1;
        frost_cell *next = atomic_load_explicit(&owner->waiting, memory_order_relaxed);
        if (next == NULL) return 0;  // the owner runs: it will end, or find the circle itself
        current = next;
    }
    return 0;
}

/// Gives up a claim without publishing, and wakes anyone who started waiting meanwhile.
static void release_claim(frost_cell *cell) {
    uintptr_t creator = atomic_exchange_explicit(&cell->creator, 0, memory_order_acq_rel);
    if (creator & FROST_WAITED) {
        pthread_mutex_lock(&wait_lock);
        pthread_cond_broadcast(&creation_ended);
        pthread_mutex_unlock(&wait_lock);
        void (*wakeup)(void *) = atomic_load_explicit(&async_wakeup, memory_order_acquire);
        if (wakeup != NULL) wakeup(cell);
    }
}

/// The claim `context` makes: its address, marked when it runs async code.
static uintptr_t claim_of(const frost_context *context) {
    return (uintptr_t)context | (context->is_async ? FROST_CREATOR_ASYNC : 0);
}

/// Claims `cell` for `context` if nobody creates it: FROST_BEGIN_CREATE, or FROST_BEGIN_READY
/// with `*instance` when a creation ended meanwhile; -1 when someone else creates it now
/// (`*creator` says who) or the claim raced (then `*creator` is 0: look again).
static int try_claim(frost_cell *cell, frost_context *context, void *stale, void **instance,
                     uintptr_t *creator) {
    void *found = frost_cell_read(cell);
    if (found != NULL && found != stale) {
        *instance = found;
        return FROST_BEGIN_READY;
    }
    uintptr_t current = atomic_load_explicit(&cell->creator, memory_order_acquire);
    if (current != 0) {
        *creator = current;
        return -1;
    }
    if (!atomic_compare_exchange_strong_explicit(&cell->creator, &current, claim_of(context),
                                                 memory_order_acq_rel, memory_order_acquire)) {
        *creator = 0;
        return -1;
    }
    // A creation may have ended between the read and the claim: read again.
    found = frost_cell_read(cell);
    if (found != NULL && found != stale) {
        release_claim(cell);
        *instance = found;
        return FROST_BEGIN_READY;
    }
    return FROST_BEGIN_CREATE;
}

/// Under the wait lock: marks `owner`'s creation of `cell` as waited for, if `owner` still
/// creates it. Returns 0 when it no longer does (look again).
static int mark_waited(frost_cell *cell, frost_context *owner) {
    uintptr_t now = atomic_load_explicit(&cell->creator, memory_order_acquire);
    if (owner_of(now) != owner) return 0;
    if (now & FROST_WAITED) return 1;
    return atomic_compare_exchange_strong_explicit(&cell->creator, &now, now | FROST_WAITED,
                                                   memory_order_acq_rel, memory_order_acquire);
}

frost_begin frost_cell_begin(frost_cell *cell, frost_context *context, void *stale,
                             void **instance) {
    for (;;) {
        uintptr_t creator = 0;
        int claimed = try_claim(cell, context, stale, instance, &creator);
        if (claimed >= 0) return (frost_begin)claimed;
        if (creator == 0) continue;
        frost_context *owner = owner_of(creator);
        if (owner == context) return FROST_BEGIN_OWN;
        if (creator & FROST_CREATOR_ASYNC) {
            // The owner might have ended and its context gone to another user: check again.
            uintptr_t now = atomic_load_explicit(&cell->creator, memory_order_acquire);
            if (owner_of(now) == owner && (now & FROST_CREATOR_ASYNC)) return FROST_BEGIN_ASYNC;
            continue;
        }
        pthread_mutex_lock(&wait_lock);
        if (mark_waited(cell, owner)) {
            if (closes_circle(context, cell)) {
                pthread_mutex_unlock(&wait_lock);
                return FROST_BEGIN_CYCLE;
            }
            atomic_store_explicit(&context->waiting, cell, memory_order_relaxed);
            // One wait: any creation's end wakes every waiter, who then looks again.
            pthread_cond_wait(&creation_ended, &wait_lock);
            atomic_store_explicit(&context->waiting, NULL, memory_order_relaxed);
        }
        pthread_mutex_unlock(&wait_lock);
    }
}

frost_begin frost_cell_begin_async(frost_cell *cell, frost_context *context, void **instance) {
    for (;;) {
        uintptr_t creator = 0;
        int claimed = try_claim(cell, context, NULL, instance, &creator);
        if (claimed >= 0) return (frost_begin)claimed;
        if (creator == 0) continue;
        frost_context *owner = owner_of(creator);
        if (owner == context) return FROST_BEGIN_OWN;
        pthread_mutex_lock(&wait_lock);
        int waits = mark_waited(cell, owner);
        if (waits) {
            if (closes_circle(context, cell)) {
                pthread_mutex_unlock(&wait_lock);
                return FROST_BEGIN_CYCLE;
            }
            atomic_store_explicit(&context->waiting, cell, memory_order_relaxed);
        }
        pthread_mutex_unlock(&wait_lock);
        if (waits) return FROST_BEGIN_WAIT;
    }
}

void frost_context_stop_waiting(frost_context *context) {
    pthread_mutex_lock(&wait_lock);
    atomic_store_explicit(&context->waiting, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&wait_lock);
}

void *frost_cell_end(frost_cell *cell, frost_context *context, void *instance) {
    (void)context;
    void *previous = NULL;
    if (instance != NULL) {
        previous = atomic_exchange_explicit(&cell->instance, instance, memory_order_acq_rel);
    }
    release_claim(cell);
    return previous;
}
