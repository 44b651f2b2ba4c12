// A rectangle of heat2d's grid from its row and column ranges [r0, r1) x [c0, c1), as the layout
// and tile-cell tests write them.
#pragma once

#include <cstdint>

#include "apps/heat2d/layout.h"

namespace drift::heat2d {

inline Rect rect(std::uint32_t r0, std::uint32_t r1, std::uint32_t c0, std::uint32_t c1) {
  return Rect{Range{r0, r1}, Range{c0, c1}};
}

}  // namespace drift::heat2d
