// particles' serial reference: deterministic, seeded, conserving particles, and its drift makes
// the load (particles per task range) shift towards the right wall.
#include "apps/particles/particles_serial.h"

#include <gtest/gtest.h>

#include <cmath>

#include "apps/common/digest.h"
#include "apps/particles/cell_range.h"
#include "apps/particles/initial_state.h"
#include "apps/particles/tally.h"

namespace drift::particles {
namespace {

std::vector<std::uint64_t> per_task(const Params& p, const std::vector<Particle>& particles) {
  std::vector<std::uint64_t> counts(p.tasks, 0);
  for (const Particle& q : particles) ++counts[owner_of(cell_of(q.x, p.cells), p.cells, p.tasks)];
  return counts;
}

TEST(ParticlesSerial, IsStable) {
  const Params p{64, 3000, 9, 500, 25, 1};
  EXPECT_EQ(tally(run_serial_particles(p)), tally(run_serial_particles(p)));
}

TEST(ParticlesSerial, ChecksumDependsOnSeedAndSteps) {
  const Params p{64, 3000, 9, 500, 25, 1};
  const std::uint64_t base = tally(run_serial_particles(p)).checksum;
  Params other_seed = p;
  other_seed.seed = 10;
  EXPECT_NE(tally(run_serial_particles(other_seed)).checksum, base);
  Params more_steps = p;
  more_steps.steps = 26;
  EXPECT_NE(tally(run_serial_particles(more_steps)).checksum, base);
  Params no_drift = p;
  no_drift.drift = 0;
  EXPECT_NE(tally(run_serial_particles(no_drift)).checksum, base);
}

TEST(ParticlesSerial, ConservesParticles) {
  const Params p{50, 4000, 3, 5000, 60, 1};
  const Tally t = tally(run_serial_particles(p));
  EXPECT_EQ(t.particles, 4000u);
  EXPECT_GT(t.kinetic_energy(), 0.0);
}

// Over 100 steps the drift empties the left end and fills the right end, by tens of percent
// at most; without drift the counts only wander.
TEST(ParticlesSerial, DriftShiftsTheLoad) {
  const Params p{256, 20'000, 1, 2000, 100, 4};
  const std::vector<std::uint64_t> before = per_task(p, initial_particles(p, {0, p.cells}));
  const std::vector<std::uint64_t> after = per_task(p, run_serial_particles(p));
  const auto change = [&](std::size_t i) {
    return (static_cast<double>(after[i]) - static_cast<double>(before[i])) /
           static_cast<double>(before[i]);
  };
  EXPECT_LT(change(0), -0.05);
  EXPECT_GT(change(3), 0.05);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_LT(std::abs(change(i)), 0.5) << i;

  Params calm = p;
  calm.drift = 0;
  const std::vector<std::uint64_t> still = per_task(calm, run_serial_particles(calm));
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_LT(std::abs(static_cast<double>(still[i]) - static_cast<double>(before[i])),
              0.02 * static_cast<double>(before[i]));
  }
}

// Pins the exact bits. Meant to hold on every platform drift builds for (x86-64, i386 with SSE2
// doubles, s390x; checked on x86-64 so far). A change here means results are no longer
// comparable with older builds or other nodes.
TEST(ParticlesSerial, GoldenChecksum) {
  const Tally t = tally(run_serial_particles(Params{32, 1000, 1, 1000, 12, 1}));
  EXPECT_EQ(apps::format_hex16(t.checksum), "371a955a0506631c");
}

}  // namespace
}  // namespace drift::particles
