// One step over a range of cells: no particle is lost or made, leavers go only into the
// neighbouring cells, and stepping the box in pieces gives the very bits of stepping it whole.
#include <gtest/gtest.h>

#include <algorithm>

#include "apps/particles/initial_state.h"
#include "apps/particles/region_step.h"

namespace drift::particles {
namespace {

const Params kRegionParams{40, 2000, 5, 20'000, 10, 1};  // strong drift: many particles cross

std::vector<Particle> by_id(std::vector<Particle> v) {
  std::sort(v.begin(), v.end(), [](const Particle& a, const Particle& b) { return a.id < b.id; });
  return v;
}

TEST(ParticlesRegionStep, KeepsEveryParticleAndTheBox) {
  const CellRange box{0, kRegionParams.cells};
  std::vector<Particle> particles = initial_particles(kRegionParams, box);
  ASSERT_EQ(particles.size(), kRegionParams.particles);
  for (std::uint64_t step = 0; step < 50; ++step) {
    const Leavers out = advance_region(particles, box, physics_of(kRegionParams), step);
    EXPECT_TRUE(out.left.empty() && out.right.empty());
  }
  ASSERT_EQ(particles.size(), kRegionParams.particles);
  std::vector<Particle> sorted = by_id(particles);
  for (std::uint64_t id = 0; id < sorted.size(); ++id) {
    EXPECT_EQ(sorted[id].id, id);
    EXPECT_GE(sorted[id].x, 0.0);
    EXPECT_LE(sorted[id].x, 40.0);
  }
}

TEST(ParticlesRegionStep, LeaversGoToTheNeighbouringCells) {
  const CellRange range{10, 13};
  std::vector<Particle> particles = initial_particles(kRegionParams, range);
  const std::size_t before = particles.size();
  const Leavers out = advance_region(particles, range, physics_of(kRegionParams), 0);
  EXPECT_EQ(particles.size() + out.left.size() + out.right.size(), before);
  EXPECT_FALSE(out.left.empty());
  EXPECT_FALSE(out.right.empty());
  for (const Particle& p : particles) EXPECT_TRUE(range.contains(cell_of(p.x, 40)));
  for (const Particle& p : out.left) EXPECT_EQ(cell_of(p.x, 40), 9u);
  for (const Particle& p : out.right) EXPECT_EQ(cell_of(p.x, 40), 13u);
}

// The serial reference and the tasks rest on this: the same particles, bit for bit, whatever
// ranges the box is cut into, as long as the leavers are handed over every step.
TEST(ParticlesRegionStep, PiecesStepLikeTheWhole) {
  const Physics physics = physics_of(kRegionParams);
  const CellRange box{0, kRegionParams.cells};
  std::vector<Particle> whole = initial_particles(kRegionParams, box);
  const std::vector<CellRange> pieces{{0, 1}, {1, 17}, {17, 18}, {18, 40}};
  std::vector<std::vector<Particle>> parts;
  for (const CellRange& r : pieces) parts.push_back(initial_particles(kRegionParams, r));
  for (std::uint64_t step = 0; step < 30; ++step) {
    advance_region(whole, box, physics, step);
    std::vector<Leavers> out;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      out.push_back(advance_region(parts[i], pieces[i], physics, step));
    }
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (i > 0) parts[i - 1].insert(parts[i - 1].end(), out[i].left.begin(), out[i].left.end());
      if (i + 1 < pieces.size()) {
        parts[i + 1].insert(parts[i + 1].end(), out[i].right.begin(), out[i].right.end());
      }
    }
  }
  std::vector<Particle> joined;
  for (const auto& part : parts) joined.insert(joined.end(), part.begin(), part.end());
  EXPECT_EQ(by_id(joined), by_id(whole));
}

}  // namespace
}  // namespace drift::particles
