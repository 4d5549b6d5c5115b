// CFrost: the C core of Frost. This header is the whole C contract.
//
// Four parts, one source file each:
// - the table (table.c): an immutable set of slots built once from a set of distinct keys,
//   found through two cmph perfect-hash functions (the build ladder is ladder.c, the inline
//   BDZ_PH evaluator bdz_ph.c);
// - contexts (context.c): who is resolving. Each thread that resolves gets one, lazily; an
//   async resolve borrows one from the same pool. A context carries the path of components
//   its resolve is creating, its hazard pointer, and what it waits for;
// - cells (creation.c): an atomically published instance and the context creating it, with a
//   create-once protocol that never holds a lock while the creator runs;
// - reclamation (context.c): which instances taken out of cells no thread may still read.
//
// Memory: frost_table_create (and frost_table_name_keys, for the names) allocates everything a
// table uses and frost_table_destroy frees all of it; a cell's instance is owned by the cell
// (a +1 reference dropped through the table's release function). frost_cells_new allocates
// blocks of cells that the caller owns and frees with frost_cells_free, after releasing their
// instances. Contexts are never freed: a thread's context returns to the pool when the thread
// ends, and is reused.
//
// Threads: lookups and cell reads are lock-free and write only the reading thread's own
// context; naming a table (frost_table_name_keys) takes the table's lock, and lookups by name
// find nothing until it is done. Creation waits only for the same cell, and a wait that would
// close a circle of contexts waiting for each other is refused (FROST_BEGIN_CYCLE) instead of
// hanging.

#ifndef CFROST_H
#define CFROST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Contexts

/// The size of a context's `facade` fields, in 8-byte words.
#define FROST_CONTEXT_FACADE_WORDS 3

/// Who is resolving: a thread (frost_context_current) or an async resolve
/// (frost_context_acquire). Only its owner writes it, except `waiting` (under the wait lock)
/// and `hazard` (read by reclamation). 128 bytes, allocated on its own cache lines: readers on
/// different threads share no written line.
typedef struct frost_context {
    /// The Swift facade's own fields for this context (its resolve path and its state), laid
    /// out by the facade, which places them at the start of the context: zeroed when the
    /// context is made, never read or written here. When a thread ends, they are given to the
    /// function set by frost_context_set_facade_release.
    uint64_t facade[FROST_CONTEXT_FACADE_WORDS];
    /// The cell this context is reading, published before its instance is loaded, and
    /// replaced by the next read. Cleared when the context is given back, when its thread
    /// reclaims, and when the table holding the cell is freed (frost_forget_hazards). A stale
    /// value delays reclamation of what is taken from one cell; it never frees anything early.
    _Atomic(void *) hazard;
    /// The cell whose creation this context waits for; set and cleared under the wait lock.
    _Atomic(void *) waiting;
    /// Below this address the thread's stack is too close to its end for another level of
    /// resolving (0: unknown, never refused). Until `stack_limit_is_exact`, a provisional limit
    /// 32 KiB below where the thread first resolved, certainly above the real one: a resolve
    /// that reaches it finds the real one (frost_context_refine_stack_limit). Only the main
    /// thread of a glibc process, with most of its stack left, starts with one: asking where
    /// its stack ends costs a quarter of a million instructions (glibc reads /proc/self/maps),
    /// which only a deep resolve then pays.
    uintptr_t stack_limit;
    /// 1 once `stack_limit` is the real limit (or 0 for an unknown one).
    uintptr_t stack_limit_is_exact;
    /// 1 for an async resolve's context while it runs async code: the cells it claims then
    /// are marked (FROST_CREATOR_ASYNC), and synchronous waits for them are refused. 0 for a
    /// thread's context, and for an async resolve's context while it runs synchronous code on
    /// a thread (frost_context_enter_thread): what it claims then ends before it suspends.
    uint32_t is_async;
    /// 1 while a thread or an async resolve owns the context.
    _Atomic(uint32_t) in_use;
    /// The registry of every context (never freed).
    struct frost_context *_Nullable next;
    /// For an async resolve started on behalf of another one still running (a child task of
    /// an async factory): that one's context. A circle of waits that reaches an ancestor is a
    /// circle (the ancestor waits, through its task, for this one).
    struct frost_context *_Nullable parent;
    /// Up to 128 bytes.
    uint8_t padding[128 - (FROST_CONTEXT_FACADE_WORDS + 7) * 8];
} frost_context;

