// CFrost: the perfect-hash slot table. See include/CFrost.h for the contract.
//
// cmph_search returns some number for a key outside the set, possibly out of range: every
// lookup checks the bound and compares the stored key before it trusts a slot.
//
// Memory: each allocation has one owner and one free.
// - The frost_table, its `slots` and its `arena` (every key's identity bytes): allocated by
//   frost_table_create, freed by table_free (from frost_table_destroy, or from a create that
//   fails).
// - `name_to_slot` and `name_arena` (every key's name bytes): allocated by name_keys, which
//   frees them when naming fails and otherwise hands them to the table (table_free).
// - The `identity` and `name` functions: built by ladder.c, which owns what they hold; this
//   file releases them only through frost_function_free (table_free, or name_keys's function
//   when naming fails).
// - Scratch (the identity views and values, the short forms, the names array, a long named
//   key's bytes): freed by the function that allocates it, before it returns.
// - A cell's instance is the facade's (a +1 reference), dropped through `release` by
//   frost_table_destroy.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bdz_ph.h"

// A slot is one cache line: the hot-path compare, the cached instance and the registration
// are read together.
_Static_assert(sizeof(frost_slot) == 64, "a frost_slot is one 64-byte cache line");
_Static_assert(offsetof(frost_slot, cell) == 0, "the cell opens the slot");
_Static_assert(sizeof(frost_cell) == 16, "a frost_cell is two words");

struct frost_table {
    uint32_t count;
    uint32_t capacity;        // slots: the identity function's range
    frost_slot *slots;
    uint32_t *name_to_slot;   // indexed by the name function's value; NULL until named
    uint8_t *arena;           // every key's identity bytes
    uint8_t *name_arena;      // every key's name bytes, once named
    frost_function identity;  // identity bytes (their short form, with short_keys) -> slot index
    frost_function name;      // name bytes -> name_to_slot index
    frost_release_fn release;
    frost_build_options options;  // how the identity function was asked for; names build alike
    pthread_mutex_t naming;       // serializes frost_table_name_keys
    int short_keys;               // 1: the identity function is built over every key's short
                                  // form (short_key), so a named lookup hashes 8 bytes
    _Atomic(int) named;           // NAMED (stored with release) once the name function and the
                                  // slots' name fields are in place; NAMING_FAILED for good
};

enum { NOT_NAMED = 0, NAMED = 1, NAMING_FAILED = -1 };

static _Atomic(uint64_t) live_tables = 0;

// MARK: - Short keys
//
// A named key's identity is a type's 8 bytes, a separator and the name. Hashing all of them
// on every lookup costs two to three rounds of Jenkins' mix and a copy into a buffer; its
// short form costs one: the type's 8 bytes XOR a 64-bit hash of the separator and the name
// (wyhash's structure, reading the name where it lies). An 8-byte identity is its own short
// form, so a lookup by type is unchanged. Short forms are only an index: every lookup still
// compares the slot's whole identity, and a key set whose short forms collide (or that has a
// key shorter than 8 bytes) is built over the whole identities instead.

static inline uint64_t short_multiply_mix(uint64_t a, uint64_t b) {
    __uint128_t product = (__uint128_t)a * b;
    return (uint64_t)product ^ (uint64_t)(product >> 64);
}

static inline uint64_t short_read64(const uint8_t *bytes) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
}

static inline uint64_t short_read32(const uint8_t *bytes) {
    uint32_t word;
    memcpy(&word, bytes, 4);
    return word;
}

/// The constants of the short forms' mix (wyhash's).
static const uint64_t p0 = 0xa0761d6478bd642full, p1 = 0xe7037ed1a0b428dbull,
                      p2 = 0x8ebc6af09c88c6e3ull;

/// The 64-bit hash of a named key's tail when its name is a small image (see
/// frost_table_lookup_small_name): two words, one round of the mix.
static inline uint64_t short_image_hash(uint8_t separator, uint64_t low, uint64_t high) {
    return short_multiply_mix(low ^ p1, high ^ p0 ^ separator) ^ p2;
}

