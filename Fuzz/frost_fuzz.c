// libFuzzer target for CFrost: builds a table from fuzzed key sets (any lengths, any bytes,
// duplicates, forced ladder rungs and salts), with the names given at creation or later
// (frost_table_name_keys), looks every key up by identity and by name, looks non-keys up, and
// destroys the table. Built and run by `make fuzz` (FUZZ_SECONDS).
//
// Input: byte 0 picks the first rung, the salt round and when names are given; then records
// of [identity length][identity bytes][name length][name bytes], lengths as one byte.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CFrost.h"

static void release_nothing(void *instance) { (void)instance; }

static void check(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "frost-fuzz: %s\n", what);
        abort();
    }
}

/// A name's small image (see frost_table_lookup_small_name): 1 when it has one (at most
/// FROST_SMALL_NAME bytes).
static int small_image(const uint8_t *name, uint32_t length, uint64_t *low, uint64_t *high) {
    if (length > FROST_SMALL_NAME) return 0;
    uint8_t bytes[16] = {0};
    uint8_t seen = 0;
    for (uint32_t b = 0; b < length; b++) seen |= name[b];
    memcpy(bytes, name, length);
    memcpy(low, bytes, 8);
    memcpy(high, bytes + 8, 8);
    *high |= (uint64_t)((seen >= 0x80 ? 0xA0 : 0xE0) | length) << 56;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    frost_build_options options = {data[0] % FROST_RUNG_COUNT, (data[0] >> 4) % 3, 8};
    frost_key keys[512];
    uint32_t count = 0;
    size_t at = 1;
    while (count < 512 && at < size) {
        uint32_t identity_length = data[at++];
        if (at + identity_length > size) break;
        const uint8_t *identity = data + at;
        at += identity_length;
        if (at >= size) break;
        uint32_t name_length = data[at++];
        if (at + name_length > size) break;
        const uint8_t *name = data + at;
        at += name_length;
        keys[count++] = (frost_key){identity, name, identity_length, name_length};
    }

    // Names later: the table is created from identities alone, then named.
    int names_later = (data[0] >> 3) & 1;
    frost_key identities[512];
    frost_bytes names[512];
    for (uint32_t i = 0; i < count; i++) {
        identities[i] = (frost_key){keys[i].identity, NULL, keys[i].identity_length, 0};
        names[i] = (frost_bytes){keys[i].name, keys[i].name_length};
    }

    frost_table *table = NULL;
    uint32_t duplicate = 0;
    frost_status status = frost_table_create(names_later ? identities : keys, count,
                                             release_nothing, &options, &table, &duplicate);
    if (status == FROST_OK && names_later) {
        check(frost_table_is_named(table) != 1 || count == 0, "a table without names is named");
        for (uint32_t i = 0; i < count; i++) {
            check(frost_table_find_name(table, keys[i].name, keys[i].name_length)
                      == FROST_NOT_FOUND || keys[i].name_length == 0,
                  "a table without names found a name");
        }
        status = frost_table_name_keys(table, names, count, &duplicate);
        if (status != FROST_OK) {
            check(frost_table_is_named(table) != 1, "a failed naming left the table named");
            frost_table_destroy(table);
            table = NULL;
        } else {
            check(frost_table_name_keys(table, names, count, NULL) == FROST_ERROR_ALREADY_NAMED,
                  "a table was named twice");
        }
    }
    if (status != FROST_OK) {
        check(table == NULL, "a failed build returned a table");
        check(status == FROST_ERROR_EMPTY_KEY || status == FROST_ERROR_DUPLICATE,
              "a build failed for a reason other than an empty or duplicate key");
        return 0;
    }
    check(frost_table_count(table) == count, "count");
    frost_slot *slots = frost_table_slots(table);
    uint32_t capacity = frost_table_capacity(table);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t slot = frost_table_find_identity(table, keys[i].identity, keys[i].identity_length);
        check(slot < capacity, "a key has no slot");
        check(slots[slot].index == i, "a key found another key's slot");
        // A table created from keys without names (every name empty) has none.
        if (frost_table_is_named(table) == 1) {
            check(frost_table_find_name(table, keys[i].name, keys[i].name_length) == slot,
                  "name and identity disagree");
        } else {
            check(!names_later && keys[i].name_length == 0, "a table with names is not named");
        }
        if (keys[i].identity_length >= 9) {
            // A key shaped as a named one (8 bytes, a separator, a name): assembled by CFrost.
            uint64_t identity;
            memcpy(&identity, keys[i].identity, 8);
            int non_ascii = -1;
            check(frost_table_find_named(table, identity, keys[i].identity[8],
                                         keys[i].identity + 9, keys[i].identity_length - 9,
                                         &non_ascii) == slot && non_ascii == 0,
                  "find_named disagrees");
            uint64_t low, high;
            if (small_image(keys[i].identity + 9, keys[i].identity_length - 9, &low, &high)) {
                frost_found found = frost_table_lookup_small_name(table, identity,
                                                                  keys[i].identity[8], low, high);
                check(found.slot == slot, "lookup_small_name disagrees");
                // Images no String has (the other ASCII flag, a byte set past the name): a
                // hit can only be the key of the name's first `length` bytes.
                uint32_t length = keys[i].identity_length - 9;
                uint64_t odd[2][2] = {{low, high ^ (1ull << 62)},
                                      {length < 8 ? low | 0xA5ull << (8 * length) : low,
                                       length >= 8 && length < 15
                                           ? high | 0x5Aull << (8 * (length - 8))
                                           : high}};
                for (int k = 0; k < 2; k++) {
                    frost_found other = frost_table_lookup_small_name(
                        table, identity, keys[i].identity[8], odd[k][0], odd[k][1]);
                    check(other.slot == slot || other.slot == UINT64_MAX,
                          "lookup_small_name found another key for an odd image");
                }
            }
        }
        if (keys[i].identity_length == 8) {
            uint64_t identity;
            memcpy(&identity, keys[i].identity, 8);
            check(frost_table_find_identity8(table, identity) == slot, "identity8 disagrees");
            // lookup8 answers the slot and its instance (preset: any non-NULL marker).
            check(frost_cell_preset(&slots[slot].cell, &slots[slot]), "preset refused");
            frost_found found = frost_table_lookup8(table, identity);
            check(found.slot == slot && found.instance == &slots[slot], "lookup8 disagrees");
        }
    }
    // Non-keys: every key with its last byte changed; a hit must be a real key.
    for (uint32_t i = 0; i < count; i++) {
        uint8_t probe[256];
        uint32_t length = keys[i].identity_length;
        if (length == 0) continue;
        memcpy(probe, keys[i].identity, length);
        probe[length - 1] ^= 0x5a;
        uint32_t slot = frost_table_find_identity(table, probe, length);
        if (length >= 9) {
            uint64_t identity;
            memcpy(&identity, probe, 8);
            int non_ascii = -1;
            uint32_t named = frost_table_find_named(table, identity, probe[8], probe + 9,
                                                    length - 9, &non_ascii);
            check(named == slot, "find_named disagrees on a non-key");
            uint64_t low, high;
            if (small_image(probe + 9, length - 9, &low, &high)) {
                frost_found found = frost_table_lookup_small_name(table, identity, probe[8], low,
                                                                  high);
                check(found.slot == (named == FROST_NOT_FOUND ? UINT64_MAX : named),
                      "lookup_small_name disagrees on a non-key");
            }
            uint8_t seen = 0;
            for (uint32_t b = 9; b < length; b++) seen |= probe[b];
            check(non_ascii == (named == FROST_NOT_FOUND && seen >= 0x80),
                  "find_named's non-ASCII answer");
        }
        if (slot != FROST_NOT_FOUND) {
            check(slot < capacity, "a non-key found a slot out of bounds");
            check(slots[slot].identity_length == length &&
                      memcmp(slots[slot].identity, probe, length) == 0,
                  "a non-key found another key's slot");
        }
        // The inline BDZ_PH evaluator computes cmph's own function: same value for any key.
        for (uint32_t which = 0; which < 2; which++) {
            check(frost_table_function_value(table, which, probe, length, 1)
                      == frost_table_function_value(table, which, probe, length, 0),
                  "the inline evaluator disagrees with cmph_search");
        }
    }
    frost_table_destroy(table);
    return 0;
}
