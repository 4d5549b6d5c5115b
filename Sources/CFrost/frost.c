// CFrost: the perfect-hash slot table. See include/CFrost.h for the contract.
//
// Facts about cmph 2.0.2 this file is written for (measured; see DESIGN.md):
// - cmph is never called with 0 keys (CHD hangs, CHM/FCH/BRZ crash) or with duplicate keys
//   (every algorithm retries 1,000 times before failing).
// - cmph_new returns NULL, permanently, for some key sets (BDZ has 15 seeds); reseeding never
//   helps, another graph size, algorithm or salted keys do: that is the ladder below.
// - BDZ_PH and CHD_PH are perfect but not minimal: their range is about c * n, so the slot array
//   is sized by the range measured over the key set.
// - cmph_search returns some number for a key outside the set, possibly out of range: every
//   lookup checks the bound and compares the stored key.
// - The default algorithm is CHM: the algorithm is always set. Verbosity 0 prints nothing.
// - cmph_search spends most of a lookup in dispatch, a generic Jenkins loop and three 32-bit
//   divisions. A BDZ_PH function is therefore evaluated inline: the same function (seed, r and
//   g exported by cmph_pack), computed by a copy of its search specialized for 8-byte keys,
//   enabled only once it agrees with cmph_search on every key of the set (callgrind: about
//   150 -> 100 instructions per lookup, 25 -> 19 ns per singleton resolve). A one-time
//   calibration on keys with every byte value checks that this libcmph reads key bytes as the
//   evaluator does (unsigned, as Debian's does); if not, cmph_search stays in use.

#include "CFrost.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <cmph.h>

/// cmph's BDZ_PH function evaluated inline: the same function (cmph built it, and cmph_pack
/// exported its seed, r and g), computed without cmph_search's dispatch, generic Jenkins loop
/// and three divisions. Enabled only after it agreed with cmph_search on every key.
typedef struct inline_bdz_ph {
    uint8_t *digits;     // g unpacked: one base-3 digit per vertex (3r bytes; cmph packs 5 per
                         // byte), so a search reads each vertex's digit in one load
    uint32_t seed;       // the Jenkins seed
    uint32_t r;          // vertices per part (3 parts)
    uint64_t r_inverse;  // for an exact a % r by multiplication (Lemire's fastmod)
} inline_bdz_ph;

typedef struct frost_function {
    cmph_t *mphf;   // searched with cmph_search (faster than the packed form); NULL for 0 keys
    uint64_t salt;  // XOR mask over the first 8 bytes of a key; 0 for unsalted keys
    inline_bdz_ph bdz;  // valid when info.evaluator != FROST_EVALUATOR_CMPH
    frost_function_info info;
} frost_function;

static _Atomic(uint64_t) live_tables = 0;

uint64_t frost_live_tables(void) { return atomic_load_explicit(&live_tables, memory_order_relaxed); }

struct frost_table {
    uint32_t count;
    uint32_t capacity;        // slots: the identity function's range
    frost_slot *slots;
    uint32_t *name_to_slot;   // indexed by the name function's value
    uint8_t *arena;           // every key's identity and name bytes
    frost_function identity;  // identity bytes -> slot index
    frost_function name;      // name bytes -> name_to_slot index
    frost_release_fn release;
    pthread_mutex_t create_lock;  // recursive: factories create their dependencies
};

// MARK: - Keys as cmph sees them

typedef struct key_view {
    const uint8_t *bytes;
    uint32_t length;
} key_view;

typedef struct key_source {
    const key_view *keys;
    uint32_t count;
    uint32_t position;
} key_source;

static int key_source_read(void *data, char **key, cmph_uint32 *length) {
    key_source *source = data;
    const key_view *view = &source->keys[source->position++];
    *key = (char *)view->bytes;
    *length = view->length;
    return (int)view->length;
}

static void key_source_dispose(void *data, char *key, cmph_uint32 length) {
    // Keys point into memory this file owns; cmph must not free them.
    (void)data;
    (void)key;
    (void)length;
}

static void key_source_rewind(void *data) { ((key_source *)data)->position = 0; }