/// The small image of a name of at most FROST_SMALL_NAME bytes, as a 64-bit Swift stores a
/// `String` that short (little-endian): its bytes, zero-filled, in 15 bytes, then a byte that
/// holds 0xE0 or 0xA0 (ASCII or not) plus the length.
static inline void small_image(const uint8_t *name, uint32_t length, uint64_t *low,
                               uint64_t *high) {
    uint8_t bytes[16] = {0};
    if (length > 0) memcpy(bytes, name, length);
    uint64_t first = short_read64(bytes), second = short_read64(bytes + 8);
    uint64_t ascii = ((first | second) & 0x8080808080808080ull) == 0;
    *low = first;
    *high = second | ((ascii ? 0xE0ull : 0xA0ull) | length) << 56;
}

/// The 64-bit hash of a named key's tail: its separator byte and its name (a short name by
/// its small image, so that a caller holding the image hashes the same).
static inline uint64_t short_tail_hash(uint8_t separator, const uint8_t *name, uint32_t length) {
    if (length <= FROST_SMALL_NAME) {
        uint64_t low, high;
        small_image(name, length, &low, &high);
        return short_image_hash(separator, low, high);
    }
    uint64_t seed = p0 ^ ((uint64_t)separator << 32 | length);
    uint64_t a = 0, b = 0;
    if (length <= 16) {
        if (length >= 4) {
            uint32_t middle = (length >> 3) << 2;
            a = short_read32(name) << 32 | short_read32(name + middle);
            b = short_read32(name + length - 4) << 32 | short_read32(name + length - 4 - middle);
        } else if (length > 0) {
            a = (uint64_t)name[0] << 16 | (uint64_t)name[length >> 1] << 8 | name[length - 1];
        }
    } else {
        const uint8_t *at = name;
        uint32_t left = length;
        while (left > 16) {
            seed = short_multiply_mix(short_read64(at) ^ p1, short_read64(at + 8) ^ seed);
            at += 16;
            left -= 16;
        }
        a = short_read64(at + left - 16);
        b = short_read64(at + left - 8);
    }
    return short_multiply_mix(p1 ^ length, short_multiply_mix(a ^ p1, b ^ seed) ^ p2);
}

/// The short form of identity bytes of at least 8 bytes.
static inline uint64_t short_key(const uint8_t *identity, uint32_t length) {
    uint64_t first = short_read64(identity);
    if (length == 8) return first;
    return first ^ short_tail_hash(identity[8], identity + 9, length - 9);
}

/// The slot of a short form, verified against the whole identity (`first` its 8 bytes, then
/// `separator` and `name` when `named`), or FROST_NOT_FOUND. Only for a table with short keys.
static inline uint32_t find_short(const frost_table *table, uint64_t short_form, uint64_t first,
                                  int named, uint8_t separator, const uint8_t *name,
                                  uint32_t length) {
    uint32_t index;
    if (table->identity.info.evaluator == FROST_EVALUATOR_CMPH) {
        uint64_t salted = short_form ^ table->identity.salt;
        index = frost_function_cmph_search(&table->identity, &salted, 8);
    } else {
        index = frost_inline_search8(&table->identity.bdz, short_form ^ table->identity.salt);
    }
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity8 != first) return FROST_NOT_FOUND;
    if (!named) return slot->identity_length == 8 ? index : FROST_NOT_FOUND;
    if (slot->identity_length != 9 + length || slot->identity[8] != separator ||
        (length > 0 && memcmp(slot->identity + 9, name, length) != 0)) {
        return FROST_NOT_FOUND;
    }
    return index;
}

/// Whether `length` bytes at `a` and `b` are equal: whole-word loads up to 16 bytes (two
/// overlapping loads from each end), memcmp beyond.
__attribute__((always_inline)) static inline int same_bytes(const uint8_t *a, const uint8_t *b,
                                                            uint32_t length) {
    if (length >= 8) {
        if (length > 16) return memcmp(a, b, length) == 0;
        return (short_read64(a) ^ short_read64(b) |
                short_read64(a + length - 8) ^ short_read64(b + length - 8)) == 0;
    }
    if (length >= 4) {
        return (short_read32(a) ^ short_read32(b) |
                short_read32(a + length - 4) ^ short_read32(b + length - 4)) == 0;
    }
    for (uint32_t i = 0; i < length; i++) {
        if (a[i] != b[i]) return 0;
    }
    return 1;
}

