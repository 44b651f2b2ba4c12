// The chatter Application (chatter_app.h).
#include "apps/chatter/chatter_app.h"

#include "apps/chatter/chatter_params.h"
#include "apps/chatter/chatter_result.h"
#include "apps/chatter/chatter_serial.h"
#include "apps/chatter/chatter_task.h"
#include "apps/common/digest.h"
#include "apps/common/task_results.h"

namespace drift::chatter {
namespace {

JobOutcome outcome(const std::vector<ChatterResult>& results) {
  ChatterResult total;
  for (const ChatterResult& r : results) {
    total.digest += r.digest;  // wrapping, order-free
    total.messages += r.messages;
    total.bytes += r.bytes;
  }
  JobOutcome out;
  out.checksum = apps::format_hex16(total.digest);
  out.details["messages"] = std::to_string(total.messages);
  out.details["bytes"] = std::to_string(total.bytes);
  return out;
}

class ChatterApp final : public Application {
 public:
  std::string name() const override { return "chatter"; }
  std::vector<std::string> option_help() const override { return chatter::option_help(); }
  Status validate(JobSpec& spec) const override { return fill_and_validate(spec); }

  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    Result<Params> p = parse_params(spec);
    if (!p || index >= p->tasks) return nullptr;
    return std::make_unique<ChatterTask>(*p, index);
  }

  std::vector<ReduceOp> reduction_ops() const override { return {ReduceOp::kSum, ReduceOp::kSum}; }

  Result<JobOutcome> combine(const JobSpec& spec,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    auto decoded = apps::decode_results<ChatterResult>("chatter", p->tasks, results);
    if (!decoded) return decoded.status();
    return outcome(*decoded);
  }

  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    return outcome(serial_results(*p));
  }
};

}  // namespace

std::unique_ptr<Application> make_chatter_app() { return std::make_unique<ChatterApp>(); }

}  // namespace drift::chatter
