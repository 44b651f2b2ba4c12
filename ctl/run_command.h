// `driftctl run APP [--tasks N] [--steps S] [app options] [--json] [--serial]`: validates the job
// locally with the application's own rules, then either runs it on the cluster (RunRequest to
// --node, progress bar while it runs) or, with --serial, runs the application's serial reference
// here. Exit 0 done, 1 the job failed, 2 bad options, 3 no daemon or the connection was lost.
// --chaos-migrations N (a testing aid) asks the job's root to move N random tasks to random
// nodes after every step: JobSpec::runtime["chaos_migrations"]. Ctrl-C or a lost connection
// only detaches: the job goes on (`driftctl attach`, `jobs`, `cancel`, `result`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctl/connection_settings.h"
#include "protocol/wire_types.h"

namespace drift::ctl {

// Testing aids a run can ask for (0: none): random moves, random splits and merges per step.
struct ChaosOptions {
  std::uint32_t migrations = 0;
  std::uint32_t grain = 0;
};

// Drift's own options into spec.runtime; 0 leaves one alone. A usage error with --serial.
Status add_runtime_options(JobSpec& spec, const ChaosOptions& chaos, bool serial);

// With `submit` (`driftctl submit`): the job is started and its id printed; nothing waits for it.
int run_command(const std::vector<std::string>& args, ConnectionSettings settings,
                bool submit = false);

}  // namespace drift::ctl
