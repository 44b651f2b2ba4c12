// Daemons of other architectures for the mixed-architecture integration test: the environment
// variable DRIFT_CROSS_DRIFTD lists them as "ARCH=COMMAND;ARCH=COMMAND", each COMMAND a driftd
// built for ARCH and how to run it here, e.g.
//   s390x=qemu-s390x -L /usr/s390x-linux-gnu build-s390x/bin/driftd
// scripts/cross-test.sh sets it for the cross-built daemons (scripts/cross-arch.sh). A foreign
// daemon starts its workers (the applications' executables of its architecture) the same way:
// DRIFT_CROSS_WORKERS lists "ARCH|APPS_DIR|LAUNCHER;..." — where its installed applications are
// and the command line prefix that runs one of its programs here (worker.apps_path and
// worker.launcher).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <drift/status.h>

namespace drift::test {

inline constexpr const char* kForeignDaemonsVariable = "DRIFT_CROSS_DRIFTD";
inline constexpr const char* kForeignWorkersVariable = "DRIFT_CROSS_WORKERS";

struct ForeignDaemon {
  std::string arch;
  std::vector<std::string> command;  // program, then its arguments; config arguments follow
  std::string apps_dir;              // worker.apps_path; empty: the daemon's default
  std::string launcher;              // worker.launcher; empty: none
};

// Adds what DRIFT_CROSS_WORKERS's text says of each daemon's architecture; an entry that is not
// ARCH|APPS_DIR|LAUNCHER is an error.
Status add_foreign_workers(std::string_view text, std::vector<ForeignDaemon>& daemons);

// Parses the variable's text; an entry without ARCH= or without a command is an error.
Result<std::vector<ForeignDaemon>> parse_foreign_daemons(std::string_view text);

// The daemons the environment lists; an error when the variable is unset or empty.
Result<std::vector<ForeignDaemon>> foreign_daemons_from_environment();

}  // namespace drift::test
