// The real-CPU testbed (drift_testbed --only real; docs/architecture.md §8.1): the daemons run
// on this machine's own cores, each in a cgroup of its own with a CPU quota (root needed; skipped
// with the reason without), no emulation at all. For two ratio sets of quotas — seed 000's speeds
// without its slowest machine, and a random set — scaled to the cores this machine can give
// (Σ = 1.75 of 2), and for particles and heat2d: no balancing, diffusion, and the control (the
// same number of daemons with equal quotas of the same total, balanced). Per row: the steady step
// time, its percentage of the control's, the capacities the nodes advertised against their quota
// shares, migrations (after convergence too) and rounds; a plot of step times per set and app.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tests/bench/testbed/testbed_run.h"

namespace drift::bench {

struct RealTestbedOutcome {
  std::string markdown;
  std::vector<std::string> errors;  // rows that did not run
  std::vector<std::string> missed;  // targets not met
};

// `only`: run just the rows whose "set/app: row" name (e.g. "random/heat2d: diffusion")
// contains one of these (empty: all); the others are listed as not run.
RealTestbedOutcome real_cpu_testbed(const TestbedSetup& setup, bool quick,
                                    const std::filesystem::path& out_dir,
                                    const std::vector<std::string>& only = {});

// Quotas in proportion to `ratios`, summing to `total` cores, none above `ceiling`.
std::vector<double> scaled_quotas(const std::vector<double>& ratios, double total, double ceiling);

// The largest |advertised share - quota share| / quota share over the nodes, from capacities
// advertised (index k-1) and quotas; 0 when nothing was advertised.
double worst_share_error(const std::vector<double>& capacity, const std::vector<double>& quotas);

}  // namespace drift::bench
