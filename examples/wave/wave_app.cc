// The wave Application: its options, its tasks, how their values combine, the checksum of the
// tasks' final segments, and the serial reference (the whole string on one core).
#include "wave_app.h"

#include <cmath>

#include "wave_task.h"

namespace wave {

std::string WaveApp::name() const { return "wave"; }

std::vector<std::string> WaveApp::option_help() const {
  return {"--points N  points on the string, its two ends fixed (default 20000)"};
}

drift::Status WaveApp::validate(drift::JobSpec& spec) const {
  auto p = read_params(spec);
  if (!p) return p.status();
  if (spec.steps == 0) spec.steps = 500;
  if (spec.tasks == 0) spec.tasks = 4;
  if (spec.tasks > p->points) {
    return drift::Status::error("tasks = " + std::to_string(spec.tasks) + ": more tasks than the " +
                                std::to_string(p->points) + " points");
  }
  return drift::Status::ok();
}

std::unique_ptr<drift::Task> WaveApp::create_task(const drift::JobSpec& spec,
                                                  std::uint32_t index) const {
  drift::JobSpec s = spec;
  auto p = read_params(s);
  if (!p || index >= spec.tasks) return nullptr;
  return std::make_unique<WaveTask>(*p, spec.tasks, index, spec.steps);
}

std::vector<drift::ReduceOp> WaveApp::reduction_ops() const {
  return {drift::ReduceOp::kSum, drift::ReduceOp::kMax};  // energy, largest displacement
}

drift::Result<drift::JobOutcome> WaveApp::combine(
    const drift::JobSpec& spec, const std::vector<std::vector<std::uint8_t>>& results) const {
  std::vector<double> string;
  for (std::size_t t = 0; t < results.size(); ++t) {
    std::vector<double> segment;
    if (auto st = drift::decode_portable(results[t], segment); !st) {
      return drift::Status::error("task " + std::to_string(t) + "'s result: " + st.message());
    }
    string.insert(string.end(), segment.begin(), segment.end());
  }
  drift::JobSpec s = spec;
  auto p = read_params(s);
  if (!p) return p.status();
  if (string.size() != p->points) {
    return drift::Status::error(std::to_string(string.size()) + " points came back, not " +
                                std::to_string(p->points));
  }
  return outcome(string);
}

drift::Result<drift::JobOutcome> WaveApp::run_serial(const drift::JobSpec& spec) const {
  drift::JobSpec s = spec;
  auto p = read_params(s);
  if (!p) return p.status();
  std::vector<double> u(p->points), prev(p->points), next(p->points);
  for (std::uint64_t i = 0; i < p->points; ++i) u[i] = initial_value(*p, i);
  prev = u;
  for (std::uint64_t step = 0; step < spec.steps; ++step) {
    next.front() = next.back() = 0;
    for (std::uint64_t i = 1; i + 1 < p->points; ++i) {
      next[i] = advance(u[i - 1], u[i], u[i + 1], prev[i], p->c2);
    }
    std::swap(prev, u);
    std::swap(u, next);
  }
  return outcome(u);
}

drift::JobOutcome WaveApp::outcome(const std::vector<double>& string) {
  double largest = 0;
  for (double v : string) largest = std::max(largest, std::fabs(v));
  drift::JobOutcome out;
  out.checksum = checksum(string);
  out.details["largest_displacement"] = std::to_string(largest);
  return out;
}

}  // namespace wave
