// The particles Application (particles_app.h).
#include "apps/particles/particles_app.h"

#include <algorithm>
#include <cstdio>

#include "apps/common/digest.h"
#include "apps/common/task_results.h"
#include "apps/particles/cell_range.h"
#include "apps/particles/particles_params.h"
#include "apps/particles/particles_serial.h"
#include "apps/particles/particles_task.h"
#include "apps/particles/tally.h"

namespace drift::particles {
namespace {

// tallies[i] is task i's; the serial reference tallies the same cell ranges.
Result<JobOutcome> outcome(const Params& p, const std::vector<Tally>& tallies) {
  Tally total;
  for (const Tally& t : tallies) total += t;
  if (total.particles != p.particles) {
    return Status::error(std::string(kApp) + ": " + std::to_string(total.particles) +
                         " particles at the end, expected " + std::to_string(p.particles));
  }
  const auto [least, most] =
      std::minmax_element(tallies.begin(), tallies.end(),
                          [](const Tally& a, const Tally& b) { return a.particles < b.particles; });
  char energy[64];
  std::snprintf(energy, sizeof energy, "%.17g", total.kinetic_energy());
  JobOutcome out;
  out.checksum = apps::format_hex16(total.checksum);
  out.details["particles"] = std::to_string(total.particles);
  out.details["kinetic_energy"] = energy;
  out.details["min_task_particles"] = std::to_string(least->particles);
  out.details["max_task_particles"] = std::to_string(most->particles);
  return out;
}

std::vector<Tally> tallies_by_task(const Params& p, const std::vector<Particle>& particles) {
  std::vector<Tally> tallies(p.tasks);
  for (const Particle& q : particles) {
    tallies[owner_of(cell_of(q.x, p.cells), p.cells, p.tasks)].add(q);
  }
  return tallies;
}

class ParticlesApp final : public Application {
 public:
  std::string name() const override { return kApp; }
  std::vector<std::string> option_help() const override { return particles::option_help(); }
  Status validate(JobSpec& spec) const override { return fill_and_validate(spec); }

  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    Result<Params> p = parse_params(spec);
    if (!p || index >= p->tasks) return nullptr;
    return std::make_unique<ParticlesTask>(*p, index);
  }

  std::vector<ReduceOp> reduction_ops() const override {
    return std::vector<ReduceOp>(kReducedValues, ReduceOp::kSum);
  }

  Result<JobOutcome> combine(const JobSpec& spec,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    auto decoded = apps::decode_results<Tally>(kApp, p->tasks, results);
    if (!decoded) return decoded.status();
    return outcome(*p, *decoded);
  }

  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    return outcome(*p, tallies_by_task(*p, run_serial_particles(*p)));
  }
};

}  // namespace

std::unique_ptr<Application> make_particles_app() { return std::make_unique<ParticlesApp>(); }

}  // namespace drift::particles