/// The short form's search through cmph_search, out of line (as slot8_cmph).
__attribute__((noinline)) static uint32_t short_cmph(const frost_table *table,
                                                     uint64_t short_form) {
    uint64_t salted = short_form ^ table->identity.salt;
    return frost_function_cmph_search(&table->identity, &salted, 8);
}

/// A named key's slot in a table with short keys, verified, or FROST_NOT_FOUND: inline, for
/// frost_table_lookup_named.
__attribute__((always_inline)) static inline uint32_t slot_named(const frost_table *table,
                                                                 uint64_t identity,
                                                                 uint8_t separator,
                                                                 const uint8_t *name,
                                                                 uint32_t length) {
    uint64_t short_form = identity ^ short_tail_hash(separator, name, length);
    uint32_t index = table->identity.info.evaluator == FROST_EVALUATOR_CMPH
        ? short_cmph(table, short_form)
        : frost_inline_search8(&table->identity.bdz, short_form ^ table->identity.salt);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity8 != identity || slot->identity_length != 9 + length ||
        slot->identity[8] != separator || !same_bytes(slot->identity + 9, name, length)) {
        return FROST_NOT_FOUND;
    }
    return index;
}

static const frost_found not_found = {UINT64_MAX, NULL};

uint64_t frost_live_tables(void) { return atomic_load_explicit(&live_tables, memory_order_relaxed); }

/// The one free of a table and of everything it owns (a table partly built frees alike: what
/// it does not hold yet is NULL). `has_lock` is 0 only when its naming lock could not be
/// initialized.
static void table_free(frost_table *table, int has_lock) {
    frost_function_free(&table->identity);
    frost_function_free(&table->name);
    free(table->name_to_slot);
    if (table->slots != NULL) {
        frost_forget_hazards(table->slots, sizeof *table->slots * table->capacity);
    }
    free(table->slots);
    free(table->arena);
    free(table->name_arena);
    if (has_lock) pthread_mutex_destroy(&table->naming);
    free(table);
}

static frost_status name_keys(frost_table *table, const frost_bytes *names, uint32_t count,
                              uint32_t *first_duplicate);

