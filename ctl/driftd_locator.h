// Where the driftd executable is: next to the running program (/proc/self/exe; build/bin holds
// driftd, driftctl and the tests together, and so does an install), else the first match on PATH;
// and where any program named without a slash is on PATH.
#pragma once

#include <filesystem>
#include <string>

#include <drift/status.h>

namespace drift::ctl {

// driftd beside this program, in ../sbin (an installed tree), else on PATH; the error lists the
// places looked at.
Result<std::filesystem::path> find_driftd();

// `program` itself if it has a slash, else the first executable of that name on PATH.
Result<std::filesystem::path> find_program(const std::string& program);

}  // namespace drift::ctl
