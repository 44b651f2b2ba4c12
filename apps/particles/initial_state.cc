// The initial particles (initial_state.h).
#include "apps/particles/initial_state.h"

#include "apps/particles/uniform.h"

namespace drift::particles {

namespace {

constexpr std::uint64_t kInitialDomain = 0x696e697469616c21ULL;  // "initial!"
constexpr double kSqrt3 = 1.7320508075688772;

apps::SplitMix64 particle_stream(const Params& params, std::uint64_t id) {
  return apps::SplitMix64(apps::hash_words({kInitialDomain, params.seed, id}));
}

double position(const Params& params, apps::SplitMix64& rng) {
  return uniform(rng) * static_cast<double>(params.cells);
}

// Sum of four uniforms on [0, 1) has mean 2 and variance 1/3.
double thermal_component(apps::SplitMix64& rng) {
  const double sum = ((uniform(rng) + uniform(rng)) + uniform(rng)) + uniform(rng);
  return (sum - 2.0) * (kSqrt3 * kThermalSpeed);
}

Particle draw_rest(std::uint64_t id, double x, apps::SplitMix64& rng) {
  Particle p{id, x, 0, 0, 0};
  p.vx = thermal_component(rng);
  p.vy = thermal_component(rng);
  p.vz = thermal_component(rng);
  return p;
}

}  // namespace

Particle initial_particle(const Params& params, std::uint64_t id) {
  apps::SplitMix64 rng = particle_stream(params, id);
  const double x = position(params, rng);
  return draw_rest(id, x, rng);
}

std::vector<Particle> initial_particles(const Params& params, const CellRange& range) {
  std::vector<Particle> out;
  for (std::uint64_t id = 0; id < params.particles; ++id) {
    apps::SplitMix64 rng = particle_stream(params, id);
    const double x = position(params, rng);
    if (range.contains(cell_of(x, params.cells))) out.push_back(draw_rest(id, x, rng));
  }
  return out;
}

}  // namespace drift::particles
