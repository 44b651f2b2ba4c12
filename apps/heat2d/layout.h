// heat2d's decomposition while a job runs: for every task index of the job, the rectangle of the
// grid it owns, or none (a spare task). Every task holds the same Layout and applies the root's
// GrainChanges to it by the same rules, so all of them agree on who owns what, who neighbours
// whom and which changes were ignored, without talking to each other. Pure integer logic.
// Invariant (problem() checks it on load): the tiles are non-empty, disjoint, and cover the grid.
#pragma once

#include <cereal/cereal.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/tiling.h"
#include "apps/heat2d/wire_optional.h"
#include <drift/types.h>

namespace drift::heat2d {

// A rectangle of the grid in global coordinates, rows and columns half-open.
struct Rect {
  Range rows;
  Range cols;

  std::uint64_t cells() const { return std::uint64_t{rows.size()} * cols.size(); }
  bool contains(const Rect& inner) const;
  friend bool operator==(const Rect&, const Rect&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(rows, cols);
  }
};

// "rows [1, 5) x columns [0, 4)", for error messages.
std::string to_string(const Rect& r);

// The split rule: the longer side (rows when rows >= columns) is cut into a first part (north or
// west) of floor(n / 2) rows or columns and a second part (south or east) of the rest. The task
// that splits keeps the first part; the spare task takes the second. Needs r.cells() >= 2, which
// makes both parts non-empty.
std::pair<Rect, Rect> halves(const Rect& r);

// The union of two tiles when it is a rectangle: they share one full side.
std::optional<Rect> rect_union(const Rect& a, const Rect& b);

// A tile that shares a stretch of edge with another.
struct Neighbour {
  std::uint32_t index = 0;  // its task
  Side side = kNorth;       // the side of this tile it lies on
  Range overlap;            // shared stretch: columns (north, south) or rows (west, east)
  friend bool operator==(const Neighbour&, const Neighbour&) = default;
};

class Layout {
 public:
  Layout() = default;
  Layout(std::uint32_t width, std::uint32_t height, std::vector<std::optional<Rect>> tiles)
      : width_(width), height_(height), tiles_(std::move(tiles)) {}

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  std::uint32_t tasks() const { return static_cast<std::uint32_t>(tiles_.size()); }
  // nullopt for a spare task or an index out of range.
  std::optional<Rect> tile(std::uint32_t index) const;

  // Task t has a tile of at least 2 cells (so at least 2 rows or 2 columns).
  bool can_split(std::uint32_t t) const;
  // Spare task d takes the second half of t's tile (halves()). False, and nothing changes, when
  // t cannot split or d is not a spare task of this layout.
  bool split(std::uint32_t t, std::uint32_t d);
  // Task t takes p's whole tile, p becomes spare. False, and nothing changes, unless t != p are
  // both active and their tiles share one full side.
  bool merge(std::uint32_t t, std::uint32_t p);
  // The lowest-index task t could merge with; nullopt if none or t is spare.
  std::optional<std::uint32_t> merge_partner(std::uint32_t t) const;

  // Applies a step's changes in order and returns those that applied. A change is ignored when
  // split() or merge() refuses it, or when one of its two indices was named by an earlier change
  // of the list (applied or not): each task takes part in at most one change per step.
  std::vector<GrainChange> apply(const std::vector<GrainChange>& changes);

  // Every tile sharing a stretch of edge with `index`'s, by task index; empty for a spare task.
  std::vector<Neighbour> adjacent(std::uint32_t index) const;

  // Empty when this is a valid layout of a width x height grid for `tasks` tasks; else what is
  // wrong with it, for a WireError.
  std::string problem(std::uint32_t width, std::uint32_t height, std::uint32_t tasks) const;

  friend bool operator==(const Layout&, const Layout&) = default;

  // Per task a wire bool (has a tile), then the tile. Loading takes any length the archive
  // allows (at least one byte per entry); problem() then checks it against the job.
  template <class Archive>
  void serialize(Archive& ar) {
    ar(width_, height_);
    cereal::size_type n = tiles_.size();
    ar(cereal::make_size_tag(n));
    if constexpr (Archive::is_loading::value) {
      tiles_.clear();
      for (cereal::size_type i = 0; i < n; ++i) wire_optional(ar, tiles_.emplace_back());
    } else {
      for (std::optional<Rect>& tile : tiles_) wire_optional(ar, tile);
    }
  }

 private:
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  std::vector<std::optional<Rect>> tiles_;
};

// The job's layout at step 0: make_tiling's tiles for task indices [0, tiles), the last `spare`
// indices spare. params must be valid (parse_params).
Layout initial_layout(const Params& params);

}  // namespace drift::heat2d
