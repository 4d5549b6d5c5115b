// CFrost's internal declarations, shared by its source files (not part of the contract).
//
// Layering: a file uses only the files listed below it, and none calls back up.
//
//   table.c     the table. Uses ladder.c (build, search and free a function), bdz_ph.h (the
//               inline 8-byte search), creation.c (frost_cell_take) and context.c
//               (frost_forget_hazards); it calls no cmph function itself.
//   ladder.c    one function: builds it (cmph), chooses its evaluator after a one-time
//               calibration, searches and frees it. Uses bdz_ph.c (make and free the inline
//               evaluator) and bdz_ph.h.
//   bdz_ph.c    the inline BDZ_PH evaluator, made from a function ladder.c hands it (cmph_pack)
//               and checked against the values ladder.c measured. Uses bdz_ph.h only.
//   creation.c  cells and their create-once protocol. Uses context.c (the calling thread's
//               context, frost_context_count). Includes CFrost.h only, not this header.
//   context.c   contexts and reclamation. Uses none of the others; includes CFrost.h only.
//
// Only ladder.c and bdz_ph.c call cmph: ladder.c makes, searches and destroys a function's
// cmph_t, and hands it to bdz_ph.c to be read (cmph_pack) while it chooses the evaluator.
//
// The declarations below follow that order from the bottom: bdz_ph.c's, then ladder.c's.
// Each .c file's opening comment says which allocations it owns and where each is freed.

#ifndef CFROST_INTERNAL_H
#define CFROST_INTERNAL_H

#include "CFrost.h"

#include <cmph.h>

/// A key as cmph sees it: bytes and a length.
typedef struct key_view {
    const uint8_t *bytes;
    uint32_t length;
} key_view;

/// cmph's BDZ_PH function evaluated inline: the same function (cmph built it, and cmph_pack
/// exported its seed, r and g), computed without cmph_search's dispatch, generic Jenkins loop
/// and three divisions. Enabled only after it agreed with cmph_search on every key.
typedef struct inline_bdz_ph {
    uint8_t *digits;     // g unpacked: one base-3 digit per vertex (3r bytes; cmph packs 5 per
                         // byte), so a search reads each vertex's digit in one load. Made by
                         // frost_inline_bdz_ph_make, freed by frost_inline_bdz_ph_free
    uint32_t seed;       // the Jenkins seed
    uint32_t r;          // vertices per part (3 parts)
    uint64_t r_inverse;  // for an exact a % r by multiplication (Lemire's fastmod)
} inline_bdz_ph;

/// One perfect-hash function of a table: identity bytes -> slot, or name bytes -> name index.
typedef struct frost_function {
    cmph_t *mphf;       // searched with cmph_search; NULL for 0 keys. Made by cmph_new in
                        // ladder.c, destroyed by frost_function_free
    uint64_t salt;      // XOR mask over the first 8 bytes of a key; 0 for unsalted keys
    inline_bdz_ph bdz;  // valid when info.evaluator != FROST_EVALUATOR_CMPH
    frost_function_info info;
} frost_function;

// bdz_ph.c (uses none of the other files)

/// Exports a BDZ_PH function with cmph_pack into `*evaluator` and checks it against `values`
/// (cmph_search's value for each key). Returns 1 when it agrees on every key: the evaluator
/// then holds digits that only frost_inline_bdz_ph_free frees. Returns 0 otherwise, with
/// `*evaluator` empty and nothing allocated. `mphf` is only read.
int frost_inline_bdz_ph_make(cmph_t *mphf, const key_view *keys, uint32_t count,
                             const uint32_t *values, inline_bdz_ph *evaluator);

/// Frees an evaluator's digits and empties it (an empty one is left alone): the one free of
/// what frost_inline_bdz_ph_make allocates.
void frost_inline_bdz_ph_free(inline_bdz_ph *evaluator);

// ladder.c (uses bdz_ph.c)

/// Builds a perfect-hash function over distinct, non-empty keys, climbing the ladder; writes
/// each key's value into `values`. The inline evaluator (bdz_ph.c) is enabled when this libcmph
/// passed the calibration and the evaluator agrees with cmph_search on every key.
frost_status frost_build_function(const key_view *keys, uint32_t count,
                                  const frost_build_options *options, frost_function *function,
                                  uint32_t *values);

/// Frees everything a function holds (its cmph function, through cmph_destroy, and its inline
/// evaluator, through frost_inline_bdz_ph_free) and leaves it as the function of 0 keys. The
/// one free of a frost_function, whoever built it.
void frost_function_free(frost_function *function);

/// The function's value for any key: salt applied, through the evaluator lookups use.
uint32_t frost_function_search(const frost_function *function, const void *bytes,
                               uint32_t length);

/// The function's value for a key whose salt is already applied, through cmph_search (the
/// function must have keys): how the other files reach cmph_search, which they never call
/// themselves.
uint32_t frost_function_cmph_search(const frost_function *function, const void *bytes,
                                    uint32_t length);

/// The function's value for a key whose salt is already applied: through cmph_search or, when
/// enabled, the inline evaluator.
uint32_t frost_function_raw_search(const frost_function *function, const void *bytes,
                                   uint32_t length);

/// XORs the first min(8, length) bytes of `bytes` with the salt: a bijection on keys of each
/// length, so distinct keys stay distinct.
void frost_apply_salt(uint8_t *bytes, uint32_t length, uint64_t salt);

/// The input position of a key that repeats an earlier one, FROST_NOT_FOUND when all are
/// distinct, or FROST_NOT_FOUND - 1 when memory ran out.
uint32_t frost_find_duplicate(const key_view *keys, uint32_t count);

#endif  // CFROST_INTERNAL_H
