// Collisions within a cell: each one keeps momentum and kinetic energy (to rounding), and what
// a cell does is a pure function of its particles and (seed, step, cell).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "apps/particles/collisions.h"
#include "apps/particles/uniform.h"

namespace drift::particles {
namespace {

std::vector<Particle> some_particles(std::uint64_t n, std::uint64_t seed) {
  apps::SplitMix64 rng(seed);
  std::vector<Particle> out;
  for (std::uint64_t id = 0; id < n; ++id) {
    const double vx = 0.4 * (uniform(rng) - 0.5), vy = 0.4 * (uniform(rng) - 0.5);
    out.push_back(Particle{id * 3, 0.5, vx, vy, 0.4 * (uniform(rng) - 0.5)});
  }
  return out;
}

TEST(ParticlesCollisions, KeepMomentumAndEnergy) {
  int collided = 0;
  for (std::uint64_t k = 0; k < 2000; ++k) {
    std::vector<Particle> pair = some_particles(2, k);
    const Particle a = pair[0], b = pair[1];
    apps::SplitMix64 rng = CellRandom(7, k, 3).stream(0);
    if (!collide_pair(pair[0], pair[1], rng)) {
      EXPECT_EQ(pair[0], a);
      EXPECT_EQ(pair[1], b);
      continue;
    }
    ++collided;
    EXPECT_NEAR(pair[0].vx + pair[1].vx, a.vx + b.vx, 1e-15);
    EXPECT_NEAR(pair[0].vy + pair[1].vy, a.vy + b.vy, 1e-15);
    EXPECT_NEAR(pair[0].vz + pair[1].vz, a.vz + b.vz, 1e-15);
    EXPECT_NEAR(kinetic_energy(pair[0]) + kinetic_energy(pair[1]),
                kinetic_energy(a) + kinetic_energy(b), 1e-15);
    EXPECT_NE(pair[0].vx, a.vx);
    EXPECT_EQ(pair[0].x, a.x);
    EXPECT_EQ(pair[0].id, a.id);
  }
  EXPECT_GT(collided, 200);  // faster pairs collide more often, but not always
  EXPECT_LT(collided, 1900);
}

TEST(ParticlesCollisions, CellKeepsMomentumAndEnergy) {
  std::vector<Particle> cell = some_particles(25, 1);
  double px = 0, energy = 0;
  for (const Particle& p : cell) px += p.vx, energy += kinetic_energy(p);
  std::vector<std::uint32_t> scratch;
  EXPECT_GT(collide_cell(cell, 1, 0, 5, scratch), 0u);
  double px_after = 0, energy_after = 0;
  for (const Particle& p : cell) px_after += p.vx, energy_after += kinetic_energy(p);
  EXPECT_NEAR(px_after, px, 1e-13);
  EXPECT_NEAR(energy_after, energy, 1e-13);
}

TEST(ParticlesCollisions, CellIsAPureFunctionOfItsInputs) {
  const std::vector<Particle> start = some_particles(30, 2);
  std::vector<std::uint32_t> scratch;
  const auto collide = [&](std::uint64_t seed, std::uint64_t step, std::uint64_t cell) {
    std::vector<Particle> c = start;
    collide_cell(c, seed, step, cell, scratch);
    return c;
  };
  const std::vector<Particle> once = collide(1, 4, 9);
  EXPECT_EQ(collide(1, 4, 9), once);  // scratch reused, same bits
  EXPECT_NE(collide(2, 4, 9), once);
  EXPECT_NE(collide(1, 5, 9), once);
  EXPECT_NE(collide(1, 4, 10), once);
}

TEST(ParticlesCollisions, LoneParticleIsLeftAlone) {
  std::vector<Particle> one = some_particles(1, 3);
  const Particle before = one[0];
  std::vector<std::uint32_t> scratch;
  EXPECT_EQ(collide_cell(one, 1, 0, 0, scratch), 0u);
  EXPECT_EQ(one[0], before);
  EXPECT_EQ(collide_cell({}, 1, 0, 0, scratch), 0u);
}

}  // namespace
}  // namespace drift::particles
