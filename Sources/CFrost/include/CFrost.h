// CFrost: the C core of Frost. This header is the whole C contract.
//
// A frost_table is an immutable set of slots built once from a set of distinct keys. Each key
// has two byte forms:
//   - its identity (what a resolve by type hashes: the 8 bytes of the type's identity, plus the
//     name's bytes for a named registration), and
//   - its canonical name (the qualified type name, plus "#name"), for lookups by name and for
//     messages.
// Two cmph perfect-hash functions, one per form, map a key to its slot. A lookup is one call:
// hash, bounds check, key compare, slot. A key that is not in the set never gets a slot.
//
// Memory: frost_table_create allocates everything the table uses (the slot array, one arena
// with every key's bytes, the packed hash functions, the name-to-slot map) and
// frost_table_destroy frees all of it. Cached instances are references owned by the table: the
// release function given at creation drops each one, once, when it is replaced or the table is
// destroyed.
//
// Threads: lookups and frost_slot_load_instance are read-only and lock-free. A cached instance
// is published with a release store and read with an acquire load. frost_table_create_once
// serializes creation behind one recursive mutex per table, so a slot's factory runs once even
// when many threads ask at the same moment, and a factory may create other cached instances.

#ifndef CFROST_H
#define CFROST_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returned by lookups for a key that is not in the table.
#define FROST_NOT_FOUND UINT32_MAX

/// Flag bits of a slot, set by the Swift facade after creation.
enum {
    FROST_SLOT_CACHED = 1u << 0,  // the slot keeps the instance its factory creates
};

/// Creates the instance of a slot. Returns a +1 reference, or NULL after writing an owned
/// error reference to *error. `context` is the slot's context; `resolution` is passed through.
typedef void *_Nullable (*frost_factory_fn)(void *_Nullable context, void *_Nullable resolution,
                                            void *_Nullable *_Nonnull error);

/// Drops one reference to a cached instance.
typedef void (*frost_release_fn)(void *_Nonnull instance);

typedef struct frost_slot {
    _Atomic(void *) instance;            // the cached instance, or NULL; owned by the table
    uint64_t identity8;                  // the first 8 identity bytes: the hot-path compare
    uint32_t identity_length;            // 0 marks an empty slot (every identity has bytes)
    uint32_t flags;                      // FROST_SLOT_*
    frost_factory_fn _Nullable factory;  // creates the instance; NULL for an empty slot
    void *_Nullable context;             // the factory's context (owned by the caller)
    const uint8_t *_Nullable identity;   // identity bytes, for verification
    const uint8_t *_Nullable name;       // canonical name bytes, for verification and messages
    uint32_t name_length;
    uint32_t index;                      // the key's position in the input of frost_table_create
} frost_slot;

/// One key given to frost_table_create: its identity and canonical name, as bytes.
typedef struct frost_key {
    const uint8_t *_Nonnull identity;
    const uint8_t *_Nonnull name;
    uint32_t identity_length;  // at least 1
    uint32_t name_length;      // at least 1
} frost_key;

typedef enum frost_status {
    FROST_OK = 0,
    FROST_ERROR_EMPTY_KEY = 1,      // a key with a zero-length identity or name
    FROST_ERROR_DUPLICATE = 2,      // two keys share an identity or a name
    FROST_ERROR_NO_FUNCTION = 3,    // every rung of the ladder failed (never seen in testing)
    FROST_ERROR_OUT_OF_MEMORY = 4,
    FROST_ERROR_TOO_MANY_KEYS = 5,  // more than FROST_MAX_KEYS
} frost_status;

/// The largest key set a table accepts.
#define FROST_MAX_KEYS (1u << 26)

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

/// How a table is built. Zero-initialized options are the defaults.
typedef struct frost_build_options {
    uint32_t first_rung;    // start the ladder at this rung (tests force each rung)
    uint32_t first_salt;    // start with this salt round (0: unsalted keys)
    uint32_t max_rounds;    // salt rounds to try before giving up; 0 means 64
} frost_build_options;

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

typedef struct frost_table frost_table;

