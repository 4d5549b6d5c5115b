// CFrost: building one perfect-hash function, climbing the retry ladder, choosing how lookups
// evaluate it (cmph_search, or bdz_ph.c's inline evaluator), and freeing it.
////
// Memory: each allocation has one owner and one free.
// - A frost_function's cmph_t: made by cmph_new in try_rung, destroyed only by
//   frost_function_free, the one free of a frost_function, whoever holds it (a table, a
//   rejected rung, the calibration). Its inline evaluator's digits are bdz_ph.c's:
//   frost_function_free releases them through frost_inline_bdz_ph_free.
// - cmph's configuration: cmph_config_new and cmph_config_destroy, both in try_rung.
// - Scratch (the flag buffer and the salted keys of frost_build_function, a long salted key in
//   frost_function_search, frost_find_duplicate's table): freed by the function that
//   allocates it, before it returns.

// Facts about cmph 2.0.2 this file is written for (measured; see DESIGN.md):
// - cmph is never called with 0 keys (CHD hangs, CHM/FCH/BRZ crash) or with duplicate keys
//   (every algorithm retries 1,000 times before failing): table.c checks both first.
// - cmph_new returns NULL, permanently, for some key sets (BDZ has 15 seeds); reseeding never
//   helps, another graph size, algorithm or salted keys do: that is the ladder below.
// - BDZ_PH and CHD_PH are perfect but not minimal: their range is about c * n, so the slot array
//   is sized by the range measured over the key set.
// - The default algorithm is CHM: the algorithm is always set. Verbosity 0 prints nothing.

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bdz_ph.h"

// MARK: - Keys as cmph sees them

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
    // Keys point into memory the table owns; cmph must not free them.
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

void frost_apply_salt(uint8_t *bytes, uint32_t length, uint64_t salt) {
    uint8_t mask[8];
    memcpy(mask, &salt, 8);
    uint32_t n = length < 8 ? length : 8;
    for (uint32_t i = 0; i < n; i++) bytes[i] ^= mask[i];
}

// MARK: - Searching

uint32_t frost_function_cmph_search(const frost_function *function, const void *bytes,
                                    uint32_t length) {
    return cmph_search(function->mphf, bytes, length);
}

uint32_t frost_function_raw_search(const frost_function *function, const void *bytes,
                                   uint32_t length) {
    if (function->info.evaluator != FROST_EVALUATOR_CMPH) {
        return frost_inline_search(&function->bdz, bytes, length);
    }
    return frost_function_cmph_search(function, bytes, length);
}

uint32_t frost_function_search(const frost_function *function, const void *bytes,
                               uint32_t length) {
    if (function->salt == 0) {
        return frost_function_raw_search(function, bytes, length);
    }
    uint8_t local[256];
    uint8_t *copy = length <= sizeof local ? local : malloc(length);
    if (copy == NULL) return FROST_NOT_FOUND;
    memcpy(copy, bytes, length);
    frost_apply_salt(copy, length, function->salt);
    uint32_t value = frost_function_raw_search(function, copy, length);
    if (copy != local) free(copy);
    return value;
}

// MARK: - Building one function

static const CMPH_ALGO rung_algorithm[FROST_RUNG_COUNT] = {
    CMPH_BDZ_PH, CMPH_BDZ_PH, CMPH_BDZ_PH, CMPH_CHD_PH, CMPH_BDZ,
};
static const double rung_graph_size[FROST_RUNG_COUNT] = {0, 1.5, 2.0, 0, 0};

/// Tries one rung with one salt. On success sets `*function` (which must hold nothing: it is
/// overwritten), writes each key's value and sets *built; a rung that cannot hash the set
/// leaves *built at 0 and `*function` untouched (not an error).
static frost_status try_rung(const key_view *keys, uint32_t count, uint32_t rung, uint64_t salt,
                             frost_function *function, uint32_t *values, uint8_t *scratch_flags,
                             size_t flag_capacity, int *built) {
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
    frost_function candidate = {0};
    candidate.mphf = cmph_new(config);
    cmph_config_destroy(config);
    if (candidate.mphf == NULL) return FROST_OK;  // this rung cannot hash this key set: climb on

    // Measure the range and check injectivity: a function that maps two keys to one value is
    // treated like a failed build (never seen, but a wrong instance must be impossible).
    uint32_t range = 0;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t value = cmph_search(candidate.mphf, (const char *)keys[i].bytes, keys[i].length);
        values[i] = value;
        if (value >= flag_capacity) goto reject;
        if (value + 1 > range) range = value + 1;
    }
    memset(scratch_flags, 0, range);
    for (uint32_t i = 0; i < count; i++) {
        if (scratch_flags[values[i]]) goto reject;
        scratch_flags[values[i]] = 1;
    }
    candidate.salt = salt;
    candidate.info.range = range;
    *function = candidate;
    *built = 1;
    return FROST_OK;

