#ifndef FROST_CCMPH_SHIM_H
#define FROST_CCMPH_SHIM_H
// cmph 2.0.2 (Debian libcmph-dev). Only CFrost calls it.
#include <cmph.h>
#endif
