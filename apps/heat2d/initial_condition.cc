// heat2d's initial and boundary values (initial_condition.h). Only exactly rounded IEEE
// operations (integer -> double conversion, one division, one multiplication), so every
// platform computes the same bits.
#include "apps/heat2d/initial_condition.h"

namespace drift::heat2d {

bool is_boundary(std::uint32_t row, std::uint32_t col, std::uint32_t width, std::uint32_t height) {
  return row == 0 || col == 0 || row + 1 == height || col + 1 == width;
}

double initial_value(std::uint32_t row, std::uint32_t col, std::uint32_t width,
                     std::uint32_t height) {
  if (row == 0) return 100.0;
  if (row + 1 == height) return 50.0 * (static_cast<double>(col) / (width - 1));
  if (col == 0) return 100.0 * (static_cast<double>(height - 1 - row) / (height - 1));
  if (col + 1 == width) return 0.0;
  // Hot square: |row - H/3| <= H/8 and |col - 2W/3| <= W/8, in integers.
  const std::int64_t dr = static_cast<std::int64_t>(row) - height / 3;
  const std::int64_t dc = static_cast<std::int64_t>(col) - 2 * static_cast<std::int64_t>(width) / 3;
  const std::int64_t hr = height / 8;
  const std::int64_t hc = width / 8;
  if (dr >= -hr && dr <= hr && dc >= -hc && dc <= hc) return 80.0;
  return 0.0;
}

}  // namespace drift::heat2d
