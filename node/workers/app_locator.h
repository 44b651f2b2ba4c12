// Where the executable of an application named in a job (`driftctl run heat2d`) is on this
// machine: the first directory of the apps path holding an executable file of that name. The
// apps path is worker.apps_path, else $DRIFT_APPS_PATH, else lib/drift/apps beside the program's
// own bin/ directory (the build tree and an installed prefix alike). Names are plain: letters,
// digits, '.', '_', '-', not starting with '.'.
#pragma once

#include <string>
#include <vector>

#include <drift/status.h>

namespace drift {

// The apps path for a program whose executable is `self_exe` (empty: /proc/self/exe), given the
// configured one (empty: not configured).
std::vector<std::string> apps_path(const std::vector<std::string>& configured,
                                   const std::string& self_exe = "");

// "heat2d" -> "/usr/lib/drift/apps/heat2d"; the error lists where it looked.
Result<std::string> find_app(const std::string& name, const std::vector<std::string>& path);

// Every application found on the path, by name, first one wins.
std::vector<std::pair<std::string, std::string>> list_apps(const std::vector<std::string>& path);

bool valid_app_name(const std::string& name);

}  // namespace drift