/// The calling thread's context, made on its first call.
extern __attribute__((tls_model("initial-exec"))) _Thread_local frost_context
    *_Nullable frost_thread_context;

/// Registers the calling thread: out of line, once per thread.
frost_context *_Nonnull frost_context_register_thread(void);

/// The calling thread's context.
static inline frost_context *_Nonnull frost_context_current(void) {
    frost_context *context = frost_thread_context;
    if (__builtin_expect(context == NULL, 0)) context = frost_context_register_thread();
    return context;
}

/// A context for an async resolve, from the pool; give it back with frost_context_relinquish.
/// `parent`: the context of the async resolve it works for, or NULL.
frost_context *_Nonnull frost_context_acquire(frost_context *_Nullable parent);

/// Makes an async resolve's context the calling thread's for a stretch of synchronous code
/// (no suspension until frost_context_leave_thread): resolves it runs continue its path, and
/// what it claims meanwhile may be waited for synchronously. Returns the thread's own context,
/// to give to frost_context_leave_thread.
frost_context *_Nonnull frost_context_enter_thread(frost_context *_Nonnull context);

/// Ends the stretch frost_context_enter_thread began; `thread` is what it returned.
void frost_context_leave_thread(frost_context *_Nonnull context, frost_context *_Nonnull thread);

/// How many async factories run right now, process-wide (the facade counts them): while none
/// does, a synchronous resolve has no async factory's resolve to continue.
extern _Atomic(uint32_t) frost_running_async_factories;

/// Whether an async factory runs anywhere in the process (a relaxed load: a hint, checked
/// again where it matters).
static inline int frost_async_factories_run(void) {
    return atomic_load_explicit(&frost_running_async_factories, memory_order_relaxed) != 0;
}

/// Counts an async factory that starts (`delta` 1) or ends (`delta` -1).
static inline void frost_count_async_factory(int32_t delta) {
    atomic_fetch_add_explicit(&frost_running_async_factories, (uint32_t)delta,
                              memory_order_relaxed);
}

/// Returns an async resolve's context to the pool. The facade has emptied its fields.
void frost_context_relinquish(frost_context *_Nonnull context);

/// Sets the function that empties a context's `facade` fields (given their address) when its
/// thread ends, before the context goes back to the pool. Set once.
void frost_context_set_facade_release(void (*_Nonnull release)(void *_Nonnull facade));

/// Whether the calling thread's stack has room for another level of resolving, as far as
/// `context`'s limit says: when it says no, ask frost_context_refine_stack_limit.
static inline int frost_stack_has_room(const frost_context *_Nonnull context) {
    return (uintptr_t)__builtin_frame_address(0) > context->stack_limit;
}

/// Replaces `context`'s provisional stack limit with the calling thread's real one (once), and
/// answers whether the stack has room for another level of resolving.
int frost_context_refine_stack_limit(frost_context *_Nonnull context);

// MARK: - Cells

/// An instance published once and read lock-free, and the context creating it.
typedef struct frost_cell {
    /// The instance (a +1 reference owned by the cell), or NULL.
    _Atomic(void *) instance;
    /// The creating frost_context, with bit 0 set once someone waits; 0 when none.
    _Atomic(uintptr_t) creator;
} frost_cell;

/// Whether readers must fence after publishing their hazard (the process-wide barrier that
/// lets them skip it, membarrier, is missing). Read by frost_cell_read.
extern _Atomic(int) frost_readers_fence;

