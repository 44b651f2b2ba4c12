// The one message particles tasks exchange: the particles that moved out of the sender's cells
// into the receiver's in step `step`. A task sends one to each neighbour every step, empty or
// not, so the receiver knows when it has all of a step's arrivals.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/particles/particle.h"

namespace drift::particles {

inline constexpr std::uint32_t kMigrantsTag = 1;

struct MigrantMessage {
  std::uint64_t step = 0;
  std::vector<Particle> particles;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, particles);
  }
};

}  // namespace drift::particles
