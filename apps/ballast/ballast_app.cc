// The ballast Application (ballast_app.h), serial reference included: it replays the same
// per-task state evolution (ballast_state.h) without a runtime.
#include "apps/ballast/ballast_app.h"

#include "apps/ballast/ballast_params.h"
#include "apps/ballast/ballast_result.h"
#include "apps/ballast/ballast_state.h"
#include "apps/ballast/ballast_task.h"
#include "apps/common/digest.h"
#include "apps/common/task_results.h"

namespace drift::ballast {
namespace {

JobOutcome outcome(const std::vector<BallastResult>& results) {
  std::uint64_t sum = 0;
  std::uint64_t bytes = 0;
  for (const BallastResult& r : results) {
    sum += r.digest;  // wrapping
    bytes += r.state_bytes;
  }
  JobOutcome out;
  out.checksum = apps::format_hex16(sum);
  out.details["state_bytes"] = std::to_string(bytes);
  return out;
}

BallastResult serial_task(const Params& p, std::uint32_t index) {
  std::vector<std::uint64_t> words = initial_words(index, p.words());
  for (std::uint64_t step = 0; step < p.steps; ++step) apply_step(words, index, step);
  return BallastResult{words_digest(index, words), words.size() * 8};
}

class BallastApp final : public Application {
 public:
  std::string name() const override { return "ballast"; }
  std::vector<std::string> option_help() const override { return ballast::option_help(); }
  Status validate(JobSpec& spec) const override { return fill_and_validate(spec); }

  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    Result<Params> p = parse_params(spec);
    if (!p || index >= p->tasks) return nullptr;
    return std::make_unique<BallastTask>(*p, index);
  }

  std::vector<ReduceOp> reduction_ops() const override { return {ReduceOp::kSum}; }

  // Its words three times over (the live state, the state encoded for a checkpoint or a move,
  // the copy a move receives) and a MiB for the rest.
  std::uint64_t memory_per_task(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    return p ? 3 * 8 * p->words() + (1u << 20) : 0;
  }

  Result<JobOutcome> combine(const JobSpec& spec,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    auto decoded = apps::decode_results<BallastResult>("ballast", p->tasks, results);
    if (!decoded) return decoded.status();
    return outcome(*decoded);
  }

  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    std::vector<BallastResult> results;
    for (std::uint32_t i = 0; i < p->tasks; ++i) results.push_back(serial_task(*p, i));
    return outcome(results);
  }
};

}  // namespace

std::unique_ptr<Application> make_ballast_app() { return std::make_unique<BallastApp>(); }

}  // namespace drift::ballast