// MARK: - Salting

/// The salt of a round: 0 for round 0, a well-mixed nonzero 64-bit constant otherwise.
static uint64_t salt_for_round(uint32_t round) {
    if (round == 0) return 0;
    uint64_t z = (uint64_t)round * 0x9E3779B97F4A7C15ull;  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z == 0 ? 1 : z;
}

/// XORs the first min(8, length) bytes of `bytes` with the salt. A bijection on keys of each
/// length, so distinct keys stay distinct.
static void apply_salt(uint8_t *bytes, uint32_t length, uint64_t salt) {
    uint8_t mask[8];
    memcpy(mask, &salt, 8);
    uint32_t n = length < 8 ? length : 8;
    for (uint32_t i = 0; i < n; i++) bytes[i] ^= mask[i];
}

// MARK: - BDZ_PH evaluated inline

/// digit[k][byte]: the k-th base-3 digit of a byte of g (BDZ_PH packs 5 digits per byte).
static uint8_t base3_digit[5][256];
static pthread_once_t base3_once = PTHREAD_ONCE_INIT;

static void fill_base3_digits(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t value = byte;
        for (uint32_t k = 0; k < 5; k++) {
            base3_digit[k][byte] = (uint8_t)(value % 3);
            value /= 3;
        }
    }
}

/// a % d for any 32-bit a, with inverse = UINT64_MAX / d + 1 (exact; Lemire, 2019).
static inline uint32_t mod_by_inverse(uint32_t a, uint64_t inverse, uint32_t d) {
    return (uint32_t)(((__uint128_t)(inverse * a) * d) >> 64);
}

/// Bob Jenkins' 1996 mix, as cmph's hash_vector uses it.
#define FROST_JENKINS_MIX(a, b, c) \
    do { \
        a -= b; a -= c; a ^= (c >> 13); \
        b -= c; b -= a; b ^= (a << 8); \
        c -= a; c -= b; c ^= (b >> 13); \
        a -= b; a -= c; a ^= (c >> 12); \
        b -= c; b -= a; b ^= (a << 16); \
        c -= a; c -= b; c ^= (b >> 5); \
        a -= b; a -= c; a ^= (c >> 3); \
        b -= c; b -= a; b ^= (a << 10); \
        c -= a; c -= b; c ^= (b >> 15); \
    } while (0)

/// Four key bytes, little-endian, as cmph's Jenkins loop adds them (Debian's libcmph reads key
/// bytes unsigned; a build that reads them through a signed `char` fails the calibration
/// below and keeps cmph_search).
static inline uint32_t key_word(const uint8_t *k) {
    return (uint32_t)k[0] | ((uint32_t)k[1] << 8) | ((uint32_t)k[2] << 16)
        | ((uint32_t)k[3] << 24);
}

/// cmph's Jenkins hash_vector: three 32-bit hashes of a key of any length.
static inline void jenkins_vector(uint32_t seed, const uint8_t *k, uint32_t length,
                                  uint32_t hashes[3]) {
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = seed, left = length;
    while (left >= 12) {
        a += key_word(k);
        b += key_word(k + 4);
        c += key_word(k + 8);
        FROST_JENKINS_MIX(a, b, c);
        k += 12;
        left -= 12;
    }
    c += length;
    switch (left) {  // every case falls through, as in cmph
    case 11: c += (uint32_t)k[10] << 24; // fall through
    case 10: c += (uint32_t)k[9] << 16;  // fall through
    case 9: c += (uint32_t)k[8] << 8;    // fall through
    case 8: b += (uint32_t)k[7] << 24;   // fall through
    case 7: b += (uint32_t)k[6] << 16;   // fall through
    case 6: b += (uint32_t)k[5] << 8;    // fall through
    case 5: b += k[4];                   // fall through
    case 4: a += (uint32_t)k[3] << 24;   // fall through
    case 3: a += (uint32_t)k[2] << 16;   // fall through
    case 2: a += (uint32_t)k[1] << 8;    // fall through
    case 1: a += k[0];                   // fall through
    default: break;
    }
    FROST_JENKINS_MIX(a, b, c);
    hashes[0] = a;
    hashes[1] = b;
    hashes[2] = c;
}

