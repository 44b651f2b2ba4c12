// The heat2d Application (heat2d_app.h): glue between the runtime and heat2d's parts.
#include "apps/heat2d/heat2d_app.h"

#include <cmath>
#include <cstdio>

#include "apps/heat2d/checksum.h"
#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/heat2d_serial.h"
#include "apps/heat2d/heat2d_task.h"
#include "apps/heat2d/task_result.h"

namespace drift::heat2d {
namespace {

std::string format_double(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// The residual is summed in a tiling-dependent order, so it is shown rounded: a progress figure.
JobOutcome outcome(std::uint64_t checksum, double residual_sum_sq, double max_change) {
  JobOutcome out;
  out.checksum = format_checksum(checksum);
  out.details["residual"] = format_double("%.6e", std::sqrt(residual_sum_sq));
  out.details["max_change"] = format_double("%.17g", max_change);  // exact: max is order-free
  return out;
}

class Heat2dApp final : public Application {
 public:
  std::string name() const override { return "heat2d"; }
  std::vector<std::string> option_help() const override { return heat2d::option_help(); }
  Status validate(JobSpec& spec) const override { return fill_and_validate(spec); }

  std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const override {
    Result<Params> p = parse_params(spec);
    if (!p || index >= p->tasks) return nullptr;
    return std::make_unique<Heat2dTask>(*p, index);
  }

  std::vector<ReduceOp> reduction_ops() const override { return {ReduceOp::kSum, ReduceOp::kMax}; }

  std::uint32_t spare_tasks(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    return p ? p->spare : 0;
  }

  // A tile's two grids with their halo rows, three times over (the state encoded for a
  // checkpoint or a move beside the live grids), and a MiB for the rest.
  std::uint64_t memory_per_task(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return 0;
    const std::uint64_t cells = std::uint64_t{p->width} * p->height / p->tiles() +
                                2 * (std::uint64_t{p->width} + p->height);
    return 3 * 2 * sizeof(double) * cells + (1u << 20);
  }

  Result<JobOutcome> combine(const JobSpec& spec,
                             const std::vector<std::vector<std::uint8_t>>& results) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    if (results.size() != p->tasks) {
      return Status::error("heat2d: " + std::to_string(results.size()) + " results for " +
                           std::to_string(p->tasks) + " tasks");
    }
    std::uint64_t checksum = 0;
    TaskResult first;
    for (std::size_t i = 0; i < results.size(); ++i) {
      TaskResult r;
      if (Status s = decode_portable(results[i], r); !s) {
        return Status::error("heat2d: result of task " + std::to_string(i) + " is malformed (" +
                             std::to_string(results[i].size()) + " bytes): " + s.message());
      }
      if (i == 0) first = r;
      checksum += r.checksum;  // wrapping
    }
    return outcome(checksum, first.residual_sum_sq, first.max_change);
  }

  Result<JobOutcome> run_serial(const JobSpec& spec) const override {
    Result<Params> p = parse_params(spec);
    if (!p) return p.status();
    if (static_cast<std::uint64_t>(p->width) * p->height > std::vector<double>().max_size()) {
      return Status::error("heat2d: size = '" + format_size(p->width, p->height) +
                           "' is too large for the serial reference on this machine");
    }
    const SerialRun run = run_serial_grid(*p);
    return outcome(grid_checksum(run.grid, p->width, p->height), run.last.sum_sq_change,
                   run.last.max_abs_change);
  }
};

}  // namespace

std::unique_ptr<Application> make_heat2d_app() { return std::make_unique<Heat2dApp>(); }

}  // namespace drift::heat2d
