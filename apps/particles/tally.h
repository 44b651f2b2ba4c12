// What is exact about a set of particles, whichever tasks hold them: a checksum over every
// field's bit pattern, the count, and the kinetic energy in fixed point. All three are wrapping
// uint64 sums over particles, so tallies of any partition add up to the tally of the whole box
// (the checksum is therefore the same as a digest of the particles sorted by id would be: it
// does not depend on their order). A task passes its Tally to ctx.finish().
// Also the per-step progress values a task contributes, which are floating sums and so depend
// on the partition in their last bits: figures to watch, not results.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "apps/particles/particle.h"

namespace drift::particles {

// Kinetic energy is counted in units of 2^-32 (truncated per particle).
inline constexpr double kEnergyUnit = 0x1.0p-32;

struct Tally {
  std::uint64_t checksum = 0;      // wrapping sum of particle_digest
  std::uint64_t particles = 0;     // count
  std::uint64_t energy_units = 0;  // wrapping sum of kinetic energy / kEnergyUnit

  void add(const Particle& p);
  Tally& operator+=(const Tally& other);
  double kinetic_energy() const { return static_cast<double>(energy_units) * kEnergyUnit; }

  friend bool operator==(const Tally&, const Tally&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(checksum, particles, energy_units);
  }
};

// apps::Digest of the id and the bit patterns of x, vx, vy, vz.
std::uint64_t particle_digest(const Particle& p);

Tally tally(std::span<const Particle> particles);

// {count, kinetic energy, x momentum}: what a task contributes each step (summed over tasks).
inline constexpr std::size_t kReducedValues = 3;
std::vector<double> progress_values(std::span<const Particle> particles);

}  // namespace drift::particles
