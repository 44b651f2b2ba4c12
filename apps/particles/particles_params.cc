// Parsing and checking particles' options (particles_params.h).
#include "apps/particles/particles_params.h"

#include "apps/common/app_params.h"

namespace drift::particles {

Result<Params> parse_params(const JobSpec& spec) {
  auto in = apps::AppParams::read(kApp, spec, {"cells", "particles", "seed", "drift"});
  if (!in) return in.status();
  auto cells = in->number("cells", kDefaultCells, {1, kMaxCells});
  auto particles = in->number("particles", kDefaultParticles, {1, kMaxParticles});
  auto seed = in->number("seed", kDefaultSeed, {});
  auto drift = in->number("drift", kDefaultDrift, {0, kMaxDrift});
  auto steps = apps::spec_count(kApp, "steps", spec.steps, kDefaultSteps, {1, kMaxSteps});
  auto tasks = apps::spec_count(kApp, "tasks", spec.tasks, kDefaultTasks, {1, kMaxTasks});
  for (const Status& s : {cells.status(), particles.status(), seed.status(), drift.status(),
                          steps.status(), tasks.status()}) {
    if (!s) return s;
  }
  if (*tasks > *cells) {
    return Status::error(std::string(kApp) + ": tasks = " + std::to_string(*tasks) +
                         " is more than cells = " + std::to_string(*cells) +
                         ": every task needs at least one cell");
  }
  return Params{*cells, *particles, *seed, *drift, *steps, static_cast<std::uint32_t>(*tasks)};
}

Status fill_and_validate(JobSpec& spec) {
  Result<Params> p = parse_params(spec);
  if (!p) return p.status();
  spec.tasks = p->tasks;
  spec.steps = p->steps;
  spec.params["cells"] = std::to_string(p->cells);
  spec.params["particles"] = std::to_string(p->particles);
  spec.params["seed"] = std::to_string(p->seed);
  spec.params["drift"] = std::to_string(p->drift);
  return Status::ok();
}

std::vector<std::string> option_help() {
  return {
      "--cells N      cells in the box, one unit wide each (default 4096)",
      "--particles N  particles in the box (default 100000)",
      "--seed N       seed of the initial state and the collisions (default 1)",
      "--drift N      acceleration towards the right wall, in millionths of a cell per step^2 "
      "(default 200)",
      "--steps S      steps (default 100)",
      "--tasks N      tasks, each a contiguous range of cells, at most one per cell (default 4)",
  };
}

}  // namespace drift::particles
