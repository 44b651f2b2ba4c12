// Where the driftd executable is: next to the running program (/proc/self/exe; build/bin holds
// driftd, driftctl and the tests together, and so does an install), else the first match on PATH.
#pragma once

#include <filesystem>

#include "protocol/status.h"

namespace drift::ctl {

// The error lists the places looked at.
Result<std::filesystem::path> find_driftd();

}  // namespace drift::ctl