/// The instance in `cell`, protected against reclamation until the calling thread's next
/// protected read: the thread's hazard pointer names the cell before the instance is loaded,
/// so nothing taken from the cell meanwhile is freed. NULL when empty.
static inline void *_Nullable frost_cell_read_in(frost_cell *_Nonnull cell,
                                                 frost_context *_Nonnull context);

static inline void *_Nullable frost_cell_read(frost_cell *_Nonnull cell) {
    return frost_cell_read_in(cell, frost_context_current());
}

/// frost_cell_read for a caller that has the calling thread's context at hand.
static inline void *_Nullable frost_cell_read_in(frost_cell *_Nonnull cell,
                                                 frost_context *_Nonnull context) {
    // Release: what this thread read through its previous hazard is read before that hazard
    // is dropped.
    atomic_store_explicit(&context->hazard, cell, memory_order_release);
    if (__builtin_expect(atomic_load_explicit(&frost_readers_fence, memory_order_relaxed), 0)) {
        atomic_thread_fence(memory_order_seq_cst);
    } else {
        // The reclaiming side runs membarrier: a compiler barrier is enough here.
        atomic_signal_fence(memory_order_seq_cst);
    }
    return atomic_load_explicit(&cell->instance, memory_order_acquire);
}

/// The instance in `cell` for a comparison only (never dereference it): an acquire load.
static inline void *_Nullable frost_cell_peek(frost_cell *_Nonnull cell) {
    return atomic_load_explicit(&cell->instance, memory_order_acquire);
}

/// `count` (at least 1) empty cells in one block, from malloc, or NULL when out of memory; the
/// caller owns them and frees them with frost_cells_free (no other function frees them).
/// (Swift's own allocation asks for default-aligned memory, which glibc serves through
/// posix_memalign's slower path; and a malloc zeroed in Swift compiles to calloc, which skips
/// glibc's per-thread cache.)
frost_cell *_Nullable frost_cells_new(size_t count);

/// Frees a block of frost_cells_new. Its instances must have been released.
void frost_cells_free(frost_cell *_Nonnull cells);

/// Stores a +1 instance into an empty cell before the cell is shared with other threads.
/// Returns 0 when the cell already holds one (nothing is stored).
int frost_cell_preset(frost_cell *_Nonnull cell, void *_Nonnull instance);

/// A word for the facade's own compare-and-swap protocols (an async factory's frame).
typedef struct frost_word {
    _Atomic(uintptr_t) value;
} frost_word;

static inline int frost_word_compare_exchange(frost_word *_Nonnull word, uintptr_t expected,
                                              uintptr_t desired) {
    return atomic_compare_exchange_strong_explicit(&word->value, &expected, desired,
                                                   memory_order_acq_rel, memory_order_acquire);
}

static inline void frost_word_store(frost_word *_Nonnull word, uintptr_t value) {
    atomic_store_explicit(&word->value, value, memory_order_release);
}

static inline uintptr_t frost_word_load(frost_word *_Nonnull word) {
    return atomic_load_explicit(&word->value, memory_order_acquire);
}

/// Stores `instance` (+1, or NULL) into a cell no other thread can see yet, replacing what it
/// held without releasing it (a relaxed store: publishing the cell publishes it).
static inline void frost_cell_store_unshared(frost_cell *_Nonnull cell,
                                             void *_Nullable instance) {
    atomic_store_explicit(&cell->instance, instance, memory_order_relaxed);
}

/// Takes the instance out of `cell` (+1 to the caller; the cell is empty afterwards), or NULL.
/// Another thread may still be reading it: reclaim it with frost_reclaim_partition.
void *_Nullable frost_cell_take(frost_cell *_Nonnull cell);

/// For a cell that heads a list (a container's disposal records), never one read under a
/// hazard: replaces its pointer with `desired` if it is still `expected` (release on success,
/// so what `desired` points to is published). Returns 0, changing nothing, when it was not.
int frost_cell_compare_exchange(frost_cell *_Nonnull cell, void *_Nullable expected,
                                void *_Nullable desired);