/// BDZ_PH's search from the three hashes: one vertex in each part of the 3-hypergraph, and
/// the sum of their g digits picks which one is the key's value.
static inline uint32_t bdz_ph_vertex(const inline_bdz_ph *bdz, const uint32_t hashes[3]) {
    uint32_t r = bdz->r;
    uint32_t v0 = mod_by_inverse(hashes[0], bdz->r_inverse, r);
    uint32_t v1 = mod_by_inverse(hashes[1], bdz->r_inverse, r) + r;
    uint32_t v2 = mod_by_inverse(hashes[2], bdz->r_inverse, r) + 2 * r;
    uint32_t which = (uint32_t)bdz->digits[v0] + bdz->digits[v1] + bdz->digits[v2];  // 0...6
    if (which >= 3) which -= 3;
    if (which >= 3) which -= 3;
    return which == 0 ? v0 : which == 1 ? v1 : v2;
}

static inline uint32_t inline_search(const frost_function *function, const uint8_t *key,
                                     uint32_t length) {
    uint32_t hashes[3];
    jenkins_vector(function->bdz.seed, key, length, hashes);
    return bdz_ph_vertex(&function->bdz, hashes);
}

/// The function's value for an 8-byte key (salt already applied): the hot path of a resolve.
static inline uint32_t inline_search8(const frost_function *function, uint64_t key) {
    uint8_t bytes[8];
    memcpy(bytes, &key, 8);
    uint32_t a = 0x9e3779b9u + key_word(bytes);
    uint32_t b = 0x9e3779b9u + key_word(bytes + 4);
    uint32_t c = function->bdz.seed + 8;
    FROST_JENKINS_MIX(a, b, c);
    uint32_t hashes[3] = {a, b, c};
    return bdz_ph_vertex(&function->bdz, hashes);
}

/// Exports a BDZ_PH function's parameters with cmph_pack into `function->bdz`. Returns 0 when
/// the packed form is not the layout this file reads (then cmph_search stays in use).
static int export_bdz_ph(frost_function *function) {
    uint32_t size = cmph_packed_size(function->mphf);
    // cmph_pack's layout for BDZ_PH with Jenkins: algorithm, hash kind, seed, r, then g.
    if (size < 16) return 0;
    uint8_t *packed = malloc(size);
    if (packed == NULL) return 0;
    cmph_pack(function->mphf, packed);
    uint32_t header[4];
    memcpy(header, packed, sizeof header);
    uint32_t r = header[3];
    uint64_t g_bytes = ((uint64_t)3 * r + 4) / 5;
    if (header[0] != CMPH_BDZ_PH || header[1] != CMPH_HASH_JENKINS || r == 0
        || size != 16 + g_bytes) {
        free(packed);
        return 0;
    }
    uint8_t *digits = malloc((size_t)3 * r);
    if (digits == NULL) {
        free(packed);
        return 0;
    }
    pthread_once(&base3_once, fill_base3_digits);
    const uint8_t *g = packed + 16;
    for (uint64_t vertex = 0; vertex < (uint64_t)3 * r; vertex++) {
        digits[vertex] = base3_digit[vertex % 5][g[vertex / 5]];
    }
    free(packed);
    function->bdz = (inline_bdz_ph){digits, header[2], r, UINT64_MAX / r + 1};
    return 1;
}

static void drop_inline_search(frost_function *function) {
    free(function->bdz.digits);
    function->bdz = (inline_bdz_ph){0};
    function->info.evaluator = FROST_EVALUATOR_CMPH;
}

/// Whether the inline evaluator gives `values` (cmph_search's) for every key.
static int agrees_with_cmph(const frost_function *function, const key_view *keys,
                            uint32_t count, const uint32_t *values) {
    for (uint32_t i = 0; i < count; i++) {
        if (inline_search(function, keys[i].bytes, keys[i].length) != values[i]) return 0;
    }
    return 1;
}