frost_status frost_table_create(const frost_key *keys, uint32_t count, frost_release_fn release,
                                const frost_build_options *options, frost_table **out,
                                uint32_t *first_duplicate) {
    *out = NULL;
    if (first_duplicate) *first_duplicate = FROST_NOT_FOUND;
    if (count > FROST_MAX_KEYS) return FROST_ERROR_TOO_MANY_KEYS;
    frost_build_options defaults = {0};
    if (options == NULL) options = &defaults;

    // Every key has a name, or none has (the names come later, from frost_table_name_keys).
    int named = count > 0 && keys[0].name_length > 0;
    size_t arena_size = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (keys[i].identity_length == 0 || (keys[i].name_length > 0) != named) {
            return FROST_ERROR_EMPTY_KEY;
        }
        arena_size += keys[i].identity_length;
    }

    frost_table *table = calloc(1, sizeof *table);
    if (table == NULL) return FROST_ERROR_OUT_OF_MEMORY;
    table->count = count;
    table->release = release;
    table->options = *options;
    if (pthread_mutex_init(&table->naming, NULL) != 0) {
        table_free(table, 0);
        return FROST_ERROR_OUT_OF_MEMORY;
    }

    frost_status status = FROST_OK;
    key_view *identities = NULL;
    uint32_t *identity_values = NULL;
    uint64_t *short_forms = NULL;  // the keys' short forms (scratch)
    key_view *short_views = NULL;
    frost_bytes *names = NULL;

    if (count > 0) {
        table->arena = malloc(arena_size);
        identities = malloc(sizeof *identities * count);
        identity_values = malloc(sizeof *identity_values * count);
        if (!table->arena || !identities || !identity_values) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        size_t offset = 0;
        for (uint32_t i = 0; i < count; i++) {
            memcpy(table->arena + offset, keys[i].identity, keys[i].identity_length);
            identities[i] = (key_view){table->arena + offset, keys[i].identity_length};
            offset += keys[i].identity_length;
        }
        // Duplicates never reach cmph.
        uint32_t duplicate = frost_find_duplicate(identities, count);
        if (duplicate == FROST_NOT_FOUND - 1) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        if (duplicate != FROST_NOT_FOUND) {
            if (first_duplicate) *first_duplicate = duplicate;
            status = FROST_ERROR_DUPLICATE;
            goto done;
        }
    }

    // The function is built over the keys' short forms when they are distinct (they are,
    // unless 64-bit hashes collide) and every key has them (8 bytes or more).
    if (count > 0 && !options->full_keys) {
        int shortable = 1, all_short = 1;
        for (uint32_t i = 0; i < count && shortable; i++) {
            shortable = identities[i].length >= 8;
            all_short &= identities[i].length == 8;
        }
        // Keys of 8 bytes are their own short forms, distinct already.
        if (shortable && all_short) table->short_keys = 1;
        if (shortable && !all_short) {
            short_forms = malloc(sizeof *short_forms * count);
            short_views = malloc(sizeof *short_views * count);
            if (!short_forms || !short_views) {
                status = FROST_ERROR_OUT_OF_MEMORY;
                goto done;
            }
            for (uint32_t i = 0; i < count; i++) {
                short_forms[i] = short_key(identities[i].bytes, identities[i].length);
                short_views[i] = (key_view){(const uint8_t *)&short_forms[i], 8};
            }
            uint32_t duplicate = frost_find_duplicate(short_views, count);
            if (duplicate == FROST_NOT_FOUND - 1) {
                status = FROST_ERROR_OUT_OF_MEMORY;
                goto done;
            }
            table->short_keys = duplicate == FROST_NOT_FOUND;
        }
    }
    const key_view *hashed = short_views != NULL && table->short_keys ? short_views : identities;
    status = frost_build_function(hashed, count, options, &table->identity, identity_values);
    if (status != FROST_OK) goto done;

    table->capacity = table->identity.info.range;
    if (table->capacity > 0) {
        table->slots = calloc(table->capacity, sizeof *table->slots);
        if (!table->slots) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        for (uint32_t i = 0; i < count; i++) {
            frost_slot *slot = &table->slots[identity_values[i]];
            slot->index = i;
            slot->identity = identities[i].bytes;
            slot->identity_length = identities[i].length;
            if (identities[i].length >= 8) memcpy(&slot->identity8, identities[i].bytes, 8);
        }
    }

    if (named) {
        names = malloc(sizeof *names * count);
        if (!names) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        for (uint32_t i = 0; i < count; i++) {
            names[i] = (frost_bytes){keys[i].name, keys[i].name_length};
        }
        status = frost_table_name_keys(table, names, count, first_duplicate);
    }

done:
    free(identities);
    free(identity_values);
    free(short_forms);
    free(short_views);
    free(names);
    if (status != FROST_OK) {
        table_free(table, 1);
        return status;
    }
    atomic_fetch_add_explicit(&live_tables, 1, memory_order_relaxed);
    *out = table;
    return FROST_OK;
}

frost_status frost_table_name_keys(frost_table *table, const frost_bytes *names, uint32_t count,
                                   uint32_t *first_duplicate) {
    if (first_duplicate) *first_duplicate = FROST_NOT_FOUND;
    if (count != table->count || (count > 0 && names == NULL)) return FROST_ERROR_EMPTY_KEY;
    for (uint32_t i = 0; i < count; i++) {
        if (names[i].length == 0) return FROST_ERROR_EMPTY_KEY;
    }
    pthread_mutex_lock(&table->naming);
    frost_status status;
    switch (atomic_load_explicit(&table->named, memory_order_relaxed)) {
    case NAMED:
        status = FROST_ERROR_ALREADY_NAMED;
        break;
    case NAMING_FAILED:
        status = FROST_ERROR_NO_FUNCTION;
        break;
    default:
        status = name_keys(table, names, count, first_duplicate);
        // No function for these names: they would fail again (a duplicate is the caller's
        // input, and memory may come back).
        if (status == FROST_ERROR_NO_FUNCTION) {
            atomic_store_explicit(&table->named, NAMING_FAILED, memory_order_relaxed);
        }
    }
    pthread_mutex_unlock(&table->naming);
    return status;
}

int frost_table_is_named(const frost_table *table) {
    return atomic_load_explicit(&table->named, memory_order_acquire);
}

