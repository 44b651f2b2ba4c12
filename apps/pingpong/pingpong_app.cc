// The pingpong Application (pingpong_app.h), serial reference included.
#include "apps/pingpong/pingpong_app.h"

#include <cstdio>

#include "apps/common/digest.h"
#include "apps/common/task_results.h"
#include "apps/pingpong/pingpong_params.h"
#include "apps/pingpong/pingpong_payload.h"
#include "apps/pingpong/pingpong_result.h"
#include "apps/pingpong/pingpong_task.h"

namespace drift::pingpong {
namespace {

std::string format_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

JobOutcome outcome(const Params& p, std::uint64_t payload_hash, std::uint64_t echoed) {
  JobOutcome out;
  out.checksum = apps::format_hex16(pingpong_checksum(p.rounds, p.bytes, payload_hash, echoed));
  out.details["rounds"] = std::to_string(p.rounds);
  out.details["bytes"] = std::to_string(p.bytes);
  return out;
}

void add_timing(const Params& p, std::uint64_t elapsed_ns, JobOutcome& out) {
  const double seconds = static_cast<double>(elapsed_ns) * 1e-9;
  if (seconds <= 0) return;
  const double rounds = static_cast<double>(p.rounds);
  out.details["elapsed_s"] = format_double(seconds);
  out.details["rtt_us"] = format_double(seconds / rounds * 1e6);
  out.details["throughput_MBps"] = format_double(2 * rounds * p.bytes / seconds / 1e6);
}

class PingpongApp final : public Application {
 public:
  std::string name() const override { return "pingpong"; }
  std::vector<std::string> option_help() const override { return pingpong::option_help(); }
  Status validate(JobSpec& spec) const override { return fill_and_validate(spec); }

  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    Result<Params> p = parse_params(spec);
    if (!p || index >= 2) return nullptr;
    return std::make_unique<PingpongTask>(*p, index);
  }

  std::vector<ReduceOp> reduction_ops() const override { return {ReduceOp::kSum}; }

  Result<JobOutcome> combine(const JobSpec& spec,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    auto r = apps::decode_results<PingpongResult>("pingpong", 2, results);
    if (!r) return r.status();
    JobOutcome out = outcome(*p, (*r)[0].payload_hash, (*r)[1].rounds);
    add_timing(*p, (*r)[0].elapsed_ns, out);
    return out;
  }

  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    std::vector<std::uint8_t> last = make_payload(p->bytes);
    stamp_round(last, p->rounds);
    return outcome(*p, apps::Digest().add_bytes(last).value(), p->rounds);
  }
};

}  // namespace

std::unique_ptr<Application> make_pingpong_app() { return std::make_unique<PingpongApp>(); }

}  // namespace drift::pingpong
