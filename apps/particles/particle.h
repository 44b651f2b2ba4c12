// One simulated (macro)particle: fixed-width fields only, so it travels between architectures
// bit for bit (docs/architecture.md §10). The box is 1-D along x (cells of unit width); the velocity is 3-D,
// so collisions exchange energy between the directions as in DSMC.
#pragma once

#include <cstdint>

namespace drift::particles {

struct Particle {
  std::uint64_t id = 0;  // 0 .. particles - 1, unique in the job
  double x = 0;          // position, cells from the left wall
  double vx = 0;         // velocity, cells per step
  double vy = 0;
  double vz = 0;

  friend bool operator==(const Particle&, const Particle&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id, x, vx, vy, vz);
  }
};

// Unit mass; evaluated in this order everywhere.
inline double kinetic_energy(const Particle& p) {
  return 0.5 * ((p.vx * p.vx + p.vy * p.vy) + p.vz * p.vz);
}

}  // namespace drift::particles
