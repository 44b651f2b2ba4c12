// heat2d's grid checksum (checksum.h).
#include "apps/heat2d/checksum.h"

#include <bit>

namespace drift::heat2d {

std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t cell_digest(std::uint64_t global_index, double value) {
  static_assert(sizeof(double) == 8);
  // The index goes through mix64 first so that equal values at nearby cells do not cancel.
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
  return mix64(bits ^ mix64(global_index + 0x9e3779b97f4a7c15ULL));
}

std::uint64_t block_checksum(std::span<const double> data, std::size_t stride, const Window& w,
                             std::int64_t row_offset, std::int64_t col_offset,
                             std::uint32_t width) {
  std::uint64_t sum = 0;
  for (std::size_t r = w.row_begin; r < w.row_end; ++r) {
    const std::uint64_t grid_row =
        static_cast<std::uint64_t>(static_cast<std::int64_t>(r) + row_offset);
    for (std::size_t c = w.col_begin; c < w.col_end; ++c) {
      const std::uint64_t grid_col =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(c) + col_offset);
      sum += cell_digest(grid_row * width + grid_col, data[r * stride + c]);
    }
  }
  return sum;
}

std::string format_checksum(std::uint64_t checksum) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i) {
    s[static_cast<std::size_t>(i)] = kHex[checksum & 0xf];
    checksum >>= 4;
  }
  return s;
}

}  // namespace drift::heat2d