/// For a cell that heads a list: replaces its pointer with `desired` and returns the old one
/// (acquire and release).
void *_Nullable frost_cell_exchange(frost_cell *_Nonnull cell, void *_Nullable desired);

/// What frost_cell_begin found.
typedef enum frost_begin {
    FROST_BEGIN_READY = 0,   // the cell holds an instance: *instance (a protected read)
    FROST_BEGIN_CREATE = 1,  // the caller creates it now; it must call frost_cell_end once
    FROST_BEGIN_OWN = 2,     // the caller's context is already creating it (a re-entry)
    FROST_BEGIN_CYCLE = 3,   // waiting would close a circle of contexts waiting for each other
    FROST_BEGIN_ASYNC = 4,   // an async resolve creates it: a synchronous wait could starve it
    FROST_BEGIN_WAIT = 5,    // (frost_cell_begin_async) another context creates it: suspend
} frost_begin;

/// Starts reading or creating the instance of `cell` for `context`: returns the instance when
/// there is one, makes `context` its creator when there is none and nobody creates it, and
/// otherwise waits (blocking the thread; only for this cell) until the creator ends. An
/// instance equal to `stale` (a dead weak reference's box, say) counts as none.
frost_begin frost_cell_begin(frost_cell *_Nonnull cell, frost_context *_Nonnull context,
                             void *_Nullable stale, void *_Nullable *_Nonnull instance);

/// frost_cell_begin for an async resolve's context, which must never block its thread: where
/// frost_cell_begin would wait, it records the wait (for the circle check) and returns
/// FROST_BEGIN_WAIT. The caller then suspends until frost_set_async_wakeup's function is
/// called after its frost_async_epoch() read, calls frost_context_stop_waiting, and begins
/// again.
frost_begin frost_cell_begin_async(frost_cell *_Nonnull cell, frost_context *_Nonnull context,
                                   void *_Nullable *_Nonnull instance);

/// Ends the wait frost_cell_begin_async recorded for `context`.
void frost_context_stop_waiting(frost_context *_Nonnull context);

/// Sets the function called (with no lock held), with the cell, after any creation that
/// someone waits for ends. Set once.
void frost_set_async_wakeup(void (*_Nonnull wakeup)(void *_Nonnull cell));

/// Ends `context`'s creation of `cell`: publishes `instance` (+1, given to the cell) or, with
/// NULL, publishes nothing (the creation failed: the next begin creates again), then wakes
/// the waiters. Returns the instance it replaced (+1 to the caller: the `stale` one), or NULL.
void *_Nullable frost_cell_end(frost_cell *_Nonnull cell, frost_context *_Nonnull context,
                               void *_Nullable instance);

// MARK: - Reclamation

/// Decides which of `count` instances, each taken out of the cell at the same index of
/// `cells`, no thread may still be reading: after a process-wide memory barrier, each cell is
/// compared with every context's hazard. The pairs still protected are moved to the front;
/// returns their number. The rest may be released now; keep the protected ones and try again
/// later. The calling thread reads nothing meanwhile: its own hazard is cleared first.
uint32_t frost_reclaim_partition(void *_Nullable *_Nonnull instances,
                                 void *_Nullable *_Nonnull cells, uint32_t count);

/// Clears every thread's hazard that names a cell in the `length` bytes at `cells`, which are
/// about to be freed: no thread can be reading them (their owner is going away), so such a
/// hazard is stale. Left in place, it would protect whatever a later cell at the same address
/// holds, until that thread reads again (never wrong, but a release that frees nothing).
/// Called when a table's slots are freed (a frozen container's own cells): it walks every
/// context, so it is not called for the single cells freed on hot paths (a `Lazy`'s, a
/// request child's), where a stale hazard only delays a release.
void frost_forget_hazards(const void *_Nonnull cells, size_t length);

