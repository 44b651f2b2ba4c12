// A heat2d task's received, unused messages (inbox.h).
#include "apps/heat2d/inbox.h"

#include <algorithm>
#include <utility>

namespace drift::heat2d {
namespace {

std::string of_step(const char* what, std::uint64_t step, std::uint32_t from) {
  return std::string(what) + " of step " + std::to_string(step) + " from task " +
         std::to_string(from);
}

bool piece_before(const PendingPiece& a, const PendingPiece& b) {
  return a.step != b.step ? a.step < b.step : a.offset < b.offset;
}

}  // namespace

bool Inbox::add_halo(PendingHalo halo) {
  for (const PendingHalo& h : halos_) {
    if (h.step == halo.step && h.from == halo.from) return false;
  }
  halos_.push_back(std::move(halo));
  return true;
}

void Inbox::add_piece(PendingPiece piece) {
  const auto at = std::upper_bound(pieces_.begin(), pieces_.end(), piece, piece_before);
  pieces_.insert(at, std::move(piece));
}

bool Inbox::pieces_sorted() const {
  return std::is_sorted(pieces_.begin(), pieces_.end(), piece_before);
}

std::string Inbox::check(std::uint64_t step, const std::vector<Neighbour>& adjacent,
                         const std::optional<Adoption>& adoption) const {
  for (const PendingHalo& h : halos_) {
    if (h.step != step) continue;
    const auto n = std::find_if(adjacent.begin(), adjacent.end(),
                                [&](const Neighbour& x) { return x.index == h.from; });
    if (n == adjacent.end()) return of_step("a halo", step, h.from) + ", which is no neighbour";
    if (h.values.size() != n->overlap.size()) {
      return of_step("a halo", step, h.from) + " with " + std::to_string(h.values.size()) +
             " values for a shared edge of " + std::to_string(n->overlap.size()) + " cells";
    }
  }
  std::uint64_t end = 0;  // of the pieces so far, in offset order
  for (const PendingPiece& p : pieces_) {
    if (p.step != step) continue;
    if (!adoption || adoption->from != p.from) {
      return of_step("a piece of a tile", step, p.from) + ", which hands this task no cells";
    }
    const std::uint64_t cells = adoption->rect.cells();
    if (p.offset < end || p.offset > cells || p.values.size() > cells - p.offset) {
      return of_step("pieces", step, p.from) + " that overlap or run past the " +
             std::to_string(cells) + " cells of " + to_string(adoption->rect);
    }
    end = p.offset + p.values.size();
  }
  return "";
}

bool Inbox::halos_complete(std::uint64_t step, const std::vector<Neighbour>& adjacent) const {
  const auto here = static_cast<std::size_t>(std::count_if(
      halos_.begin(), halos_.end(), [&](const PendingHalo& h) { return h.step == step; }));
  return here == adjacent.size();  // check() passed: each from a different neighbour
}

std::vector<double> Inbox::take_halo(std::uint64_t step, std::uint32_t from) {
  const auto it = std::find_if(halos_.begin(), halos_.end(), [&](const PendingHalo& h) {
    return h.step == step && h.from == from;
  });
  std::vector<double> values = std::move(it->values);
  halos_.erase(it);
  return values;
}

bool Inbox::pieces_complete(std::uint64_t step, std::uint64_t cells) const {
  std::uint64_t here = 0;
  for (const PendingPiece& p : pieces_) {
    if (p.step == step) here += p.values.size();
  }
  return here == cells;  // check() passed: disjoint and inside, so they cover every cell
}

std::vector<double> Inbox::take_pieces(std::uint64_t step) {
  std::vector<double> values;
  for (PendingPiece& p : pieces_) {
    if (p.step == step) values.insert(values.end(), p.values.begin(), p.values.end());
  }
  std::erase_if(pieces_, [&](const PendingPiece& p) { return p.step == step; });
  return values;
}

}  // namespace drift::heat2d
