// Tiling of the heat2d grid (tiling.h).
#include "apps/heat2d/tiling.h"

#include <algorithm>

namespace drift::heat2d {
namespace {

// parts + 1 cuts over [0, total): the interior [1, total-1) split into `parts` blocks of
// floor/ceil size, the first and last block extended to the boundary.
std::vector<std::uint32_t> cuts(std::uint32_t total, std::uint32_t parts) {
  const std::uint64_t interior = total - 2;
  std::vector<std::uint32_t> c(parts + 1);
  for (std::uint32_t k = 0; k <= parts; ++k) {
    c[k] = static_cast<std::uint32_t>(1 + k * interior / parts);
  }
  c.front() = 0;
  c.back() = total;
  return c;
}

// How far a tile of the factorization (px, py) is from square: >= 1, 1 = square.
double elongation(std::uint64_t interior_w, std::uint64_t interior_h, std::uint64_t px,
                  std::uint64_t py) {
  // tile width / tile height = (interior_w / px) / (interior_h / py); both products < 2^53.
  const double a = static_cast<double>(interior_w * py);
  const double b = static_cast<double>(interior_h * px);
  return a > b ? a / b : b / a;
}

}  // namespace

Side opposite(Side s) {
  switch (s) {
    case kNorth:
      return kSouth;
    case kSouth:
      return kNorth;
    case kWest:
      return kEast;
    case kEast:
      return kWest;
  }
  return kNorth;
}

std::optional<Tiling> make_tiling(std::uint32_t width, std::uint32_t height, std::uint32_t tasks) {
  if (width < 3 || height < 3 || tasks == 0) return std::nullopt;
  const std::uint32_t iw = width - 2;
  const std::uint32_t ih = height - 2;
  std::optional<Tiling> best;
  double best_elongation = 0;
  auto consider = [&](std::uint32_t px, std::uint32_t py) {
    if (px > iw || py > ih) return;
    const double e = elongation(iw, ih, px, py);
    if (best && (e > best_elongation || (e == best_elongation && py <= best->py))) return;
    best = Tiling{px, py, {}, {}};
    best_elongation = e;
  };
  for (std::uint32_t d = 1; static_cast<std::uint64_t>(d) * d <= tasks; ++d) {
    if (tasks % d != 0) continue;
    consider(d, tasks / d);
    consider(tasks / d, d);
  }
  if (best) {
    best->col_cuts = cuts(width, best->px);
    best->row_cuts = cuts(height, best->py);
  }
  return best;
}

Tile tile_of(const Tiling& t, std::uint32_t index) {
  const std::uint32_t tx = index % t.px;
  const std::uint32_t ty = index / t.px;
  Tile tile;
  tile.cols = {t.col_cuts[tx], t.col_cuts[tx + 1]};
  tile.rows = {t.row_cuts[ty], t.row_cuts[ty + 1]};
  if (ty > 0) tile.neighbour[kNorth] = index - t.px;
  if (ty + 1 < t.py) tile.neighbour[kSouth] = index + t.px;
  if (tx > 0) tile.neighbour[kWest] = index - 1;
  if (tx + 1 < t.px) tile.neighbour[kEast] = index + 1;
  return tile;
}

}  // namespace drift::heat2d
