// Collisions within a cell (collisions.h).
#include "apps/particles/collisions.h"

#include <cmath>
#include <numeric>
#include <utility>

#include "apps/particles/uniform.h"

namespace drift::particles {

namespace {

constexpr std::uint64_t kCollisionDomain = 0x636f6c6c69646521ULL;  // "collide!"

struct Vec3 {
  double x, y, z;
};

// Uniform enough in [0, n): the top 32 bits scaled by n (no 64-bit division, no __int128).
std::uint32_t below(apps::SplitMix64& rng, std::uint32_t n) {
  return static_cast<std::uint32_t>(((rng.next() >> 32) * n) >> 32);
}

// In [-1, 1), from 32 random bits (exact).
double signed_unit(std::uint64_t bits32) { return static_cast<double>(bits32) * 0x1.0p-31 - 1.0; }

// Uniform on the unit sphere (Marsaglia 1972): a point of the unit disc by rejection, two
// coordinates per 64-bit draw, then lifted to the sphere. No trigonometry: libm's sin and cos
// are not bit-identical across platforms; sqrt is (IEEE correctly rounded).
Vec3 random_direction(apps::SplitMix64& rng) {
  for (;;) {
    const std::uint64_t bits = rng.next();
    const double a = signed_unit(bits >> 32), b = signed_unit(bits & 0xffffffffu);
    const double s = a * a + b * b;
    if (!(s < 1.0)) continue;
    const double lift = 2.0 * std::sqrt(1.0 - s);
    return Vec3{a * lift, b * lift, 1.0 - 2.0 * s};
  }
}

}  // namespace

CellRandom::CellRandom(std::uint64_t seed, std::uint64_t step, std::uint64_t cell)
    : key_(apps::hash_words({kCollisionDomain, seed, step, cell})) {}

apps::SplitMix64 CellRandom::stream(std::uint64_t k) const {
  return apps::SplitMix64(apps::mix64(key_ + k));
}

bool collide_pair(Particle& a, Particle& b, apps::SplitMix64& rng) {
  const Vec3 g{a.vx - b.vx, a.vy - b.vy, a.vz - b.vz};
  const double speed_squared = (g.x * g.x + g.y * g.y) + g.z * g.z;
  const double threshold = uniform(rng) * kReferenceSpeed;  // collide if |g| > threshold
  if (!(threshold * threshold < speed_squared)) return false;
  const double speed = std::sqrt(speed_squared);
  const Vec3 cm{0.5 * (a.vx + b.vx), 0.5 * (a.vy + b.vy), 0.5 * (a.vz + b.vz)};
  const Vec3 n = random_direction(rng);
  const double half = 0.5 * speed;
  a.vx = cm.x + half * n.x;
  a.vy = cm.y + half * n.y;
  a.vz = cm.z + half * n.z;
  b.vx = cm.x - half * n.x;
  b.vy = cm.y - half * n.y;
  b.vz = cm.z - half * n.z;
  return true;
}

std::uint64_t collide_cell(std::span<Particle> cell_particles, std::uint64_t seed,
                           std::uint64_t step, std::uint64_t cell,
                           std::vector<std::uint32_t>& order) {
  const auto n = static_cast<std::uint32_t>(cell_particles.size());
  if (n < 2) return 0;
  order.resize(n);
  std::iota(order.begin(), order.end(), 0u);
  const CellRandom random(seed, step, cell);
  apps::SplitMix64 shuffle = random.stream(CellRandom::kShuffle);
  for (std::uint32_t i = n - 1; i > 0; --i) {
    std::swap(order[i], order[below(shuffle, i + 1)]);
  }
  std::uint64_t collisions = 0;
  for (std::uint32_t k = 0; k + 1 < n; k += 2) {
    apps::SplitMix64 rng = random.stream(k / 2);
    collisions += collide_pair(cell_particles[order[k]], cell_particles[order[k + 1]], rng) ? 1 : 0;
  }
  return collisions;
}

}  // namespace drift::particles
