// How `driftctl status` shows a StatusReply: a table for people (nodes sorted by id; the last
// columns are the counters: MIGR (out/in), MOVED, FWD, LOCUPD), or, for scripts, the JSON of
// observe/status_json.h, the same as driftd's /api/status.
#pragma once

#include <string>

#include "observe/status_json.h"
#include "protocol/messages.h"

namespace drift::ctl {

std::string status_table(const StatusReply& reply);

}  // namespace drift::ctl
