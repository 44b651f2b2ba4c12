// heat2d's decomposition while a job runs (layout.h).
#include "apps/heat2d/layout.h"

#include <algorithm>

namespace drift::heat2d {
namespace {

// The stretch two ranges share; empty (begin >= end) when they do not meet.
Range common(const Range& a, const Range& b) {
  return Range{std::max(a.begin, b.begin), std::min(a.end, b.end)};
}

bool overlaps(const Rect& a, const Rect& b) {
  const Range rows = common(a.rows, b.rows), cols = common(a.cols, b.cols);
  return rows.begin < rows.end && cols.begin < cols.end;
}

// Where b touches a along a stretch of edge: on which side of a, and the shared stretch.
std::optional<Neighbour> touching(const Rect& a, std::uint32_t b_index, const Rect& b) {
  const auto side = [&](Side s, const Range& stretch) -> std::optional<Neighbour> {
    if (stretch.begin >= stretch.end) return std::nullopt;
    return Neighbour{b_index, s, stretch};
  };
  if (b.rows.end == a.rows.begin) return side(kNorth, common(a.cols, b.cols));
  if (b.rows.begin == a.rows.end) return side(kSouth, common(a.cols, b.cols));
  if (b.cols.end == a.cols.begin) return side(kWest, common(a.rows, b.rows));
  if (b.cols.begin == a.cols.end) return side(kEast, common(a.rows, b.rows));
  return std::nullopt;
}

// Two ranges that meet end to begin, as one.
std::optional<Range> joined(const Range& a, const Range& b) {
  if (a.end == b.begin) return Range{a.begin, b.end};
  if (b.end == a.begin) return Range{b.begin, a.end};
  return std::nullopt;
}

}  // namespace

bool Rect::contains(const Rect& inner) const {
  return rows.begin <= inner.rows.begin && inner.rows.end <= rows.end &&
         cols.begin <= inner.cols.begin && inner.cols.end <= cols.end;
}

std::string to_string(const Rect& r) {
  return "rows [" + std::to_string(r.rows.begin) + ", " + std::to_string(r.rows.end) +
         ") x columns [" + std::to_string(r.cols.begin) + ", " + std::to_string(r.cols.end) + ")";
}

std::pair<Rect, Rect> halves(const Rect& r) {
  const bool cut_rows = r.rows.size() >= r.cols.size();
  const Range& cut = cut_rows ? r.rows : r.cols;
  const std::uint32_t middle = cut.begin + cut.size() / 2;
  Rect first = r, second = r;
  (cut_rows ? first.rows : first.cols).end = middle;
  (cut_rows ? second.rows : second.cols).begin = middle;
  return {first, second};
}

std::optional<Rect> rect_union(const Rect& a, const Rect& b) {
  if (a.rows == b.rows) {
    if (const auto cols = joined(a.cols, b.cols)) return Rect{a.rows, *cols};
  }
  if (a.cols == b.cols) {
    if (const auto rows = joined(a.rows, b.rows)) return Rect{*rows, a.cols};
  }
  return std::nullopt;
}

std::optional<Rect> Layout::tile(std::uint32_t index) const {
  return index < tiles_.size() ? tiles_[index] : std::nullopt;
}

bool Layout::can_split(std::uint32_t t) const {
  const std::optional<Rect> r = tile(t);
  return r && r->cells() >= 2;
}

bool Layout::split(std::uint32_t t, std::uint32_t d) {
  if (!can_split(t) || d >= tiles_.size() || tiles_[d]) return false;
  std::tie(tiles_[t], tiles_[d]) = halves(*tiles_[t]);
  return true;
}

bool Layout::merge(std::uint32_t t, std::uint32_t p) {
  const std::optional<Rect> a = tile(t), b = tile(p);
  if (t == p || !a || !b) return false;
  const std::optional<Rect> both = rect_union(*a, *b);
  if (!both) return false;
  tiles_[t] = both;
  tiles_[p].reset();
  return true;
}

std::optional<std::uint32_t> Layout::merge_partner(std::uint32_t t) const {
  const std::optional<Rect> a = tile(t);
  if (!a) return std::nullopt;
  for (std::uint32_t p = 0; p < tiles_.size(); ++p) {
    if (p != t && tiles_[p] && rect_union(*a, *tiles_[p])) return p;
  }
  return std::nullopt;
}

std::vector<GrainChange> Layout::apply(const std::vector<GrainChange>& changes) {
  std::vector<GrainChange> applied;
  std::vector<std::uint32_t> named;
  const auto was_named = [&](std::uint32_t i) {
    return std::find(named.begin(), named.end(), i) != named.end();
  };
  for (const GrainChange& c : changes) {
    const bool fresh = !was_named(c.task) && !was_named(c.partner);
    named.push_back(c.task);
    named.push_back(c.partner);
    if (!fresh) continue;
    const bool ok =
        c.kind == GrainKind::kSplit ? split(c.task, c.partner) : merge(c.task, c.partner);
    if (ok) applied.push_back(c);
  }
  return applied;
}

std::vector<Neighbour> Layout::adjacent(std::uint32_t index) const {
  std::vector<Neighbour> out;
  const std::optional<Rect> a = tile(index);
  if (!a) return out;
  for (std::uint32_t i = 0; i < tiles_.size(); ++i) {
    if (i == index || !tiles_[i]) continue;
    if (const auto n = touching(*a, i, *tiles_[i])) out.push_back(*n);
  }
  return out;
}

// Disjoint in-bounds tiles whose cells add up to the grid's cover it exactly. Pairwise overlap
// checks are quadratic in the tasks, which is fine for the hundreds a grid job has.
std::string Layout::problem(std::uint32_t width, std::uint32_t height, std::uint32_t tasks) const {
  if (width_ != width || height_ != height) {
    return "layout of a " + format_size(width_, height_) + " grid, the job's is " +
           format_size(width, height);
  }
  if (tiles_.size() != tasks) {
    return "layout of " + std::to_string(tiles_.size()) + " tasks, the job has " +
           std::to_string(tasks);
  }
  std::uint64_t covered = 0;
  for (std::uint32_t i = 0; i < tasks; ++i) {
    if (!tiles_[i]) continue;
    const Rect& r = *tiles_[i];
    if (r.rows.begin >= r.rows.end || r.cols.begin >= r.cols.end || r.rows.end > height ||
        r.cols.end > width) {
      return "tile of task " + std::to_string(i) + " (" + to_string(r) +
             ") is empty or outside the " + format_size(width, height) + " grid";
    }
    for (std::uint32_t j = 0; j < i; ++j) {
      if (tiles_[j] && overlaps(r, *tiles_[j])) {
        return "tiles of tasks " + std::to_string(j) + " and " + std::to_string(i) + " overlap";
      }
    }
    covered += r.cells();
  }
  if (covered != std::uint64_t{width} * height) {
    return "tiles cover " + std::to_string(covered) + " of the grid's " +
           std::to_string(std::uint64_t{width} * height) + " cells";
  }
  return "";
}

Layout initial_layout(const Params& params) {
  const Tiling tiling = *make_tiling(params.width, params.height, params.tiles());
  std::vector<std::optional<Rect>> tiles(params.tasks);
  for (std::uint32_t i = 0; i < params.tiles(); ++i) {
    const Tile t = tile_of(tiling, i);
    tiles[i] = Rect{t.rows, t.cols};
  }
  return Layout(params.width, params.height, std::move(tiles));
}

}  // namespace drift::heat2d