// MARK: - The table

/// Returned by lookups for a key that is not in the table.
#define FROST_NOT_FOUND UINT32_MAX

/// One slot of a table: 64 bytes, one cache line.
typedef struct frost_slot {
    frost_cell cell;                    // the cached instance and its creation
    uint64_t identity8;                 // the first 8 identity bytes: the hot-path compare
    uint32_t identity_length;           // 0 marks an empty slot (every identity has bytes)
    uint32_t flags;                     // the Swift facade's bits, set by frost_slot_install
    void *_Nullable context;            // the facade's registration (owned by the facade)
    const uint8_t *_Nullable identity;  // identity bytes, for verification
    const uint8_t *_Nullable name;      // canonical name bytes, for verification
    uint32_t name_length;
    uint32_t index;                     // the key's position in the input of frost_table_create
} frost_slot;

/// Drops one reference to a cached instance.
typedef void (*frost_release_fn)(void *_Nonnull instance);

/// One key given to frost_table_create: its identity and canonical name, as bytes. Either
/// every key of a table has a name or none has: the names then come later, from
/// frost_table_name_keys.
typedef struct frost_key {
    const uint8_t *_Nonnull identity;
    const uint8_t *_Nullable name;  // NULL (with name_length 0) when the names come later
    uint32_t identity_length;       // at least 1
    uint32_t name_length;           // at least 1, or 0 for every key of the table
} frost_key;

/// Bytes and their length.
typedef struct frost_bytes {
    const uint8_t *_Nullable bytes;
    uint32_t length;
} frost_bytes;

typedef enum frost_status {
    FROST_OK = 0,
    FROST_ERROR_EMPTY_KEY = 1,      // a key with a zero-length identity or name, or names for
                                    // some keys only
    FROST_ERROR_DUPLICATE = 2,      // two keys share an identity or a name
    FROST_ERROR_NO_FUNCTION = 3,    // every rung of the ladder failed (never seen in testing)
    FROST_ERROR_OUT_OF_MEMORY = 4,
    FROST_ERROR_TOO_MANY_KEYS = 5,  // more than FROST_MAX_KEYS
    FROST_ERROR_ALREADY_NAMED = 6,  // frost_table_name_keys on a table that has its names
} frost_status;

/// The largest key set a table accepts.
#define FROST_MAX_KEYS (1u << 26)

typedef struct frost_table frost_table;
typedef struct frost_build_options frost_build_options;

/// Builds a table over `count` distinct keys (0 is allowed: cmph is not called then).
/// Keys are copied; the caller's buffers may be freed afterwards. On FROST_ERROR_DUPLICATE,
/// *first_duplicate is set to the input position of a key that repeats an earlier one.
/// `options` is NULL except in tests.
frost_status frost_table_create(const frost_key *_Nullable keys, uint32_t count,
                                frost_release_fn _Nonnull release,
                                const frost_build_options *_Nullable options,
                                frost_table *_Nullable *_Nonnull out,
                                uint32_t *_Nullable first_duplicate);

/// Gives a table created without names its keys' names (`names[i]` is the name of input key
/// `i`; `count` is the table's count; `names` is NULL only when it is 0) and builds the name
/// function. Once per table. Any thread may call it, alongside any lookup: callers are
/// serialized by the table's lock, and frost_table_find_name finds nothing until the names
/// are published. Names are copied. Returns FROST_ERROR_ALREADY_NAMED once the table is
/// named; FROST_ERROR_EMPTY_KEY for an empty name or another count; on FROST_ERROR_DUPLICATE,
/// *first_duplicate is set to the input position of a name that repeats an earlier one, and
/// the table stays without names. FROST_ERROR_NO_FUNCTION (no function for these names) is
/// final: later calls return it at once.
frost_status frost_table_name_keys(frost_table *_Nonnull table,
                                   const frost_bytes *_Nullable names, uint32_t count,
                                   uint32_t *_Nullable first_duplicate);

