// The message that moves cells when heat2d tiles split or merge: part of a rectangle of the grid,
// from the task that gives it up to the task that adopts it. Both know the rectangle from the
// layout they share (layout.h); the values are its cells row-major, cut into pieces that keep a
// payload at most 1 MiB (frames are limited to 8 MiB) and sent in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drift::heat2d {

inline constexpr std::uint32_t kPieceTag = 2;

// A piece's payload: 1 flag byte, step, offset and the values' length (8 bytes each), values.
inline constexpr std::size_t kMaxPieceBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxPieceValues = (kMaxPieceBytes - 25) / sizeof(double);

struct PieceMessage {
  std::uint64_t step = 0;      // the first sweep the adopting task runs on these cells
  std::uint64_t offset = 0;    // of values[0] among the rectangle's cells, row-major
  std::vector<double> values;  // never empty

  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, offset, values);
  }
};

}  // namespace drift::heat2d