static frost_status try_build(const key_view *keys, uint32_t count, uint32_t rung,
                              uint64_t salt, frost_function *function, uint32_t *values,
                              uint8_t *scratch_flags, size_t flag_capacity, int *built);

/// Whether this libcmph computes BDZ_PH exactly as the inline evaluator does, decided once: a
/// function over 300 keys of 13 random bytes (the Jenkins loop, every tail byte, bytes >= 0x80)
/// is evaluated both ways. A real table's keys cannot decide it: type names are ASCII, and
/// tiny sets hash alike whatever the reading.
static int inline_matches_cmph = 0;
static pthread_once_t calibration_once = PTHREAD_ONCE_INIT;

static void calibrate_evaluator(void) {
    enum { count = 300, length = 13 };
    static uint8_t bytes[count * length];
    key_view keys[count];
    uint32_t values[count];
    uint8_t flags[count * 4 + 64];
    uint64_t state = 0x2545F4914F6CDD1DULL;
    for (uint32_t i = 0; i < count * length; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        bytes[i] = (uint8_t)(state >> 56);
    }
    for (uint32_t i = 0; i < count; i++) keys[i] = (key_view){bytes + i * length, length};
    for (uint32_t rung = FROST_RUNG_BDZ_PH; rung <= FROST_RUNG_BDZ_PH_20; rung++) {
        frost_function function = {0};
        int built = 0;
        if (try_build(keys, count, rung, 0, &function, values, flags, sizeof flags, &built)
                != FROST_OK
            || !built) {
            continue;
        }
        if (export_bdz_ph(&function)) {
            inline_matches_cmph = agrees_with_cmph(&function, keys, count, values);
            drop_inline_search(&function);
        }
        cmph_destroy(function.mphf);
        return;
    }
}

/// After a BDZ_PH build: exports the function with cmph_pack and enables the inline evaluator
/// (if this libcmph passed the calibration) when it agrees with cmph_search on every key. Otherwise the
/// function keeps using cmph_search. `values` are cmph_search's values for `keys` (salted
/// when the function was built on salted keys).
static void enable_inline_search(frost_function *function, const key_view *keys,
                                 uint32_t count, const uint32_t *values) {
    function->info.evaluator = FROST_EVALUATOR_CMPH;
    if (function->info.rung > FROST_RUNG_BDZ_PH_20) return;
    pthread_once(&base3_once, fill_base3_digits);
    pthread_once(&calibration_once, calibrate_evaluator);
    if (!inline_matches_cmph || !export_bdz_ph(function)) return;
    if (agrees_with_cmph(function, keys, count, values)) {
        function->info.evaluator = FROST_EVALUATOR_INLINE;
    } else {
        drop_inline_search(function);
    }
}

static uint32_t raw_search(const frost_function *function, const void *bytes,
                           uint32_t length) {
    if (function->info.evaluator != FROST_EVALUATOR_CMPH) {
        return inline_search(function, bytes, length);
    }
    return cmph_search(function->mphf, bytes, length);
}

static uint32_t function_search(const frost_function *function, const void *bytes,
                                 uint32_t length) {
    if (function->salt == 0) {
        return raw_search(function, bytes, length);
    }
    uint8_t local[256];
    uint8_t *copy = length <= sizeof local ? local : malloc(length);
    if (copy == NULL) return FROST_NOT_FOUND;
    memcpy(copy, bytes, length);
    apply_salt(copy, length, function->salt);
    uint32_t value = raw_search(function, copy, length);
    if (copy != local) free(copy);
    return value;
}

// MARK: - Building one function

static const CMPH_ALGO rung_algorithm[FROST_RUNG_COUNT] = {
    CMPH_BDZ_PH, CMPH_BDZ_PH, CMPH_BDZ_PH, CMPH_CHD_PH, CMPH_BDZ,
};
static const double rung_graph_size[FROST_RUNG_COUNT] = {0, 1.5, 2.0, 0, 0};