/// 1 when the table has its keys' names (given to frost_table_create or to
/// frost_table_name_keys), 0 when it has none yet, -1 when naming failed for good
/// (FROST_ERROR_NO_FUNCTION).
int frost_table_is_named(const frost_table *_Nonnull table);

/// Releases every cached instance through the table's release function, then frees all memory
/// the table allocated. Call once; the table must no longer be used by any thread.
void frost_table_destroy(frost_table *_Nullable table);

/// The number of keys.
uint32_t frost_table_count(const frost_table *_Nonnull table);

/// The number of slots (the identity function's range: at least the number of keys).
uint32_t frost_table_capacity(const frost_table *_Nonnull table);

/// The slot array (frost_table_capacity entries; slots with identity_length 0 are empty).
/// NULL for a table of 0 keys.
frost_slot *_Nullable frost_table_slots(frost_table *_Nonnull table);

/// Sets a slot's registration and flags. Only before the table is shared.
void frost_slot_install(frost_table *_Nonnull table, uint32_t slot, void *_Nullable context,
                        uint32_t flags);

/// The slot index of a key given by its identity bytes, or FROST_NOT_FOUND.
uint32_t frost_table_find_identity(const frost_table *_Nonnull table,
                                   const void *_Nonnull bytes, uint32_t length);

/// The slot index of a named key given as its parts, or FROST_NOT_FOUND: the type's 8-byte
/// identity, the separator byte and the name's bytes (hashed where they lie into the key's
/// short form, or assembled into its identity bytes in a table without short forms); the
/// slot's whole identity is compared either way. On a miss, `*non_ascii` (when given) says whether the name has a byte of 0x80 or
/// above: the caller then tries the name's canonical form.
uint32_t frost_table_find_named(const frost_table *_Nonnull table, uint64_t identity,
                                uint8_t separator, const uint8_t *_Nullable name,
                                uint32_t length, int *_Nullable non_ascii);

/// A lookup's answer: the slot and the instance cached in it.
typedef struct frost_found {
    uint64_t slot;             // the slot index, with the slot's flags in the upper 32 bits;
                               // UINT64_MAX when the key is not in the table
    void *_Nullable instance;  // the slot's cached instance (a protected read), or NULL
} frost_found;

/// The slot of an 8-byte identity and its cached instance (a resolve by type): the hot path,
/// one call that returns both in registers. The instance is read as frost_cell_read reads it.
frost_found frost_table_lookup8(const frost_table *_Nonnull table, uint64_t identity);

/// A named key's slot and its cached instance (a resolve by type and name), the key given as
/// frost_table_find_named's parts.
frost_found frost_table_lookup_named(const frost_table *_Nonnull table, uint64_t identity,
                                     uint8_t separator, const uint8_t *_Nullable name,
                                     uint32_t length);

/// The longest name a named key's short form hashes by its small image (below).
#define FROST_SMALL_NAME 15

/// frost_table_lookup_named for a name of at most FROST_SMALL_NAME bytes given as its small
/// image: two 64-bit words, little-endian, holding the name's bytes zero-filled to 15, then a
/// byte of 0xE0 (the name is ASCII) or 0xA0 (it is not) plus the length. That is how a
/// 64-bit Swift stores a `String` of up to 15 UTF-8 bytes, so a caller passes a small string's
/// two words as they are: the name is neither copied nor hashed byte by byte. `high`'s top
/// byte must be such a byte: a name stored any other way goes to frost_table_lookup_named.
frost_found frost_table_lookup_small_name(const frost_table *_Nonnull table, uint64_t identity,
                                         uint8_t separator, uint64_t low, uint64_t high);

/// The slot index of an 8-byte identity, or FROST_NOT_FOUND (no instance is read).
uint32_t frost_table_find_identity8(const frost_table *_Nonnull table, uint64_t identity);

