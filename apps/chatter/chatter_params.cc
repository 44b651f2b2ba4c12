// Parsing and checking chatter's options (chatter_params.h).
#include "apps/chatter/chatter_params.h"

#include "apps/common/app_params.h"

namespace drift::chatter {

namespace {
constexpr const char* kApp = "chatter";
}  // namespace

Result<Params> parse_params(const JobSpec& spec) {
  auto in = apps::AppParams::read(kApp, spec, {"fanout", "payload", "work"});
  if (!in) return in.status();
  auto tasks = apps::spec_count(kApp, "tasks", spec.tasks, kDefaultTasks, {2, kMaxTasks});
  auto steps = apps::spec_count(kApp, "steps", spec.steps, kDefaultSteps, {1, kMaxSteps});
  auto fanout = in->number("fanout", kDefaultFanout, {1, kMaxFanout});
  auto payload = in->bytes("payload", kDefaultPayload, {0, kMaxPayload});
  auto work = in->number("work", 0, {0, kMaxWorkUs});
  for (const Status& s :
       {tasks.status(), steps.status(), fanout.status(), payload.status(), work.status()}) {
    if (!s) return s;
  }
  return Params{static_cast<std::uint32_t>(*tasks), *steps, static_cast<std::uint32_t>(*fanout),
                static_cast<std::uint32_t>(*payload), *work};
}

Status fill_and_validate(JobSpec& spec) {
  Result<Params> p = parse_params(spec);
  if (!p) return p.status();
  spec.tasks = p->tasks;
  spec.steps = p->steps;
  spec.params["fanout"] = std::to_string(p->fanout);
  spec.params["payload"] = std::to_string(p->payload);
  spec.params["work"] = std::to_string(p->work_us);
  return Status::ok();
}

std::vector<std::string> option_help() {
  return {
      "--fanout N    messages each task sends per step, to random other tasks (default 4)",
      "--payload B   filler bytes per message, up to 1M; K/M suffixes (default 64)",
      "--work US     busy computation per task and step, in microseconds (default 0)",
      "--steps S     steps (default 100)",
      "--tasks N     tasks, at least 2 (default 8)",
  };
}

}  // namespace drift::chatter
