// Parsing and checking pingpong's options (pingpong_params.h).
#include "apps/pingpong/pingpong_params.h"

#include "apps/common/app_params.h"

namespace drift::pingpong {

namespace {
constexpr const char* kApp = "pingpong";
}  // namespace

Result<Params> parse_params(const JobSpec& spec) {
  auto in = apps::AppParams::read(kApp, spec, {"rounds", "bytes"});
  if (!in) return in.status();
  auto rounds = in->number("rounds", kDefaultRounds, {1, kMaxRounds});
  auto bytes = in->bytes("bytes", kDefaultBytes, {kMinBytes, kMaxBytes});
  auto tasks = apps::spec_count(kApp, "tasks", spec.tasks, 2, {2, 2});
  auto steps = apps::spec_count(kApp, "steps", spec.steps, 1, {1, 1});
  for (const Status& s : {rounds.status(), bytes.status(), tasks.status(), steps.status()}) {
    if (!s) return s;
  }
  return Params{*rounds, static_cast<std::uint32_t>(*bytes)};
}

Status fill_and_validate(JobSpec& spec) {
  Result<Params> p = parse_params(spec);
  if (!p) return p.status();
  spec.tasks = 2;
  spec.steps = 1;
  spec.params["rounds"] = std::to_string(p->rounds);
  spec.params["bytes"] = std::to_string(p->bytes);
  return Status::ok();
}

std::vector<std::string> option_help() {
  return {
      "--rounds N   round trips from task 0 to task 1 and back (default 1000)",
      "--bytes B    payload bytes, 8 to 4M; K/M suffixes (default 64)",
  };
}

}  // namespace drift::pingpong