/// The slot index of a key given by its canonical name bytes, or FROST_NOT_FOUND (always, for
/// a table without names).
uint32_t frost_table_find_name(const frost_table *_Nonnull table, const void *_Nonnull bytes,
                               uint32_t length);

/// A process-wide unique, never-reused number (starting at 1): tells containers apart where an
/// address could be reused.
uint64_t frost_next_generation(void);

// MARK: - Test-only hooks
//
// What the tests and the fuzzer use to reach the table's edges. The facade never calls them.

/// The retry ladder. When cmph_new returns NULL for a key set (it does so permanently for some
/// sets: BDZ has only 15 seeds), the build moves to the next rung: another graph size, then
/// another algorithm; after the last rung it salts the keys (XORs their first 8 bytes with a
/// per-round constant, which keeps distinct keys distinct) and climbs the ladder again.
typedef enum frost_rung {
    FROST_RUNG_BDZ_PH = 0,      // BDZ_PH, cmph's default graph size (c = 1.23): the fastest
    FROST_RUNG_BDZ_PH_15 = 1,   // BDZ_PH, c = 1.5
    FROST_RUNG_BDZ_PH_20 = 2,   // BDZ_PH, c = 2.0
    FROST_RUNG_CHD_PH = 3,      // CHD_PH, default parameters
    FROST_RUNG_BDZ = 4,         // BDZ (minimal), default graph size
    FROST_RUNG_COUNT = 5,
} frost_rung;

/// How a table is built (tests force rungs and salts). Zero-initialized options are the
/// defaults.
struct frost_build_options {
    uint32_t first_rung;    // start the ladder at this rung
    uint32_t first_salt;    // start with this salt round (0: unsalted keys)
    uint32_t max_rounds;    // salt rounds to try before giving up; 0 means 64
    uint32_t full_keys;     // 1: build over whole identities, never their short forms (the
                            // table's way when two short forms collide)
};

/// How lookups evaluate a function.
typedef enum frost_evaluator {
    FROST_EVALUATOR_CMPH = 0,    // cmph_search
    FROST_EVALUATOR_INLINE = 1,  // cmph's BDZ_PH function, evaluated inline
} frost_evaluator;

/// How one of the two functions of a table was built.
typedef struct frost_function_info {
    uint32_t rung;       // a frost_rung
    uint32_t salt;       // the salt round: 0 for unsalted keys
    uint32_t attempts;   // cmph_new calls made, including the successful one
    uint32_t range;      // the function's range over the key set (>= the key count)
    uint32_t evaluator;  // a frost_evaluator: inline only after agreeing with cmph on every key
} frost_function_info;

/// How the identity function (0) or the name function (1) was built (all zero for the name
/// function of a table without names).
frost_function_info frost_table_function_info(const frost_table *_Nonnull table,
                                              uint32_t which);

/// The raw value of the identity (0) or name (1) function for any key, salt applied, through
/// cmph_search (`through_cmph` != 0) or the evaluator lookups use: tests check that the two
/// agree. FROST_NOT_FOUND for an empty table, a function not built (the name function of a
/// table without names) or a key longer than 256 bytes.
uint32_t frost_table_function_value(const frost_table *_Nonnull table, uint32_t which,
                                    const void *_Nonnull bytes, uint32_t length,
                                    int through_cmph);

/// 1 when the table's identity function is built over its keys' short forms (a named key:
/// its type's 8 bytes XOR a hash of its separator and name), 0 when over whole identities.
int frost_table_has_short_keys(const frost_table *_Nonnull table);

/// The short form of identity bytes of at least 8 bytes (tests make keys whose forms collide).
uint64_t frost_short_form(const void *_Nonnull identity, uint32_t length);

/// The number of tables created and not yet destroyed, process-wide (leak tests).
uint64_t frost_live_tables(void);

/// The number of contexts ever made, process-wide (a pool that does not grow per thread).
uint32_t frost_context_count(void);

#ifdef __cplusplus
}
#endif

#endif  // CFROST_H