/// frost_table_name_keys's work, under the table's naming lock, for valid names.
static frost_status name_keys(frost_table *table, const frost_bytes *names, uint32_t count,
                              uint32_t *first_duplicate) {
    if (count == 0) {
        atomic_store_explicit(&table->named, NAMED, memory_order_release);
        return FROST_OK;
    }
    size_t arena_size = 0;
    for (uint32_t i = 0; i < count; i++) arena_size += names[i].length;

    frost_status status = FROST_OK;
    uint8_t *arena = malloc(arena_size);
    key_view *views = malloc(sizeof *views * count);
    uint32_t *values = malloc(sizeof *values * count);
    uint32_t *name_to_slot = NULL;
    frost_function function = {0};
    if (!arena || !views || !values) {
        status = FROST_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    size_t offset = 0;
    for (uint32_t i = 0; i < count; i++) {
        memcpy(arena + offset, names[i].bytes, names[i].length);
        views[i] = (key_view){arena + offset, names[i].length};
        offset += names[i].length;
    }
    uint32_t duplicate = frost_find_duplicate(views, count);
    if (duplicate == FROST_NOT_FOUND - 1) {
        status = FROST_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    if (duplicate != FROST_NOT_FOUND) {
        if (first_duplicate) *first_duplicate = duplicate;
        status = FROST_ERROR_DUPLICATE;
        goto done;
    }
    status = frost_build_function(views, count, &table->options, &function, values);
    if (status != FROST_OK) goto done;
    name_to_slot = malloc(sizeof *name_to_slot * function.info.range);
    if (!name_to_slot) {
        status = FROST_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    for (uint32_t i = 0; i < function.info.range; i++) name_to_slot[i] = FROST_NOT_FOUND;
    // Each slot knows its key's input position: that key's name goes with the slot.
    for (uint32_t slot = 0; slot < table->capacity; slot++) {
        frost_slot *entry = &table->slots[slot];
        if (entry->identity_length == 0) continue;
        entry->name = views[entry->index].bytes;
        entry->name_length = views[entry->index].length;
        name_to_slot[values[entry->index]] = slot;
    }
    // The table owns these from here on (table_free frees them).
    table->name = function;
    table->name_to_slot = name_to_slot;
    table->name_arena = arena;
    function = (frost_function){0};
    name_to_slot = NULL;
    arena = NULL;
    // Publishes the fields above to frost_table_find_name, which reads `named` first.
    atomic_store_explicit(&table->named, NAMED, memory_order_release);

done:
    // What the table did not take, and the scratch arrays.
    frost_function_free(&function);
    free(name_to_slot);
    free(arena);
    free(views);
    free(values);
    return status;
}

void frost_table_destroy(frost_table *table) {
    if (table == NULL) return;
    atomic_fetch_sub_explicit(&live_tables, 1, memory_order_relaxed);
    for (uint32_t i = 0; i < table->capacity; i++) {
        void *instance = frost_cell_take(&table->slots[i].cell);
        if (instance != NULL) table->release(instance);
    }
    table_free(table, 1);
}

uint32_t frost_table_count(const frost_table *table) { return table->count; }

uint32_t frost_table_capacity(const frost_table *table) { return table->capacity; }

frost_slot *frost_table_slots(frost_table *table) { return table->slots; }

void frost_slot_install(frost_table *table, uint32_t slot, void *context, uint32_t flags) {
    table->slots[slot].context = context;
    table->slots[slot].flags = flags;
}

frost_function_info frost_table_function_info(const frost_table *table, uint32_t which) {
    if (which != 0 && frost_table_is_named(table) != NAMED) return (frost_function_info){0};
    return which == 0 ? table->identity.info : table->name.info;
}

// MARK: - Lookups

uint32_t frost_table_find_identity(const frost_table *table, const void *bytes,
                                   uint32_t length) {
    if (table->count == 0 || length == 0) return FROST_NOT_FOUND;
    if (table->short_keys) {
        if (length < 8) return FROST_NOT_FOUND;
        const uint8_t *identity = bytes;
        return find_short(table, short_key(identity, length), short_read64(identity),
                          length > 8, length > 8 ? identity[8] : 0, identity + 9,
                          length > 8 ? length - 9 : 0);
    }
    uint32_t index = frost_function_search(&table->identity, bytes, length);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity_length != length || memcmp(slot->identity, bytes, length) != 0) {
        return FROST_NOT_FOUND;
    }
    return index;
}

/// frost_table_find_named for a key of at most 32 bytes (a name of up to 23, nearly every
/// one): the key is assembled in a zero-filled buffer on the stack, salted in place, hashed by
/// whole words (frost_jenkins_padded) and verified against the slot's key, with no copy for
/// the salt and no call into the general search.
static uint32_t find_short_named(const frost_table *table, uint64_t identity, uint8_t separator,
                                 const uint8_t *name, uint32_t length) {
    uint8_t bytes[40] = {0};
    uint32_t total = 9 + length;
    uint64_t salted = identity ^ table->identity.salt;
    memcpy(bytes, &salted, 8);
    bytes[8] = separator;
    if (length > 0) memcpy(bytes + 9, name, length);
    uint32_t hashes[3];
    frost_jenkins_padded(table->identity.bdz.seed, bytes, total, hashes);
    uint32_t index = frost_bdz_ph_vertex(&table->identity.bdz, hashes);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    memcpy(bytes, &identity, 8);
    if (slot->identity_length != total || memcmp(slot->identity, bytes, total) != 0) {
        return FROST_NOT_FOUND;
    }
    return index;
}

uint32_t frost_table_find_named(const frost_table *table, uint64_t identity, uint8_t separator,
                                const uint8_t *name, uint32_t length, int *non_ascii) {
    if (non_ascii) *non_ascii = 0;
    if (table->count == 0 || length > UINT32_MAX - 9) return FROST_NOT_FOUND;
    if (table->short_keys) {
        uint32_t index = slot_named(table, identity, separator, name, length);
        if (index == FROST_NOT_FOUND && non_ascii) {
            uint8_t seen = 0;
            for (uint32_t i = 0; i < length; i++) seen |= name[i];
            *non_ascii = seen >= 0x80;
        }
        return index;
    }
    uint32_t total = 9 + length;
    if (total <= 32 && table->identity.info.evaluator != FROST_EVALUATOR_CMPH) {
        uint32_t index = find_short_named(table, identity, separator, name, length);
        if (index == FROST_NOT_FOUND && non_ascii) {
            uint8_t seen = 0;
            for (uint32_t i = 0; i < length; i++) seen |= name[i];
            *non_ascii = seen >= 0x80;
        }
        return index;
    }
    uint8_t local[256];
    uint8_t *bytes = total <= sizeof local ? local : malloc(total);
    if (bytes == NULL) return FROST_NOT_FOUND;
    memcpy(bytes, &identity, 8);
    bytes[8] = separator;
    if (length > 0) memcpy(bytes + 9, name, length);
    uint32_t index = frost_table_find_identity(table, bytes, total);
    if (bytes != local) free(bytes);
    if (index == FROST_NOT_FOUND && non_ascii) {
        uint8_t seen = 0;
        for (uint32_t i = 0; i < length; i++) seen |= name[i];
        *non_ascii = seen >= 0x80;
    }
    return index;
}


/// The slot of an 8-byte identity, verified, or FROST_NOT_FOUND: the identity function
/// evaluated inline (or, for a function the inline evaluator does not read, through
/// cmph_search, out of line: the inline path then saves one register instead of three and
/// keeps no stack slot for the salted key).
__attribute__((noinline)) static uint32_t slot8_cmph(const frost_table *table,
                                                     uint64_t identity) {
    // A table of 0 keys keeps FROST_EVALUATOR_CMPH (its mphf is NULL).
    if (table->count == 0) return FROST_NOT_FOUND;
    uint64_t salted = identity ^ table->identity.salt;
    return frost_function_cmph_search(&table->identity, &salted, 8);
}

__attribute__((always_inline)) static inline uint32_t slot8(const frost_table *table,
                                                           uint64_t identity) {
    uint32_t index = table->identity.info.evaluator == FROST_EVALUATOR_CMPH
        ? slot8_cmph(table, identity)
        : frost_inline_search8(&table->identity.bdz, identity ^ table->identity.salt);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity_length != 8 || slot->identity8 != identity) return FROST_NOT_FOUND;
    return index;
}

frost_found frost_table_lookup8(const frost_table *table, uint64_t identity) {
    uint32_t index = slot8(table, identity);
    if (index == FROST_NOT_FOUND) return not_found;
    frost_slot *slot = &table->slots[index];
    return (frost_found){(uint64_t)slot->flags << 32 | index, frost_cell_read(&slot->cell)};
}

frost_found frost_table_lookup_named(const frost_table *table, uint64_t identity,
                                     uint8_t separator, const uint8_t *name, uint32_t length) {
    if (length > UINT32_MAX - 9) return not_found;  // no key is that long (9 + length wraps)
    uint32_t index = __builtin_expect(table->short_keys, 1)
        ? slot_named(table, identity, separator, name, length)
        : frost_table_find_named(table, identity, separator, name, length, NULL);
    if (index == FROST_NOT_FOUND) return not_found;
    frost_slot *slot = &table->slots[index];
    return (frost_found){(uint64_t)slot->flags << 32 | index, frost_cell_read(&slot->cell)};
}

/// A small image's slot in a table with short keys and an inline search, verified, or
/// FROST_NOT_FOUND: inline, for frost_table_lookup_small_name.
/// `name` is the image's bytes (its first `length` are the name).
__attribute__((always_inline)) static inline uint32_t slot_small_name(
    const frost_table *table, uint64_t identity, uint8_t separator, uint64_t low, uint64_t high,
    const uint8_t *name, uint32_t length) {
    uint64_t short_form = identity ^ short_image_hash(separator, low, high);
    uint32_t index =
        frost_inline_search8(&table->identity.bdz, short_form ^ table->identity.salt);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity8 != identity || slot->identity_length != 9 + length ||
        slot->identity[8] != separator || !same_bytes(slot->identity + 9, name, length)) {
        return FROST_NOT_FOUND;
    }
    return index;
}

