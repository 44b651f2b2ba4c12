// Tallies and progress values of particle sets (tally.h).
#include "apps/particles/tally.h"

#include <bit>

#include "apps/common/digest.h"

namespace drift::particles {

namespace {

std::uint64_t energy_in_units(const Particle& p) {
  const double units = kinetic_energy(p) / kEnergyUnit;    // exact: a power of two
  if (!(units < 0x1.0p63)) return std::uint64_t{1} << 63;  // absurd speeds: saturate, no UB
  return static_cast<std::uint64_t>(units);
}

}  // namespace

void Tally::add(const Particle& p) {
  checksum += particle_digest(p);
  ++particles;
  energy_units += energy_in_units(p);
}

Tally& Tally::operator+=(const Tally& other) {
  checksum += other.checksum;
  particles += other.particles;
  energy_units += other.energy_units;
  return *this;
}

std::uint64_t particle_digest(const Particle& p) {
  static_assert(sizeof(double) == 8);
  apps::Digest d;
  d.add(p.id)
      .add(std::bit_cast<std::uint64_t>(p.x))
      .add(std::bit_cast<std::uint64_t>(p.vx))
      .add(std::bit_cast<std::uint64_t>(p.vy))
      .add(std::bit_cast<std::uint64_t>(p.vz));
  return apps::mix64(d.value());
}

Tally tally(std::span<const Particle> particles) {
  Tally t;
  for (const Particle& p : particles) t.add(p);
  return t;
}

std::vector<double> progress_values(std::span<const Particle> particles) {
  double energy = 0, momentum = 0;
  for (const Particle& p : particles) {
    energy += kinetic_energy(p);
    momentum += p.vx;
  }
  return {static_cast<double>(particles.size()), energy, momentum};
}

}  // namespace drift::particles
