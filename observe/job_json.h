// A job as JSON — the one shape `driftctl jobs --json` prints and driftd's /api/jobs serves:
// {"job","name","owner","app","state","step","steps","tasks","elapsed_s","nodes","root",
// "reason"}, the id in hex with a 0x prefix.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "protocol/job_messages.h"

namespace drift {

// "0x1a2b3c0001".
std::string job_id_text(std::uint64_t job);
nlohmann::json job_entry_json(const JobEntry& e);

}  // namespace drift
