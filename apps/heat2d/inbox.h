// What a heat2d task has received but not used yet: neighbours' halos and the pieces of a tile
// part it adopts, each for one step. A message can arrive a step before the task knows the layout
// it was sent for (its sender is already past that step's regrain), so messages are kept as they
// came and checked against the layout only once their step is the task's current one (check()).
// Part of the task's serialized state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/heat2d/layout.h"
#include <drift/wire_field.h>

namespace drift::heat2d {

struct PendingHalo {
  std::uint64_t step = 0;
  std::uint32_t from = 0;
  std::vector<double> values;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, from, values);
  }
};

struct PendingPiece {
  std::uint64_t step = 0;
  std::uint32_t from = 0;
  std::uint64_t offset = 0;
  std::vector<double> values;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, from, offset, values);
  }
};

// A tile part a task takes over at a step: who sends its cells, and which cells they are.
struct Adoption {
  std::uint32_t from = 0;
  Rect rect;
  friend bool operator==(const Adoption&, const Adoption&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(from, rect);
  }
};

class Inbox {
 public:
  // False, and nothing kept, when a halo of that step from that sender is here already.
  bool add_halo(PendingHalo halo);
  void add_piece(PendingPiece piece);

  // Empty when the messages of `step` fit a task with these neighbours that adopts `adoption`
  // at that step: halos only from neighbours, each as long as the shared stretch; pieces only
  // from the adoption's sender, not overlapping, inside its rectangle. Else the violation.
  std::string check(std::uint64_t step, const std::vector<Neighbour>& adjacent,
                    const std::optional<Adoption>& adoption) const;

  // After check(step) passed: every neighbour's halo of `step` is here.
  bool halos_complete(std::uint64_t step, const std::vector<Neighbour>& adjacent) const;
  // Removes and returns the halo of `step` from `from`, which must be here.
  std::vector<double> take_halo(std::uint64_t step, std::uint32_t from);
  // After check(step) passed: the pieces of `step` add up to `cells` values.
  bool pieces_complete(std::uint64_t step, std::uint64_t cells) const;
  // Removes the pieces of `step` and returns their values in offset order.
  std::vector<double> take_pieces(std::uint64_t step);

  const std::vector<PendingHalo>& halos() const { return halos_; }
  const std::vector<PendingPiece>& pieces() const { return pieces_; }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(halos_, pieces_);
    if constexpr (Archive::is_loading::value) {
      if (!pieces_sorted()) throw WireError("pending pieces out of (step, offset) order");
    }
  }

 private:
  bool pieces_sorted() const;

  std::vector<PendingHalo> halos_;    // in arrival order
  std::vector<PendingPiece> pieces_;  // by step, then offset
};

}  // namespace drift::heat2d
