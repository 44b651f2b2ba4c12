// A one-line progress bar for a running job, redrawn in place on a terminal:
//   [##########          ] 50/100 steps  1.2e-03  2.1 s
// The numbers after the steps are the step's reduction values (e.g. heat2d's residual).
// Redraws are throttled; finish() erases the line so the summary starts on a clean one.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace drift::ctl {

// Pure rendering, for tests: `width` characters between the brackets.
std::string render_progress(std::uint64_t step, std::uint64_t steps,
                            const std::vector<double>& values, double elapsed_s, int width = 20);

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  // Draws on `out` only when `enabled` (driftctl: stderr is a terminal).
  ProgressBar(std::FILE* out, bool enabled);

  void update(std::uint64_t step, std::uint64_t steps, const std::vector<double>& values);
  void finish();

 private:
  std::FILE* out_;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace drift::ctl
