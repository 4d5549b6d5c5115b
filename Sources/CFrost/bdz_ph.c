// CFrost: cmph's BDZ_PH function evaluated inline.
//
// cmph_search spends most of a lookup in dispatch, a generic Jenkins loop and three 32-bit
// divisions. A BDZ_PH function (the first three rungs of the ladder, so nearly every table)
// is therefore evaluated inline: the same function (seed, r and g exported by cmph_pack),
// computed by a copy of its search specialized for 8-byte keys (bdz_ph.h), enabled only once
// it agrees with cmph_search on every key of the set (callgrind: about 150 -> 100
// instructions per lookup, 25 -> 19 ns per singleton resolve).
//
// This file is the layer below ladder.c: it is handed a function cmph built and the values
// cmph_search gave, and calls nothing in the other files. ladder.c decides which functions
// get an inline evaluator, after a one-time calibration (there) that checks this libcmph
// reads key bytes as the evaluator does.
//
// Memory: an evaluator's digits are allocated here (frost_inline_bdz_ph_make) and freed only
// here (frost_inline_bdz_ph_free, which ladder.c's frost_function_free calls); cmph_pack's
// copy of the function is allocated and freed within export_bdz_ph. The cmph function itself
// belongs to ladder.c and is only read here.

#include <pthread.h>
#include <stdlib.h>

#include "bdz_ph.h"

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

/// Exports a BDZ_PH function's parameters with cmph_pack into `*evaluator`. Returns 0, with
/// nothing allocated, when the packed form is not the layout this file reads (then
/// cmph_search stays in use).
static int export_bdz_ph(cmph_t *mphf, inline_bdz_ph *evaluator) {
    uint32_t size = cmph_packed_size(mphf);
    // cmph_pack's layout for BDZ_PH with Jenkins: algorithm, hash kind, seed, r, then g.
    if (size < 16) return 0;
    uint8_t *packed = malloc(size);
    if (packed == NULL) return 0;
    cmph_pack(mphf, packed);
    uint32_t header[4];
    memcpy(header, packed, sizeof header);
    uint32_t r = header[3];
    uint64_t g_bytes = ((uint64_t)3 * r + 4) / 5;
    uint8_t *digits = NULL;
    if (header[0] == CMPH_BDZ_PH && header[1] == CMPH_HASH_JENKINS && r != 0
        && size == 16 + g_bytes) {
        digits = malloc((size_t)3 * r);
    }
    if (digits != NULL) {
        pthread_once(&base3_once, fill_base3_digits);
        const uint8_t *g = packed + 16;
        for (uint64_t vertex = 0; vertex < (uint64_t)3 * r; vertex++) {
            digits[vertex] = base3_digit[vertex % 5][g[vertex / 5]];
        }
        *evaluator = (inline_bdz_ph){digits, header[2], r, UINT64_MAX / r + 1};
    }
    free(packed);
    return digits != NULL;
}

void frost_inline_bdz_ph_free(inline_bdz_ph *evaluator) {
    free(evaluator->digits);
    *evaluator = (inline_bdz_ph){0};
}

/// Whether the inline evaluator gives `values` (cmph_search's) for every key.
static int agrees_with_cmph(const inline_bdz_ph *evaluator, const key_view *keys,
                            uint32_t count, const uint32_t *values) {
    for (uint32_t i = 0; i < count; i++) {
        if (frost_inline_search(evaluator, keys[i].bytes, keys[i].length) != values[i]) return 0;
    }
    return 1;
}

int frost_inline_bdz_ph_make(cmph_t *mphf, const key_view *keys, uint32_t count,
                             const uint32_t *values, inline_bdz_ph *evaluator) {
    *evaluator = (inline_bdz_ph){0};
    if (!export_bdz_ph(mphf, evaluator)) return 0;
    if (agrees_with_cmph(evaluator, keys, count, values)) return 1;
    frost_inline_bdz_ph_free(evaluator);
    return 0;
}
