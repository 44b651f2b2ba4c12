// `driftctl tasks [--json]`: every task of every running job, where it lives, how often it moved,
// its load and the messages forwarded to it, as a table or JSON (tasks_view.h).
// Exit 0, 2 bad options, 3 no daemon or no answer.
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"

namespace drift::ctl {

int tasks_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