/// Builds a table over `count` distinct keys (0 is allowed: cmph is not called then).
/// Keys are copied; the caller's buffers may be freed afterwards. On FROST_ERROR_DUPLICATE,
/// *first_duplicate is set to the input position of a key that repeats an earlier one.
frost_status frost_table_create(const frost_key *_Nullable keys, uint32_t count,
                                frost_release_fn _Nonnull release,
                                const frost_build_options *_Nullable options,
                                frost_table *_Nullable *_Nonnull out,
                                uint32_t *_Nullable first_duplicate);

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

/// The slot index of a key given by its identity bytes, or FROST_NOT_FOUND.
uint32_t frost_table_find_identity(const frost_table *_Nonnull table,
                                   const void *_Nonnull bytes, uint32_t length);

/// The slot index of an 8-byte identity, or FROST_NOT_FOUND.
uint32_t frost_table_find_identity8(const frost_table *_Nonnull table, uint64_t identity);

/// A lookup's answer: the slot and the instance cached in it.
typedef struct frost_found {
    uint64_t slot;               // the slot index, or UINT64_MAX when the key is not in the table
    void *_Nullable instance;    // the slot's cached instance (an acquire load), or NULL
} frost_found;

/// The slot of an 8-byte identity and its cached instance (a resolve by type): the hot path,
/// one call that returns both in registers.
frost_found frost_table_lookup8(const frost_table *_Nonnull table, uint64_t identity);

/// The slot index of a key given by its canonical name bytes, or FROST_NOT_FOUND.
uint32_t frost_table_find_name(const frost_table *_Nonnull table, const void *_Nonnull bytes,
                               uint32_t length);

/// How the identity function (0) or the name function (1) was built.
frost_function_info frost_table_function_info(const frost_table *_Nonnull table,
                                              uint32_t which);

/// The raw value of the identity (0) or name (1) function for any key, salt applied, through
/// cmph_search (`through_cmph` != 0) or the evaluator lookups use: for tests that check the
/// two agree. FROST_NOT_FOUND for an empty table or a key longer than 256 bytes.
uint32_t frost_table_function_value(const frost_table *_Nonnull table, uint32_t which,
                                    const void *_Nonnull bytes, uint32_t length,
                                    int through_cmph);

/// The instance cached in a slot, or NULL. An acquire load: lock-free.
static inline void *_Nullable frost_slot_load_instance(frost_slot *_Nonnull slot) {
    return atomic_load_explicit(&slot->instance, memory_order_acquire);
}

/// Stores a +1 instance into an empty slot before the table is shared with other threads
/// (registered instances). Returns 0 when the slot already holds one (nothing is stored).
int frost_slot_preset_instance(frost_table *_Nonnull table, uint32_t slot,
                               void *_Nonnull instance);

/// Sets a slot's factory, context and flags. Only before the table is shared.
void frost_slot_set_factory(frost_table *_Nonnull table, uint32_t slot,
                            frost_factory_fn _Nonnull factory, void *_Nullable context,
                            uint32_t flags);

/// Returns the instance cached in `slot`, creating it first if needed: under the table's
/// creation lock, the slot is checked again and, if still empty, its factory runs once and the
/// instance is published (release store). Returns a +0 reference valid while the table lives,
/// or NULL with the factory's owned error reference in *error.
void *_Nullable frost_table_create_once(frost_table *_Nonnull table, uint32_t slot,
                                        void *_Nullable resolution,
                                        void *_Nullable *_Nonnull error);

/// Takes the cached instance out of a slot (the slot is empty afterwards) and returns it, +1,
/// to the caller, or NULL. Used to release cached instances while the table lives: the caller
/// must keep the instance alive until no reader can still hold the pointer it loaded.
void *_Nullable frost_slot_take_instance(frost_table *_Nonnull table, uint32_t slot);

/// Locks the table's recursive creation lock: what frost_table_create_once holds while a
/// factory runs. Other create-once protocols (weak instances) use it so that all creation in a
/// table is serialized behind one lock (no lock-order deadlock is possible).
void frost_table_lock(frost_table *_Nonnull table);

/// Unlocks what frost_table_lock locked.
void frost_table_unlock(frost_table *_Nonnull table);

/// The number of tables created and not yet destroyed, process-wide (for leak tests).
uint64_t frost_live_tables(void);

/// A process-wide unique, never-reused number (starting at 1): tells containers apart where an
/// address could be reused.
uint64_t frost_next_generation(void);

#ifdef __cplusplus
}
#endif

#endif  // CFROST_H