/// Tries one rung with one salt. On success fills `function` and writes each key's value.
static frost_status try_build(const key_view *keys, uint32_t count, uint32_t rung,
                              uint64_t salt, frost_function *function, uint32_t *values,
                              uint8_t *scratch_flags, size_t flag_capacity, int *built) {
    *built = 0;
    key_source source = {keys, count, 0};
    cmph_io_adapter_t adapter = {
        &source, count, key_source_read, key_source_dispose, key_source_rewind,
    };
    cmph_config_t *config = cmph_config_new(&adapter);
    if (config == NULL) return FROST_ERROR_OUT_OF_MEMORY;
    cmph_config_set_algo(config, rung_algorithm[rung]);
    cmph_config_set_verbosity(config, 0);
    if (rung_graph_size[rung] > 0) cmph_config_set_graphsize(config, rung_graph_size[rung]);
    cmph_t *mphf = cmph_new(config);
    cmph_config_destroy(config);
    if (mphf == NULL) return FROST_OK;  // this rung cannot hash this key set: climb on

    // Measure the range and check injectivity: a function that maps two keys to one value is
    // treated like a failed build (never seen, but a wrong instance must be impossible).
    uint32_t range = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = cmph_search(mphf, (const char *)keys[i].bytes, keys[i].length);
        values[i] = value;
        if (value >= flag_capacity) {
            cmph_destroy(mphf);
            return FROST_OK;
        }
        if (value + 1 > range) range = value + 1;
    }
    memset(scratch_flags, 0, range);
    for (uint32_t i = 0; i < count; i++) {
        if (scratch_flags[values[i]]) {
            cmph_destroy(mphf);
            return FROST_OK;
        }
        scratch_flags[values[i]] = 1;
    }
    function->mphf = mphf;
    function->salt = salt;
    function->info.range = range;
    *built = 1;
    return FROST_OK;
}

/// Builds a perfect-hash function over distinct, non-empty keys, climbing the ladder.
static frost_status build_function(const key_view *keys, uint32_t count,
                                   const frost_build_options *options, frost_function *function,
                                   uint32_t *values) {
    memset(function, 0, sizeof *function);
    if (count == 0) return FROST_OK;  // never call cmph with 0 keys

    uint32_t max_rounds = options->max_rounds == 0 ? 64 : options->max_rounds;
    size_t flag_bytes = (size_t)count * 4 + 64;
    uint8_t *flags = malloc(flag_bytes);
    key_view *salted = NULL;
    uint8_t *salted_bytes = NULL;
    frost_status status = FROST_ERROR_NO_FUNCTION;
    if (flags == NULL) return FROST_ERROR_OUT_OF_MEMORY;

    uint32_t attempts = 0;
    for (uint32_t round = options->first_salt; round < options->first_salt + max_rounds;
         round++) {
        uint64_t salt = salt_for_round(round);
        const key_view *input = keys;
        if (salt != 0) {
            if (salted == NULL) {
                size_t total = 0;
                for (uint32_t i = 0; i < count; i++) total += keys[i].length;
                salted = malloc(sizeof *salted * count);
                salted_bytes = malloc(total);
                if (salted == NULL || salted_bytes == NULL) {
                    status = FROST_ERROR_OUT_OF_MEMORY;
                    break;
                }
            }
            size_t offset = 0;
            for (uint32_t i = 0; i < count; i++) {
                memcpy(salted_bytes + offset, keys[i].bytes, keys[i].length);
                apply_salt(salted_bytes + offset, keys[i].length, salt);
                salted[i].bytes = salted_bytes + offset;
                salted[i].length = keys[i].length;
                offset += keys[i].length;
            }
            input = salted;
        }
        uint32_t first = round == options->first_salt ? options->first_rung : 0;
        int built = 0;
        for (uint32_t rung = first; rung < FROST_RUNG_COUNT && !built; rung++) {
            attempts++;
            // Ranges stay near c * n (c <= 2.0); a function whose range exceeds the flag buffer
            // is rejected by try_build like a failed build.
            frost_status step = try_build(input, count, rung, salt, function, values, flags,
                                          flag_bytes, &built);
            if (step != FROST_OK) {
                status = step;
                goto done;
            }
            if (built) {
                function->info.rung = rung;
                function->info.salt = round;
            }
        }
        if (built) {
            enable_inline_search(function, input, count, values);
            status = FROST_OK;
            break;
        }
    }
done:
    function->info.attempts = attempts;
    free(flags);
    free(salted);
    free(salted_bytes);
    return status;
}

