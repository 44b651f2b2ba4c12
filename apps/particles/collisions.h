// DSMC-style collisions inside one cell. The cell's particles, sorted by id, are shuffled by the
// cell's own random stream and paired off (0,1), (2,3), ...; pair k collides with probability
// min(1, |g| / kReferenceSpeed), g the relative velocity (faster pairs collide more often, as
// hard spheres do), by turning g to a uniformly random direction about the pair's centre of
// mass, which keeps momentum and kinetic energy (to rounding). Every random number comes from a
// counter-based stream, a hash of (seed, step, cell, pair) — no state carries over between
// cells, steps or tasks — so a cell collides to the same bits wherever and whenever it is done.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "apps/common/digest.h"
#include "apps/particles/particle.h"

namespace drift::particles {

inline constexpr double kReferenceSpeed = 0.5;  // cells per step

// The counter-based random numbers of one cell in one step. The cell's key is a hash of
// (seed, step, cell); stream k (pair k, or kShuffle for the shuffle) is splitmix64 started at
// mix64(key + k): a pure function of (seed, step, cell, k).
class CellRandom {
 public:
  static constexpr std::uint64_t kShuffle = UINT64_MAX;
  CellRandom(std::uint64_t seed, std::uint64_t step, std::uint64_t cell);
  apps::SplitMix64 stream(std::uint64_t k) const;

 private:
  std::uint64_t key_;
};

// Collides a and b (or not) with draws from `rng`; true if they collided.
bool collide_pair(Particle& a, Particle& b, apps::SplitMix64& rng);

// Collides the particles of one cell, which must be sorted by id. `order` is scratch space.
// Returns the number of collisions.
std::uint64_t collide_cell(std::span<Particle> cell_particles, std::uint64_t seed,
                           std::uint64_t step, std::uint64_t cell,
                           std::vector<std::uint32_t>& order);

}  // namespace drift::particles
