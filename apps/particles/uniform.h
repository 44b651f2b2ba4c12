// Uniform doubles from the apps' splitmix64 generator (apps/common/digest.h): the top 53 bits
// scaled by 2^-53, an exact conversion, so every platform draws the same values.
#pragma once

#include "apps/common/digest.h"

namespace drift::particles {

// Uniform in [0, 1).
inline double uniform(apps::SplitMix64& rng) {
  return static_cast<double>(rng.next() >> 11) * 0x1.0p-53;
}

}  // namespace drift::particles
