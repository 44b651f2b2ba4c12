// A heat2d task's tile in memory: the cells of its rectangle of the grid plus a one-cell halo ring
// that holds copies of the neighbours' edge cells, addressed in global grid coordinates. Runs the
// Jacobi sweep over the tile's interior cells (those not on the grid's fixed boundary), cuts out
// and pastes in sub-rectangles when tiles split or merge, and sums the tile's checksum.
// An empty TileCells (a spare task's) has no cells at all.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/heat2d/jacobi_kernel.h"
#include "apps/heat2d/layout.h"
#include <drift/wire_field.h>

namespace drift::heat2d {

class TileCells {
 public:
  TileCells() = default;
  // rect's cells and halo ring, all 0.
  explicit TileCells(const Rect& rect);
  // rect's cells at step 0 (initial_condition.h) of a width x height grid.
  static TileCells initial(const Rect& rect, std::uint32_t width, std::uint32_t height);

  const Rect& rect() const { return rect_; }
  bool empty() const { return values_.empty(); }

  // The owned cells along `side` over `stretch` (global columns for north and south, rows for
  // west and east, within the tile's), west to east or north to south.
  std::vector<double> edge(Side side, const Range& stretch) const;
  // A neighbour's edge into the halo ring along `side` over `stretch`; values.size() must be
  // stretch.size().
  void set_halo(Side side, const Range& stretch, std::span<const double> values);

  // The owned cells of `part` (inside rect()), row-major; paste() writes them back.
  std::vector<double> copy(const Rect& part) const;
  void paste(const Rect& part, std::span<const double> values);
  // This tile's cells moved to `to` (none: empty): cells owned by both keep their values, the
  // rest (and the halo ring) are 0.
  TileCells reshaped(const std::optional<Rect>& to) const;

  // The owned cells that are not on the boundary of the width x height grid, as a window of the
  // halo-ringed array; sweep() updates them (the halo ring must hold the neighbours' edges).
  Window interior(std::uint32_t width, std::uint32_t height) const;
  SweepStats sweep(const Window& interior);

  // Sum of the owned cells' digests (checksum.h) in a grid `width` cells wide; 0 when empty.
  std::uint64_t checksum(std::uint32_t width) const;

  // The rect, then every value, halo ring included (the sweep reads no halo cell a neighbour
  // has not refreshed since, but a round trip keeps the bytes identical).
  template <class Archive>
  void serialize(Archive& ar) {
    ar(rect_, values_);
    if constexpr (Archive::is_loading::value) {
      scratch_.clear();
      if (std::string why = size_problem(); !why.empty()) throw WireError(why);
    }
  }

 private:
  std::size_t stride() const { return rect_.cols.size() + std::size_t{2}; }
  // Where the owned cell (row, col) of the grid is in values_.
  std::size_t at(std::uint32_t row, std::uint32_t col) const;
  // Where cell `along` of the owned edge (halo false) or the halo (true) on `side` is.
  std::size_t ring_at(Side side, bool halo, std::uint32_t along) const;
  std::string size_problem() const;

  Rect rect_;
  std::vector<double> values_;  // (rows + 2) x (cols + 2), row-major; empty when rect_ is
  // The sweep's output buffer, not state: equal to values_ on every owned cell outside the
  // interior, which never change; dropped whenever owned cells are replaced.
  std::vector<double> scratch_;
};

}  // namespace drift::heat2d
