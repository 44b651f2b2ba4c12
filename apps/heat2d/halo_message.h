// The one message heat2d tasks exchange: a tile's edge row or column at the start of a step,
// sent to the neighbour on that side. The receiver knows the side from the sender's index.
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
