// The message heat2d tasks exchange every step: the stretch of a tile's edge it shares with one
// neighbouring tile, at the start of a step. The receiver finds the side and the stretch from the
// sender's index in the layout of that step (layout.h).
#pragma once

#include <cstdint>
#include <vector>

namespace drift::heat2d {

inline constexpr std::uint32_t kHaloTag = 1;

struct HaloMessage {
  std::uint64_t step = 0;      // the sweep these values are the input of (0-based)
  std::vector<double> values;  // west -> east for a row, north -> south for a column

  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, values);
  }
};

}  // namespace drift::heat2d