// MARK: - Duplicate detection

static uint64_t fnv1a(const uint8_t *bytes, uint32_t length) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < length; i++) {
        hash ^= bytes[i];
        hash *= 0x100000001b3ull;
    }
    return hash ^ (hash >> 29);
}

/// Returns the input position of a key that repeats an earlier one, FROST_NOT_FOUND when all
/// are distinct, or FROST_NOT_FOUND - 1 when memory ran out. O(n): open addressing over a
/// power-of-two table of key positions, at most half full.
static uint32_t find_duplicate(const key_view *keys, uint32_t count) {
    size_t size = 16;
    while (size < (size_t)count * 2) size <<= 1;
    uint32_t *table = malloc(sizeof *table * size);
    if (table == NULL) return FROST_NOT_FOUND - 1;
    for (size_t i = 0; i < size; i++) table[i] = FROST_NOT_FOUND;
    uint32_t duplicate = FROST_NOT_FOUND;
    for (uint32_t i = 0; i < count && duplicate == FROST_NOT_FOUND; i++) {
        size_t bucket = (size_t)fnv1a(keys[i].bytes, keys[i].length) & (size - 1);
        while (table[bucket] != FROST_NOT_FOUND) {
            const key_view *other = &keys[table[bucket]];
            if (other->length == keys[i].length &&
                memcmp(other->bytes, keys[i].bytes, keys[i].length) == 0) {
                duplicate = i;
                break;
            }
            bucket = (bucket + 1) & (size - 1);
        }
        table[bucket] = i;
    }
    free(table);
    return duplicate;
}

// MARK: - Table

static void table_free(frost_table *table) {
    if (table->identity.mphf) cmph_destroy(table->identity.mphf);
    if (table->name.mphf) cmph_destroy(table->name.mphf);
    free(table->identity.bdz.digits);
    free(table->name.bdz.digits);
    free(table->name_to_slot);
    free(table->slots);
    free(table->arena);
    pthread_mutex_destroy(&table->create_lock);
    free(table);
}

