// A heat2d task's tile in memory (tile_cells.h).
#include "apps/heat2d/tile_cells.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "apps/heat2d/checksum.h"
#include "apps/heat2d/initial_condition.h"

namespace drift::heat2d {

TileCells::TileCells(const Rect& rect)
    : rect_(rect),
      values_(rect.cells() == 0 ? 0 : (rect.rows.size() + std::size_t{2}) * stride(), 0.0) {}

TileCells TileCells::initial(const Rect& rect, std::uint32_t width, std::uint32_t height) {
  TileCells t(rect);
  for (std::uint32_t r = rect.rows.begin; r < rect.rows.end; ++r) {
    for (std::uint32_t c = rect.cols.begin; c < rect.cols.end; ++c) {
      t.values_[t.at(r, c)] = initial_value(r, c, width, height);
    }
  }
  return t;
}

std::size_t TileCells::at(std::uint32_t row, std::uint32_t col) const {
  return (std::size_t{row} - rect_.rows.begin + 1) * stride() + (col - rect_.cols.begin + 1);
}

std::size_t TileCells::ring_at(Side side, bool halo, std::uint32_t along) const {
  const std::size_t rows = rect_.rows.size(), cols = rect_.cols.size();
  switch (side) {
    case kNorth:
      return (halo ? 0 : 1) * stride() + (along - rect_.cols.begin + 1);
    case kSouth:
      return (halo ? rows + 1 : rows) * stride() + (along - rect_.cols.begin + 1);
    case kWest:
      return (std::size_t{along} - rect_.rows.begin + 1) * stride() + (halo ? 0 : 1);
    case kEast:
      return (std::size_t{along} - rect_.rows.begin + 1) * stride() + (halo ? cols + 1 : cols);
  }
  return 0;
}

std::vector<double> TileCells::edge(Side side, const Range& stretch) const {
  std::vector<double> out;
  out.reserve(stretch.size());
  for (std::uint32_t k = stretch.begin; k < stretch.end; ++k) {
    out.push_back(values_[ring_at(side, false, k)]);
  }
  return out;
}

void TileCells::set_halo(Side side, const Range& stretch, std::span<const double> values) {
  assert(values.size() == stretch.size());
  for (std::uint32_t k = stretch.begin; k < stretch.end; ++k) {
    values_[ring_at(side, true, k)] = values[k - stretch.begin];
  }
}

std::vector<double> TileCells::copy(const Rect& part) const {
  assert(rect_.contains(part));
  std::vector<double> out;
  out.reserve(part.cells());
  for (std::uint32_t r = part.rows.begin; r < part.rows.end; ++r) {
    const auto row = values_.begin() + static_cast<std::ptrdiff_t>(at(r, part.cols.begin));
    out.insert(out.end(), row, row + part.cols.size());
  }
  return out;
}

void TileCells::paste(const Rect& part, std::span<const double> values) {
  assert(rect_.contains(part) && values.size() == part.cells());
  for (std::uint32_t r = part.rows.begin; r < part.rows.end; ++r) {
    const auto row =
        values.subspan((r - part.rows.begin) * std::size_t{part.cols.size()}, part.cols.size());
    std::copy(row.begin(), row.end(),
              values_.begin() + static_cast<std::ptrdiff_t>(at(r, part.cols.begin)));
  }
  scratch_.clear();
}

TileCells TileCells::reshaped(const std::optional<Rect>& to) const {
  if (!to) return TileCells();
  TileCells out(*to);
  if (empty()) return out;
  const Rect both{
      Range{std::max(rect_.rows.begin, to->rows.begin), std::min(rect_.rows.end, to->rows.end)},
      Range{std::max(rect_.cols.begin, to->cols.begin), std::min(rect_.cols.end, to->cols.end)}};
  if (both.rows.begin < both.rows.end && both.cols.begin < both.cols.end) {
    out.paste(both, copy(both));
  }
  return out;
}

Window TileCells::interior(std::uint32_t width, std::uint32_t height) const {
  const auto local = [](std::uint32_t global, const Range& r) {
    return static_cast<std::size_t>(global) - r.begin + 1;
  };
  const std::uint32_t r0 = std::max(rect_.rows.begin, 1u);
  const std::uint32_t r1 = std::min(rect_.rows.end, height - 1);
  const std::uint32_t c0 = std::max(rect_.cols.begin, 1u);
  const std::uint32_t c1 = std::min(rect_.cols.end, width - 1);
  // A tile of boundary cells only gets an empty window (r0 == r1 or c0 == c1).
  return Window{local(r0, rect_.rows), local(std::max(r0, r1), rect_.rows), local(c0, rect_.cols),
                local(std::max(c0, c1), rect_.cols)};
}

SweepStats TileCells::sweep(const Window& interior) {
  if (scratch_.size() != values_.size()) scratch_ = values_;
  const SweepStats stats = jacobi_sweep(values_, scratch_, stride(), interior);
  std::swap(values_, scratch_);
  return stats;
}

std::uint64_t TileCells::checksum(std::uint32_t width) const {
  if (empty()) return 0;
  const Window owned{1, rect_.rows.size() + std::size_t{1}, 1, rect_.cols.size() + std::size_t{1}};
  return block_checksum(values_, stride(), owned, std::int64_t{rect_.rows.begin} - 1,
                        std::int64_t{rect_.cols.begin} - 1, width);
}

std::string TileCells::size_problem() const {
  const Range& rows = rect_.rows;
  const Range& cols = rect_.cols;
  if (rows.begin > rows.end || cols.begin > cols.end) {
    return "tile cells of a malformed rectangle (" + to_string(rect_) + ")";
  }
  const bool no_cells = rows.size() == 0 || cols.size() == 0;
  const std::uint64_t expected =
      no_cells ? 0 : (std::uint64_t{rows.size()} + 2) * (std::uint64_t{cols.size()} + 2);
  if (values_.size() != expected) {
    return std::to_string(values_.size()) + " tile cells for " + to_string(rect_) + ", expected " +
           std::to_string(expected);
  }
  return "";
}

}  // namespace drift::heat2d
