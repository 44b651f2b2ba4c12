// How `driftctl migrate` reports a MigrationReport, one line:
//   moved 0x1a2b3c0001:5 from node 2 to node 3: 64.0 MiB in 0.087 s
// or, when the daemon refused or the move failed,
//   cannot move 0x1a2b3c0001:5 to node 3: <the daemon's reason>
// The time is the task's: frozen at the source until resumed at the destination.
#pragma once

#include <cstdint>
#include <string>

#include "protocol/messages.h"

namespace drift::ctl {

std::string migration_summary(const MigrationReport& report);
// From what was asked: a failed report may not carry the task or the destination.
std::string migration_failure(const TaskId& task, std::uint32_t dest, const std::string& reason);

}  // namespace drift::ctl