reject:
    frost_function_free(&candidate);
    return FROST_OK;
}

// MARK: - Choosing the evaluator

/// Whether this libcmph computes BDZ_PH exactly as the inline evaluator (bdz_ph.c) does,
/// decided once: a function over 40 keys of 13 random bytes (the Jenkins loop, every tail
/// byte, bytes >= 0x80) is evaluated both ways. Forty keys are plenty: a reading of the bytes
/// that differs changes the hashes of nearly every such key, and one key whose value differs
/// decides; each key more costs every new process about 3,000 instructions (300 keys cost a
/// cold start a million). A real table's keys cannot decide it: type
/// names are ASCII, and tiny sets hash alike whatever the reading. Debian's libcmph reads key
/// bytes unsigned, as the evaluator does; a build that reads them through a signed `char`
/// fails here and keeps cmph_search.
static int inline_matches_cmph = 0;
static pthread_once_t calibration_once = PTHREAD_ONCE_INIT;

static void calibrate_inline_evaluator(void) {
    enum { count = 40, length = 13 };
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
        if (try_rung(keys, count, rung, 0, &function, values, flags, sizeof flags, &built)
                != FROST_OK
            || !built) {
            continue;
        }
        inline_matches_cmph =
            frost_inline_bdz_ph_make(function.mphf, keys, count, values, &function.bdz);
        frost_function_free(&function);
        return;
    }
}

/// After a build: a BDZ_PH function gets the inline evaluator when this libcmph passed the
/// calibration and the evaluator agrees with cmph_search (`values`) on every key; any other
/// function keeps cmph_search.
static void choose_evaluator(frost_function *function, const key_view *keys, uint32_t count,
                             const uint32_t *values) {
    function->info.evaluator = FROST_EVALUATOR_CMPH;
    if (function->info.rung > FROST_RUNG_BDZ_PH_20) return;
    pthread_once(&calibration_once, calibrate_inline_evaluator);
    if (inline_matches_cmph
        && frost_inline_bdz_ph_make(function->mphf, keys, count, values, &function->bdz)) {
        function->info.evaluator = FROST_EVALUATOR_INLINE;
    }
}

frost_status frost_build_function(const key_view *keys, uint32_t count,
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
                frost_apply_salt(salted_bytes + offset, keys[i].length, salt);
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
            // is rejected by try_rung like a failed build.
            frost_status step = try_rung(input, count, rung, salt, function, values, flags,
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
            choose_evaluator(function, input, count, values);
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

void frost_function_free(frost_function *function) {
    if (function->mphf != NULL) cmph_destroy(function->mphf);
    frost_inline_bdz_ph_free(&function->bdz);
    *function = (frost_function){0};  // the function of 0 keys: freeing it again is harmless
}

// MARK: - Duplicate detection

/// A key's bucket hash, a word at a time: the keys are identities (a type's 8 bytes, then a
/// named key's separator and name), their 8-byte short forms, and table names (a mangled
/// type name, then `#` and the name), on which a byte-at-a-time hash spent most of a build's
/// duplicate check.
static uint64_t key_hash(const uint8_t *bytes, uint32_t length) {
    uint64_t hash = 0x9e3779b97f4a7c15ull ^ length;
    uint32_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * 0xbf58476d1ce4e5b9ull;
        hash ^= hash >> 31;
    }
    if (i < length) {
        uint64_t word = 0;
        memcpy(&word, bytes + i, length - i);
        hash = (hash ^ word) * 0xbf58476d1ce4e5b9ull;
        hash ^= hash >> 31;
    }
    hash *= 0x94d049bb133111ebull;
    return hash ^ (hash >> 32);
}

/// O(n): open addressing over a power-of-two table of key positions, at most half full.
uint32_t frost_find_duplicate(const key_view *keys, uint32_t count) {
    size_t size = 16;
    while (size < (size_t)count * 2) size <<= 1;
    uint32_t *table = malloc(sizeof *table * size);
    if (table == NULL) return FROST_NOT_FOUND - 1;
    for (size_t i = 0; i < size; i++) table[i] = FROST_NOT_FOUND;
    uint32_t duplicate = FROST_NOT_FOUND;
    for (uint32_t i = 0; i < count && duplicate == FROST_NOT_FOUND; i++) {
        size_t bucket = (size_t)key_hash(keys[i].bytes, keys[i].length) & (size - 1);
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
