// driftctl's entry point: global options (connection settings, --help, --version), then one
// command: status, run, tasks, migrate, local. Returns the process exit code (exit_codes.h).
#pragma once

namespace drift::ctl {

int driftctl_main(int argc, char** argv);

}  // namespace drift::ctl
