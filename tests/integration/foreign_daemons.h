// Daemons of other architectures for the mixed-architecture integration test: the environment
// variable DRIFT_CROSS_DRIFTD lists them as "ARCH=COMMAND;ARCH=COMMAND", each COMMAND a driftd
// built for ARCH and how to run it here, e.g.
//   s390x=qemu-s390x -L /usr/s390x-linux-gnu build-s390x/bin/driftd
// scripts/cross-test.sh sets it for the cross-built daemons (scripts/cross-arch.sh).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <drift/status.h>

namespace drift::test {

inline constexpr const char* kForeignDaemonsVariable = "DRIFT_CROSS_DRIFTD";

struct ForeignDaemon {
  std::string arch;
  std::vector<std::string> command;  // program, then its arguments; config arguments follow
};

// Parses the variable's text; an entry without ARCH= or without a command is an error.
Result<std::vector<ForeignDaemon>> parse_foreign_daemons(std::string_view text);

// The daemons the environment lists; an error when the variable is unset or empty.
Result<std::vector<ForeignDaemon>> foreign_daemons_from_environment();

}  // namespace drift::test