frost_found frost_table_lookup_small_name(const frost_table *table, uint64_t identity,
                                         uint8_t separator, uint64_t low, uint64_t high) {
    uint32_t length = (uint32_t)(high >> 56) & 0x0F;
    uint8_t name[16];
    memcpy(name, &low, 8);
    memcpy(name + 8, &high, 8);
    if (!__builtin_expect(table->short_keys, 1) ||
        table->identity.info.evaluator == FROST_EVALUATOR_CMPH) {
        return frost_table_lookup_named(table, identity, separator, name, length);
    }
    uint32_t index = slot_small_name(table, identity, separator, low, high, name, length);
    if (index == FROST_NOT_FOUND) return not_found;
    frost_slot *slot = &table->slots[index];
    return (frost_found){(uint64_t)slot->flags << 32 | index, frost_cell_read(&slot->cell)};
}

uint32_t frost_table_find_identity8(const frost_table *table, uint64_t identity) {
    return slot8(table, identity);
}

uint32_t frost_table_find_name(const frost_table *table, const void *bytes, uint32_t length) {
    if (table->count == 0 || length == 0) return FROST_NOT_FOUND;
    if (frost_table_is_named(table) != NAMED) return FROST_NOT_FOUND;
    uint32_t value = frost_function_search(&table->name, bytes, length);
    if (value >= table->name.info.range) return FROST_NOT_FOUND;
    uint32_t index = table->name_to_slot[value];
    if (index == FROST_NOT_FOUND) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->name_length != length || memcmp(slot->name, bytes, length) != 0) {
        return FROST_NOT_FOUND;
    }
    return index;
}

uint32_t frost_table_function_value(const frost_table *table, uint32_t which,
                                    const void *bytes, uint32_t length, int through_cmph) {
    if (table->count == 0 || (which != 0 && frost_table_is_named(table) != NAMED)) {
        return FROST_NOT_FOUND;
    }
    const frost_function *function = which == 0 ? &table->identity : &table->name;
    uint8_t local[256];
    if (length > sizeof local) return FROST_NOT_FOUND;
    memcpy(local, bytes, length);
    frost_apply_salt(local, length, function->salt);
    return through_cmph ? frost_function_cmph_search(function, local, length)
                        : frost_function_raw_search(function, local, length);
}

uint64_t frost_next_generation(void) {
    static _Atomic(uint64_t) generation = 0;
    return atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed) + 1;
}

int frost_table_has_short_keys(const frost_table *table) { return table->short_keys; }

uint64_t frost_short_form(const void *identity, uint32_t length) {
    return short_key(identity, length);
}