frost_status frost_table_create(const frost_key *keys, uint32_t count, frost_release_fn release,
                                const frost_build_options *options, frost_table **out,
                                uint32_t *first_duplicate) {
    *out = NULL;
    if (first_duplicate) *first_duplicate = FROST_NOT_FOUND;
    if (count > FROST_MAX_KEYS) return FROST_ERROR_TOO_MANY_KEYS;
    frost_build_options defaults = {0, 0, 0};
    if (options == NULL) options = &defaults;

    size_t arena_size = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (keys[i].identity_length == 0 || keys[i].name_length == 0) {
            return FROST_ERROR_EMPTY_KEY;
        }
        arena_size += (size_t)keys[i].identity_length + keys[i].name_length;
    }

    frost_table *table = calloc(1, sizeof *table);
    if (table == NULL) return FROST_ERROR_OUT_OF_MEMORY;
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&table->create_lock, &attributes);
    pthread_mutexattr_destroy(&attributes);
    table->count = count;
    table->release = release;

    frost_status status = FROST_OK;
    key_view *identities = NULL, *names = NULL;
    uint32_t *identity_values = NULL, *name_values = NULL;

    if (count > 0) {
        table->arena = malloc(arena_size);
        identities = malloc(sizeof *identities * count);
        names = malloc(sizeof *names * count);
        identity_values = malloc(sizeof *identity_values * count);
        name_values = malloc(sizeof *name_values * count);
        if (!table->arena || !identities || !names || !identity_values || !name_values) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto fail;
        }
        size_t offset = 0;
        for (uint32_t i = 0; i < count; i++) {
            memcpy(table->arena + offset, keys[i].identity, keys[i].identity_length);
            identities[i] = (key_view){table->arena + offset, keys[i].identity_length};
            offset += keys[i].identity_length;
            memcpy(table->arena + offset, keys[i].name, keys[i].name_length);
            names[i] = (key_view){table->arena + offset, keys[i].name_length};
            offset += keys[i].name_length;
        }
        // Duplicates never reach cmph.
        uint32_t duplicate = find_duplicate(identities, count);
        if (duplicate == FROST_NOT_FOUND) duplicate = find_duplicate(names, count);
        if (duplicate == FROST_NOT_FOUND - 1) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto fail;
        }
        if (duplicate != FROST_NOT_FOUND) {
            if (first_duplicate) *first_duplicate = duplicate;
            status = FROST_ERROR_DUPLICATE;
            goto fail;
        }
    }

    status = build_function(identities, count, options, &table->identity, identity_values);
    if (status != FROST_OK) goto fail;
    status = build_function(names, count, options, &table->name, name_values);
    if (status != FROST_OK) goto fail;

    table->capacity = table->identity.info.range;
    if (table->capacity > 0) {
        table->slots = calloc(table->capacity, sizeof *table->slots);
        table->name_to_slot = malloc(sizeof *table->name_to_slot * table->name.info.range);
        if (!table->slots || !table->name_to_slot) {
            status = FROST_ERROR_OUT_OF_MEMORY;
            goto fail;
        }
        for (uint32_t i = 0; i < table->name.info.range; i++) {
            table->name_to_slot[i] = FROST_NOT_FOUND;
        }
        for (uint32_t i = 0; i < count; i++) {
            frost_slot *slot = &table->slots[identity_values[i]];
            slot->index = i;
            slot->identity = identities[i].bytes;
            slot->identity_length = identities[i].length;
            if (identities[i].length >= 8) memcpy(&slot->identity8, identities[i].bytes, 8);
            slot->name = names[i].bytes;
            slot->name_length = names[i].length;
            table->name_to_slot[name_values[i]] = identity_values[i];
        }
    }
    free(identities);
    free(names);
    free(identity_values);
    free(name_values);
    atomic_fetch_add_explicit(&live_tables, 1, memory_order_relaxed);
    *out = table;
    return FROST_OK;

fail:
    free(identities);
    free(names);
    free(identity_values);
    free(name_values);
    table_free(table);
    return status;
}

void frost_table_destroy(frost_table *table) {
    if (table == NULL) return;
    atomic_fetch_sub_explicit(&live_tables, 1, memory_order_relaxed);
    for (uint32_t i = 0; i < table->capacity; i++) {
        void *instance = atomic_load_explicit(&table->slots[i].instance, memory_order_acquire);
        if (instance != NULL) table->release(instance);
    }
    table_free(table);
}

uint32_t frost_table_count(const frost_table *table) { return table->count; }

uint32_t frost_table_capacity(const frost_table *table) { return table->capacity; }

frost_slot *frost_table_slots(frost_table *table) { return table->slots; }

frost_function_info frost_table_function_info(const frost_table *table, uint32_t which) {
    return which == 0 ? table->identity.info : table->name.info;
}

uint32_t frost_table_find_identity(const frost_table *table, const void *bytes,
                                   uint32_t length) {
    if (table->count == 0 || length == 0) return FROST_NOT_FOUND;
    uint32_t index = function_search(&table->identity, bytes, length);
    if (index >= table->capacity) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->identity_length != length || memcmp(slot->identity, bytes, length) != 0) {
        return FROST_NOT_FOUND;
    }
    return index;
}

static const frost_found not_found = {UINT64_MAX, NULL};

/// The verified answer for a slot index given by the identity function.
static inline frost_found found_at(const frost_table *table, uint32_t index, uint64_t identity) {
    if (index >= table->capacity) return not_found;
    frost_slot *slot = &table->slots[index];
    if (slot->identity_length != 8 || slot->identity8 != identity) return not_found;
    return (frost_found){index, atomic_load_explicit(&slot->instance, memory_order_acquire)};
}

