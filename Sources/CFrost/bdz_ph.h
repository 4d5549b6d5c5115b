// The inline half of the BDZ_PH evaluator: what a lookup runs (table.c, ladder.c) and what the
// agreement check compares with cmph_search (bdz_ph.c). It reads an inline_bdz_ph only; it
// never sees the frost_function around it.

#ifndef CFROST_BDZ_PH_H
#define CFROST_BDZ_PH_H

#include <string.h>

#include "internal.h"

/// a % d for any 32-bit a, with inverse = UINT64_MAX / d + 1 (exact; Lemire, 2019).
static inline uint32_t frost_mod_by_inverse(uint32_t a, uint64_t inverse, uint32_t d) {
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
/// bytes unsigned; a build that reads them through a signed `char` fails the calibration in
/// ladder.c and keeps cmph_search).
static inline uint32_t frost_key_word(const uint8_t *k) {
    return (uint32_t)k[0] | ((uint32_t)k[1] << 8) | ((uint32_t)k[2] << 16)
        | ((uint32_t)k[3] << 24);
}

/// The whole 12-byte blocks of cmph's Jenkins hash_vector, mixed into a, b and c; returns
/// where the tail starts and sets *left to its length (under 12).
static inline const uint8_t *frost_jenkins_blocks(const uint8_t *k, uint32_t *left, uint32_t *a,
                                                 uint32_t *b, uint32_t *c) {
    while (*left >= 12) {
        *a += frost_key_word(k);
        *b += frost_key_word(k + 4);
        *c += frost_key_word(k + 8);
        FROST_JENKINS_MIX(*a, *b, *c);
        k += 12;
        *left -= 12;
    }
    return k;
}

/// cmph's Jenkins hash_vector: three 32-bit hashes of a key of any length.
static inline void frost_jenkins_vector(uint32_t seed, const uint8_t *k, uint32_t length,
                                        uint32_t hashes[3]) {
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = seed, left = length;
    k = frost_jenkins_blocks(k, &left, &a, &b, &c);
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

/// frost_jenkins_vector's hashes for a key of at most 32 bytes copied into a zero-filled
/// buffer of 40: whole words instead of the byte-wise tail. The same values: cmph adds nothing
/// where the buffer adds zeros, and the tail's third word goes in shifted by 8, as cmph adds its
/// bytes (the low byte of c holds the length).
static inline void frost_jenkins_padded(uint32_t seed, const uint8_t *k, uint32_t length,
                                        uint32_t hashes[3]) {
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = seed, left = length;
    k = frost_jenkins_blocks(k, &left, &a, &b, &c);
    c += length;
    a += frost_key_word(k);
    b += frost_key_word(k + 4);
    c += frost_key_word(k + 8) << 8;
    FROST_JENKINS_MIX(a, b, c);
    hashes[0] = a;
    hashes[1] = b;
    hashes[2] = c;
}

/// BDZ_PH's search from the three hashes: one vertex in each part of the 3-hypergraph, and
/// the sum of their g digits picks which one is the key's value.
static inline uint32_t frost_bdz_ph_vertex(const inline_bdz_ph *bdz, const uint32_t hashes[3]) {
    uint32_t r = bdz->r;
    uint32_t v0 = frost_mod_by_inverse(hashes[0], bdz->r_inverse, r);
    uint32_t v1 = frost_mod_by_inverse(hashes[1], bdz->r_inverse, r) + r;
    uint32_t v2 = frost_mod_by_inverse(hashes[2], bdz->r_inverse, r) + 2 * r;
    uint32_t which = (uint32_t)bdz->digits[v0] + bdz->digits[v1] + bdz->digits[v2];  // 0...6
    if (which >= 3) which -= 3;
    if (which >= 3) which -= 3;
    return which == 0 ? v0 : which == 1 ? v1 : v2;
}

/// The inline evaluator's value for a key of any length (salt already applied).
static inline uint32_t frost_inline_search(const inline_bdz_ph *bdz, const uint8_t *key,
                                           uint32_t length) {
    uint32_t hashes[3];
    frost_jenkins_vector(bdz->seed, key, length, hashes);
    return frost_bdz_ph_vertex(bdz, hashes);
}

/// The inline evaluator's value for an 8-byte key (salt already applied): the hot path of a
/// resolve by type.
static inline uint32_t frost_inline_search8(const inline_bdz_ph *bdz, uint64_t key) {
    uint8_t bytes[8];
    memcpy(bytes, &key, 8);
    uint32_t a = 0x9e3779b9u + frost_key_word(bytes);
    uint32_t b = 0x9e3779b9u + frost_key_word(bytes + 4);
    uint32_t c = bdz->seed + 8;
    FROST_JENKINS_MIX(a, b, c);
    uint32_t hashes[3] = {a, b, c};
    return frost_bdz_ph_vertex(bdz, hashes);
}

#endif  // CFROST_BDZ_PH_H
