// Parsing and checking ballast's options (ballast_params.h).
#include "apps/ballast/ballast_params.h"

#include "apps/common/app_params.h"

namespace drift::ballast {

namespace {
constexpr const char* kApp = "ballast";
}  // namespace

Result<Params> parse_params(const JobSpec& spec) {
  auto in = apps::AppParams::read(kApp, spec, {"state", "work"});
  if (!in) return in.status();
  auto state = in->bytes("state", kDefaultStateBytes, {kMinStateBytes, kMaxStateBytes});
  auto work = in->number("work", kDefaultWorkUs, {0, kMaxWorkUs});
  auto steps = apps::spec_count(kApp, "steps", spec.steps, kDefaultSteps, {1, kMaxSteps});
  auto tasks = apps::spec_count(kApp, "tasks", spec.tasks, kDefaultTasks, {1, kMaxTasks});
  for (const Status& s : {state.status(), work.status(), steps.status(), tasks.status()}) {
    if (!s) return s;
  }
  return Params{*state, *work, *steps, static_cast<std::uint32_t>(*tasks)};
}

Status fill_and_validate(JobSpec& spec) {
  Result<Params> p = parse_params(spec);
  if (!p) return p.status();
  spec.tasks = p->tasks;
  spec.steps = p->steps;
  spec.params["state"] = std::to_string(p->state_bytes);
  spec.params["work"] = std::to_string(p->work_us);
  return Status::ok();
}

std::vector<std::string> option_help() {
  return {
      "--state B   bytes of state per task, up to 1G; K/M/G suffixes, e.g. 64M (default 1M)",
      "--work US   busy computation per task and step, in microseconds (default 1000)",
      "--steps S   steps (default 1000)",
      "--tasks N   tasks (default 2)",
  };
}

}  // namespace drift::ballast