/// frost_table_lookup8 through cmph_search (a function the inline evaluator does not read):
/// out of line, so that the inline path saves one register instead of three and keeps no
/// stack slot for the salted key.
__attribute__((noinline)) static frost_found lookup8_cmph(const frost_table *table,
                                                          uint64_t identity) {
    if (table->count == 0) return not_found;
    uint64_t salted = identity ^ table->identity.salt;
    return found_at(table, cmph_search(table->identity.mphf, (const char *)&salted, 8), identity);
}

frost_found frost_table_lookup8(const frost_table *table, uint64_t identity) {
    // A table of 0 keys keeps FROST_EVALUATOR_CMPH (its mphf is NULL): handled out of line.
    if (table->identity.info.evaluator == FROST_EVALUATOR_CMPH) {
        return lookup8_cmph(table, identity);
    }
    uint32_t index = inline_search8(&table->identity, identity ^ table->identity.salt);
    return found_at(table, index, identity);
}

uint32_t frost_table_find_identity8(const frost_table *table, uint64_t identity) {
    frost_found found = frost_table_lookup8(table, identity);
    return found.slot == UINT64_MAX ? FROST_NOT_FOUND : (uint32_t)found.slot;
}

uint32_t frost_table_function_value(const frost_table *table, uint32_t which,
                                    const void *bytes, uint32_t length, int through_cmph) {
    const frost_function *function = which == 0 ? &table->identity : &table->name;
    if (table->count == 0) return FROST_NOT_FOUND;
    uint8_t local[256];
    if (length > sizeof local) return FROST_NOT_FOUND;
    memcpy(local, bytes, length);
    apply_salt(local, length, function->salt);
    return through_cmph ? cmph_search(function->mphf, (const char *)local, length)
                        : raw_search(function, local, length);
}

uint32_t frost_table_find_name(const frost_table *table, const void *bytes, uint32_t length) {
    if (table->count == 0 || length == 0) return FROST_NOT_FOUND;
    uint32_t value = function_search(&table->name, bytes, length);
    if (value >= table->name.info.range) return FROST_NOT_FOUND;
    uint32_t index = table->name_to_slot[value];
    if (index == FROST_NOT_FOUND) return FROST_NOT_FOUND;
    const frost_slot *slot = &table->slots[index];
    if (slot->name_length != length || memcmp(slot->name, bytes, length) != 0) {
        return FROST_NOT_FOUND;
    }
    return index;
}

int frost_slot_preset_instance(frost_table *table, uint32_t slot, void *instance) {
    void *expected = NULL;
    return atomic_compare_exchange_strong_explicit(&table->slots[slot].instance, &expected,
                                                   instance, memory_order_release,
                                                   memory_order_relaxed);
}

void frost_slot_set_factory(frost_table *table, uint32_t slot, frost_factory_fn factory,
                            void *context, uint32_t flags) {
    table->slots[slot].factory = factory;
    table->slots[slot].context = context;
    table->slots[slot].flags = flags;
}

void *frost_table_create_once(frost_table *table, uint32_t index, void *resolution,
                              void **error) {
    frost_slot *slot = &table->slots[index];
    void *instance = atomic_load_explicit(&slot->instance, memory_order_acquire);
    if (instance != NULL) return instance;
    pthread_mutex_lock(&table->create_lock);
    instance = atomic_load_explicit(&slot->instance, memory_order_acquire);
    if (instance == NULL && slot->factory != NULL) {
        instance = slot->factory(slot->context, resolution, error);
        if (instance != NULL) {
            atomic_store_explicit(&slot->instance, instance, memory_order_release);
        }
    }
    pthread_mutex_unlock(&table->create_lock);
    return instance;
}

void *frost_slot_take_instance(frost_table *table, uint32_t slot) {
    return atomic_exchange_explicit(&table->slots[slot].instance, NULL, memory_order_acq_rel);
}

void frost_table_lock(frost_table *table) { pthread_mutex_lock(&table->create_lock); }

void frost_table_unlock(frost_table *table) { pthread_mutex_unlock(&table->create_lock); }

uint64_t frost_next_generation(void) {
    static _Atomic(uint64_t) generation = 0;
    return atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed) + 1;
}
